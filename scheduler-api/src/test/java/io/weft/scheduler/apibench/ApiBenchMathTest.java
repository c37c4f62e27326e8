package io.weft.scheduler.apibench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Role;
import org.junit.jupiter.api.Test;

class ApiBenchMathTest {

    @Test
    void nearestRankPercentiles() {
        double[] a = ApiBench.sorted(List.of(5.0, 1.0, 4.0, 2.0, 3.0, 6.0, 7.0, 8.0, 9.0, 10.0));
        assertThat(ApiBench.pct(a, 50)).isEqualTo(5.0);
        assertThat(ApiBench.pct(a, 99)).isEqualTo(10.0);
        assertThat(ApiBench.pct(a, 10)).isEqualTo(1.0);
        assertThat(ApiBench.pct(new double[0], 50)).isNaN();
    }

    @Test
    void theWarmMedianLeavesTheFirstRoundOut() {
        assertThat(ApiBench.Result.warmMedian(new double[] {90, 12, 30, 11})).isEqualTo(12.0);
        assertThat(ApiBench.Result.warmMedian(new double[] {90, 12, 14})).isEqualTo(13.0);
        assertThat(ApiBench.Result.warmMedian(new double[] {90})).isNaN();
    }

    @Test
    void generatedFabricIsAValidLeafSpine() throws Exception {
        Fabric f = FabricJson.parse(ApiBench.leafSpine(4));
        assertThat(f.nodesWithRole(Role.NIC)).hasSize(64);
        assertThat(f.nodesWithRole(Role.SPINE)).hasSize(8);
        assertThat(f.links()).hasSize(4 * 8 + 64);
    }
}
