package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * A commodity's path flows split among its flows: every flow gets its demand on at most the limit
 * of paths, each flow in exactly one group, and the paths carry exactly their flow when the split
 * says it is exact (seeded random commodities; small paths force drops now and then).
 */
class FlowSplitTest {
    @Test
    void eachFlowKeepsTheLimitAndThePathsTheirFlow() {
        Random rnd = new Random(17);
        int exactCases = 0;
        for (int t = 0; t < 2_000; t++) {
            int flows = 1 + rnd.nextInt(12);
            int paths = 1 + rnd.nextInt(16);
            int limit = 1 + rnd.nextInt(8);
            double[] demands = new double[flows];
            double total = 0;
            for (int j = 0; j < flows; j++) {
                demands[j] = new double[] {100, 200, 400}[rnd.nextInt(3)];
                total += demands[j];
            }
            double[] x = new double[paths];
            double sum = 0;
            for (int p = 0; p < paths; p++) {
                x[p] = rnd.nextInt(4) == 0 ? 0 : rnd.nextDouble();
                sum += x[p];
            }
            if (sum == 0) {
                x[0] = 1;
                sum = 1;
            }
            for (int p = 0; p < paths; p++) {
                x[p] *= total / sum;
            }
            boolean[] exact = {true};
            List<FlowSplit.Group> groups = FlowSplit.split(x, demands, limit, exact);
            double[] onPath = new double[paths];
            Set<Integer> seen = new HashSet<>();
            for (FlowSplit.Group g : groups) {
                assertThat(g.paths().length).isBetween(1, limit);
                double groupDemand = 0;
                for (int j : g.flows()) {
                    assertThat(seen.add(j)).as("flow %d in one group", j).isTrue();
                    groupDemand += demands[j];
                }
                double amounts = 0;
                for (int k = 0; k < g.paths().length; k++) {
                    assertThat(g.amounts()[k]).isPositive();
                    onPath[g.paths()[k]] += g.amounts()[k];
                    amounts += g.amounts()[k];
                }
                assertThat(amounts).isCloseTo(groupDemand, within(1e-9 * total));
            }
            assertThat(seen).hasSize(flows);
            if (exact[0]) {
                exactCases++;
                for (int p = 0; p < paths; p++) {
                    assertThat(onPath[p]).as("path %d, case %d", p, t).isCloseTo(x[p], within(1e-9 * total));
                }
            }
        }
        assertThat(exactCases).as("most random cases split exactly").isGreaterThan(1_000);
    }

    /** 12 line-rate flows over 8 equal paths, 4 per flow allowed: each flow takes 1 or 2 paths, exactly. */
    @Test
    void twelveFlowsOverEightPathsTakeTwoAtMost() {
        double[] x = new double[8];
        java.util.Arrays.fill(x, 600);
        double[] demands = new double[12];
        java.util.Arrays.fill(demands, 400);
        boolean[] exact = {true};
        List<FlowSplit.Group> groups = FlowSplit.split(x, demands, 4, exact);
        assertThat(exact[0]).isTrue();
        assertThat(groups).allSatisfy(g -> assertThat(g.paths().length).isLessThanOrEqualTo(2));
    }
}
