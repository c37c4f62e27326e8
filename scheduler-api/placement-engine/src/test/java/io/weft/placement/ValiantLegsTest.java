package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.stream.Stream;

import io.weft.fabric.Fabric;
import io.weft.lab.fabric.SlimFlyGenerator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded differential test: the one-pass leg bottlenecks the Valiant search uses equal, bit for
 * bit, the per-pair DAG pass they replace, under random loads and failed links; and under a limit
 * (the Valiant search leaves out arcs at or above the minimal paths' bottleneck) every leg value
 * below it is still exact.
 */
class ValiantLegsTest {

    static Stream<Arguments> fabrics() {
        return Stream.of(
                Arguments.of("dragonfly(2,4,2)", Fixtures.dragonfly(2, 4, 2), 0.0),
                Arguments.of("dragonfly(2,4,2) 10% down", Fixtures.dragonfly(2, 4, 2), 0.1),
                Arguments.of("slim fly q=5 5% down", SlimFlyGenerator.generate(SlimFlyGenerator.Params.of(5)), 0.05));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void oneScanEqualsThePerPairDags(String name, Fabric f, double down) {
        Random rnd = new Random(23);
        DenseFabric ix = Fixtures.withRandomLinksDown(f, rnd, down);
        long[] load = new long[ix.arcCount()];
        for (int a = 0; a < load.length; a++) {
            load[a] = rnd.nextInt(5) * 100_000_000L + rnd.nextInt(3) * 1_000L;
        }
        PathChooser chooser = new PathChooser(ix, new CandidatePaths(ix), load, new int[ix.arcCount()], 1);
        int[] routers = new CandidatePaths(ix).intermediates();
        int compared = 0;
        for (int s : routers) {
            for (int d : routers) {
                if (s == d) {
                    continue;
                }
                double limit = 0.5 + rnd.nextInt(8) * 0.25;
                for (int i : routers) {
                    if (i == s || i == d) {
                        continue;
                    }
                    double[] v = chooser.legsBothWays(s, i, d, 100_000_000L);
                    // Under a limit: exact below it, MAX_VALUE (never a winner) at or above it.
                    double[] cut = chooser.legsBothWays(s, i, d, 100_000_000L, limit);
                    for (int leg = 0; leg < 2; leg++) {
                        assertThat(cut[leg]).as("leg %d under %s, %d->%d->%d on %s", leg + 1, limit, s, i, d, name)
                                .isEqualTo(v[leg] < limit ? v[leg] : Double.MAX_VALUE);
                    }
                    assertThat(v).as("distance matrix on %s", name).isNotNull();
                    if (!Double.isNaN(v[2])) {
                        assertThat(v[0]).as("leg one %d->%d on %s", s, i, name).isEqualTo(v[2]);
                        compared++;
                    }
                    if (!Double.isNaN(v[3])) {
                        assertThat(v[1]).as("leg two %d->%d on %s", i, d, name).isEqualTo(v[3]);
                        compared++;
                    }
                }
            }
        }
        assertThat(compared).isGreaterThan(1000);
    }
}
