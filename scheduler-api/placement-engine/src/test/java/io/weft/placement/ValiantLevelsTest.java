package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.weft.fabric.Fabric;
import io.weft.lab.fabric.SlimFlyGenerator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded differential test: the Valiant choice by levels of load gives the very path, bottleneck and
 * collisions the long way does (bottleneck DPs, then cost DPs), under random quantised loads with
 * near-ties (loads a few kbit/s apart), elephants at the tolerance and failed links.
 */
class ValiantLevelsTest {

    static Stream<Arguments> fabrics() {
        return Stream.of(
                Arguments.of("dragonfly(2,4,2)", Fixtures.dragonfly(2, 4, 2), 0.0),
                Arguments.of("dragonfly(4,8,4) 5% down", Fixtures.dragonfly(4, 8, 4), 0.05),
                Arguments.of("slim fly q=5 5% down", SlimFlyGenerator.generate(SlimFlyGenerator.Params.of(5)), 0.05));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void levelsChooseWhatTheLongWayChooses(String name, Fabric f, double down) {
        Random rnd = new Random(41);
        DenseFabric ix = Fixtures.withRandomLinksDown(f, rnd, down);
        int[] nics = IntStream.range(0, ix.nodeCount).filter(n -> ix.nicPorts[n].length > 0).toArray();
        int detours = 0;
        for (int round = 0; round < 20; round++) {
            long[] load = new long[ix.arcCount()];
            int[] elephants = new int[ix.arcCount()];
            for (int a = 0; a < load.length; a++) {
                load[a] = rnd.nextInt(4) * 100_000_000L + (rnd.nextInt(4) == 0 ? rnd.nextInt(3) * 1_000L : 0);
                elephants[a] = rnd.nextInt(3);
            }
            CandidatePaths cands = new CandidatePaths(ix);
            PathChooser levels = new PathChooser(ix, cands, load, elephants, 1);
            PathChooser longWay = new PathChooser(ix, cands, load, elephants, 1);
            longWay.valiantByLevels(false);
            for (int t = 0; t < 150; t++) {
                int src = nics[rnd.nextInt(nics.length)];
                int dst = nics[rnd.nextInt(nics.length)];
                if (src == dst) {
                    continue;
                }
                boolean elephant = rnd.nextBoolean();
                double above = rnd.nextInt(4) * 0.5;
                PathChooser.Choice a = levels.choose(src, dst, 100_000_000L, elephant, above);
                PathChooser.Choice b = longWay.choose(src, dst, 100_000_000L, elephant, above);
                String what = String.format("%s round %d flow %d: %d -> %d", name, round, t, src, dst);
                assertThat(a.path).as(what).isEqualTo(b.path);
                assertThat(a.bottleneck).as(what).isEqualTo(b.bottleneck);
                assertThat(a.collisions).as(what).isEqualTo(b.collisions);
                PathChooser.Choice minimal = longWay.choose(src, dst, 100_000_000L, elephant, Double.MAX_VALUE);
                if (a.path != null && !Arrays.equals(a.path, minimal.path)) {
                    detours++;
                }
            }
        }
        assertThat(detours).as("Valiant detours taken on %s", name).isGreaterThan(100);
    }
}
