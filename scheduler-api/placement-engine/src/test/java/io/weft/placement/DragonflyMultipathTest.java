package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.weft.fabric.Fabric;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import org.junit.jupiter.api.Test;

/**
 * Weighted multipath on a Dragonfly(3,6,3) (19 groups of 6 routers, 342 NICs), seeded random
 * permutations at line rate, 8 paths per flow in sixteenths: the smallest Dragonfly found that
 * behaves like the bench's Dragonfly(4,8,4) rows. From the LP's sparse basic optimum the rounding
 * and its repair reach 20/16, the granular bound, so no routing in sixteenths does better.
 * Gradient projection alone (as on jobs of more than {@link ColumnGenerationMultipath#LP_COMMODITIES}
 * switch pairs) ends 1-3 % above the LP optimum and its rounding and repair at 21/16; rerouting
 * the rounded units ({@link UnitReroute}) takes it to 20/16 too (before it, both seeds ended at
 * 21/16: how the bench rows reach it, {@link ColumnGenerationMultipath}).
 *
 * <p>The optimum is column generation's, proven by its own pricing (its lower bound equals it):
 * {@link SplittableLpReference}, which lists every candidate of every flow, needs about a minute
 * per seed here; it checks column generation on the Dragonfly(2,4,2) of
 * {@link ColumnGenerationMultipathTest}.
 */
class DragonflyMultipathTest {
    private static final MultipathOptions EXACT = new MultipathOptions(8, 16, 120_000, 0);

    @Test
    void fromTheLpOptimumRoundingReachesTheBestSixteenthsAndGradientProjectionStaysAboveIt() throws Exception {
        Fabric f = Fixtures.dragonfly(3, 6, 3);
        DenseFabric ix = DenseFabric.of(f);
        FabricPlan plan = Planner.plan(f, null);
        ColumnGenerationMultipath lp = new ColumnGenerationMultipath(ix, new PlanFlowEncoder(plan),
                PlacementConfig.DEFAULTS);
        ColumnGenerationMultipath gp = new ColumnGenerationMultipath(ix, new PlanFlowEncoder(plan),
                PlacementConfig.DEFAULTS);
        gp.lpCommodities = 0;
        for (long seed = 1; seed <= 2; seed++) {
            Job job = ColumnGenerationMultipathTest.permutation(f, ix, seed, false);
            String what = "seed " + seed;
            MultipathResult r = lp.place(job, EXACT);
            double opt = r.splittableOptimum();
            assertThat(r.fallback()).as(what).isNull();
            assertThat(opt).as(what).isFinite().isLessThan(r.singlePathMaxLoad());
            assertThat(r.lowerBound()).as("proven by pricing, %s", what).isCloseTo(opt, within(1e-6 * opt));
            assertThat(r.fractionalMaxLoad()).as(what).isCloseTo(opt, within(1e-6 * opt));
            assertThat(r.granularBound()).as(what).isEqualTo(1.25);
            assertThat(r.maxLoad()).as("the best rounding, %s", what).isCloseTo(r.granularBound(), within(1e-9));
            assertThat(r.maxLoad() / opt).as(what).isLessThanOrEqualTo(1.05);
            assertThat(ColumnGenerationMultipathTest.measuredMaxLoad(ix, r, EXACT.granularity())).as(what)
                    .isCloseTo(r.maxLoad(), within(1e-9));
            ColumnGenerationMultipathTest.assertWellFormed(ix, plan, job, r, EXACT);

            // Gradient projection alone on the same job: a routing over the same candidates, so never
            // below the optimum; its bound holds against it; rerouted, it reaches the best rounding.
            MultipathResult g = gp.place(job, ColumnGenerationMultipathTest.SERVED);
            assertThat(g.fallback()).as(what).isNull();
            assertThat(g.iterations()).as("no LP round, %s", what).isZero();
            assertThat(g.lowerBound()).as(what).isLessThanOrEqualTo(opt * (1 + 1e-6));
            assertThat(g.fractionalMaxLoad()).as(what).isGreaterThanOrEqualTo(opt * (1 - 1e-6))
                    .isLessThanOrEqualTo(1.06 * opt);
            assertThat(g.maxLoad()).as("the best rounding, %s", what).isCloseTo(r.granularBound(), within(1e-9))
                    .isLessThanOrEqualTo(g.fractionalMaxLoad() + g.roundingBound() + 1e-9);
            ColumnGenerationMultipathTest.assertWellFormed(ix, plan, job, g, ColumnGenerationMultipathTest.SERVED);
        }
    }
}
