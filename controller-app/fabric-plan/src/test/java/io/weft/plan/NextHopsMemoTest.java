package io.weft.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import io.weft.fabric.Arc;
import org.junit.jupiter.api.Test;

/** The plan's per-pair memo of next hops and EV table coverage answers what a fresh computation does. */
class NextHopsMemoTest {

    @Test
    void memoisedNextHopsMatchShortestPathsOnAClos() throws Exception {
        checkEveryPair(Planner.plan(TestFabrics.clos3(2, 2, 2, 2), null));
    }

    @Test
    void memoisedNextHopsMatchShortestPathsOnADragonfly() throws Exception {
        checkEveryPair(Planner.plan(TestFabrics.dragonfly(2, 4, 2), null));
    }

    private static void checkEveryPair(FabricPlan plan) {
        for (String from : plan.switches()) {
            for (String to : plan.switches()) {
                List<Arc> hops = plan.nextHops(from, to);
                assertThat(hops).as(from + " -> " + to).containsExactlyElementsOf(fresh(plan, from, to));
                // Asked again: the very same (unmodifiable) answer.
                assertThat(plan.nextHops(from, to)).isSameAs(hops);
                assertThatThrownBy(() -> hops.add(null)).isInstanceOf(UnsupportedOperationException.class);
                for (int stage = 1; stage <= 2; stage++) {
                    assertThat(plan.evTableCoversNextHops(from, stage, to)).as(from + " -> " + to + " stage " + stage)
                            .isEqualTo(plan.evTableCovers(from, stage, hops));
                }
            }
        }
    }

    /** Every switch arc one hop closer to the target, in switchArcs order (the definition). */
    private static List<Arc> fresh(FabricPlan plan, String from, String to) {
        List<Arc> out = new ArrayList<>();
        int d = plan.distance(from, to);
        if (d <= 0) {
            return out;
        }
        for (Arc a : plan.switchArcs(from)) {
            if (plan.distance(a.to(), to) == d - 1) {
                out.add(a);
            }
        }
        return out;
    }
}
