package io.weft.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

class MaxMinSolverTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void textbookExampleGetsItsHandComputedRates() {
        // Bertsekas-Gallager style: arcs 0 (cap 1), 1 (cap 1); flow 0 crosses both, flow 1 arc 0, flow 2 and 3 arc 1.
        // Arc 1 is the tightest (3 flows): 1/3 each for flows 0, 2, 3; flow 1 takes what is left on arc 0: 2/3.
        double[] rates = solve(new double[] {1, 1}, List.of(new int[] {0, 1}, new int[] {0}, new int[] {1},
                new int[] {1}), new double[] {INF, INF, INF, INF});
        assertThat(rates).containsExactly(new double[] {1.0 / 3, 2.0 / 3, 1.0 / 3, 1.0 / 3}, within(1e-12));
    }

    @Test
    void demandCapsAFlowAndTheOthersShareTheRest() {
        // Three flows on one 400G arc, one wants only 40G: 40, 180, 180.
        double[] rates = solve(new double[] {400}, List.of(new int[] {0}, new int[] {0}, new int[] {0}),
                new double[] {40, INF, INF});
        assertThat(rates).containsExactly(new double[] {40, 180, 180}, within(1e-9));
    }

    @Test
    void aDeadArcStopsOnlyItsOwnFlows() {
        double[] rates = solve(new double[] {0, 100}, List.of(new int[] {0, 1}, new int[] {1}),
                new double[] {INF, INF});
        assertThat(rates).containsExactly(new double[] {0, 100}, within(1e-12));
    }

    @Test
    void matchesTheReferenceWaterFillingOnSeededRandomInstances() {
        for (long seed = 1; seed <= 2000; seed++) {
            RandomInstance in = RandomInstance.of(seed, 12, 30);
            double[] got = in.solve();
            double[] want = ReferenceWaterFilling.rates(in.capacityGbps(), in.routes(), in.demandGbps());
            for (int f = 0; f < got.length; f++) {
                assertThat(got[f]).as("seed %d flow %d", seed, f).isCloseTo(want[f], within(1e-6));
            }
        }
    }

    @Test
    void everyFlowHasABottleneckAndNoArcIsOverfull() {
        // The defining property of max-min fairness (Bertsekas-Gallager, Prop. 6.5.1), checked directly:
        // each flow is at its demand, or crosses a full arc on which no flow gets more than it.
        for (long seed = 1; seed <= 2000; seed++) {
            RandomInstance in = RandomInstance.of(seed, 10, 25);
            double[] rate = in.solve();
            double[] load = new double[in.capacityGbps().length];
            for (int f = 0; f < rate.length; f++) {
                for (int a : in.routes().get(f)) {
                    load[a] += rate[f];
                }
            }
            for (int a = 0; a < load.length; a++) {
                assertThat(load[a]).as("seed %d arc %d load", seed, a).isLessThanOrEqualTo(in.capacityGbps()[a] + 1e-6);
            }
            for (int f = 0; f < rate.length; f++) {
                boolean bottlenecked = rate[f] >= in.demandGbps()[f] - 1e-6;
                for (int a : in.routes().get(f)) {
                    if (load[a] >= in.capacityGbps()[a] - 1e-6) {
                        boolean largest = true;
                        for (int g = 0; g < rate.length; g++) {
                            for (int b : in.routes().get(g)) {
                                if (b == a && rate[g] > rate[f] + 1e-6) {
                                    largest = false;
                                }
                            }
                        }
                        bottlenecked |= largest;
                    }
                }
                assertThat(bottlenecked).as("seed %d flow %d (rate %s) has a bottleneck", seed, f, rate[f]).isTrue();
            }
        }
    }

    @Test
    void aSolverReusedOnSmallerInputsGivesTheSameAnswer() {
        MaxMinSolver solver = new MaxMinSolver();
        RandomInstance big = RandomInstance.of(7, 12, 30);
        double[] scratch = new double[big.routes().size()];
        solver.solve(big.routes().size(), big.routeStart(), big.routeArcs(), big.demandGbps(), big.capacityGbps(),
                scratch);
        RandomInstance small = RandomInstance.of(8, 4, 5);
        double[] again = new double[small.routes().size()];
        solver.solve(small.routes().size(), small.routeStart(), small.routeArcs(), small.demandGbps(),
                small.capacityGbps(), again);
        assertThat(again).containsExactly(small.solve(), within(1e-12));
    }

    private static double[] solve(double[] cap, List<int[]> routes, double[] demand) {
        return new RandomInstance(cap, routes, demand).solve();
    }
}
