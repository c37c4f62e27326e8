package io.weft.southbound.gnmi.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The benchmark on a k=4 fat-tree (20 switches): it runs and its numbers add up. */
class SouthboundBenchTest {
    @Test
    void smallFatTreeFullPushAndOneLinkReplan() throws Exception {
        Map<String, Object> r = SouthboundBench.run(4);
        assertThat(r.get("switches")).isEqualTo(20);
        assertThat(r.get("full_push_in_sync")).isEqualTo(20);
        assertThat(r.get("replan_in_sync")).isEqualTo(20);
        assertThat((Integer) r.get("replan_switches_repushed")).isBetween(2, 20)
                .as("only switches whose intent changed").isEqualTo(r.get("replan_switches_changed"));
        assertThat((Integer) r.get("replan_ops_sent")).isPositive()
                .isLessThan((Integer) r.get("full_push_ops"));
    }
}
