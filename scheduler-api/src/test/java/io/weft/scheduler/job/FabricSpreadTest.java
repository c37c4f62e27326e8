package io.weft.scheduler.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.placement.ColumnGenerationMultipath;
import io.weft.placement.DenseFabric;
import io.weft.placement.Flow;
import io.weft.placement.Job;
import io.weft.placement.MultipathOptions;
import io.weft.placement.MultipathResult;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlanFlowEncoder;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.plan.walk.ForwardingWalk;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two multipath jobs that arrive one after another, on the real engine, planner and plan encoder: a
 * 3-leaf, 3-spine leaf-spine of 400G links. Job a sends two line-rate flows leaf1 → leaf2, job b two
 * leaf1 → leaf3, each at most two paths. a fits on two of leaf1's three uplinks (1.0, one path each);
 * b, with those two full, reaches 1.5 at best. Spread together the four flows share the three
 * uplinks: the splittable optimum is 1600 / 1200 = 4/3 (checked with an LP written here), and
 * sixteenths of a 400G flow carry it as 1.375.
 */
class FabricSpreadTest {
    static final MultipathRequest TWO_PATHS = new MultipathRequest(2, 16);
    /** Enough for the planner on a loaded machine; the answers do not depend on it. */
    static final long BUDGET_MS = 3_000;
    static final Fabric FABRIC = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(3, 3, 4));

    FabricPlan plan;
    PlacementEngine engine;

    @BeforeEach
    void twoJobsOneAfterAnother() throws Exception {
        plan = Planner.plan(FABRIC, null);
        engine = new PlacementEngine(DenseFabric.of(FABRIC), new PlanFlowEncoder(plan), PlacementConfig.DEFAULTS);
        MultipathPlacement.place(engine, plan, job("a", 1, 2), TWO_PATHS, Encoding.BOTH, BUDGET_MS);
        MultipathPlacement.place(engine, plan, job("b", 3, 3), TWO_PATHS, Encoding.BOTH, BUDGET_MS);
    }

    /** Two line-rate flows from leaf1's NICs n and n+1 to the same NICs of {@code leaf}. */
    static Job job(String id, int n, int leaf) {
        return new Job(id, "default", List.of(
                new Flow(id + "/0", id, "leaf1-nic" + n, "leaf" + leaf + "-nic" + n, 400, 0),
                new Flow(id + "/1", id, "leaf1-nic" + (n + 1), "leaf" + leaf + "-nic" + (n + 1), 400, 0)));
    }

    static List<FabricSpread.SpreadJob> jobs() {
        return List.of(new FabricSpread.SpreadJob("a", "default", Encoding.BOTH, 2, 16),
                new FabricSpread.SpreadJob("b", "default", Encoding.BOTH, 2, 16));
    }

    MultipathPlacement.Spreader planner() {
        return (j, options, background) -> new ColumnGenerationMultipath(engine.index(), new PlanFlowEncoder(plan),
                engine.config()).place(j, options, background);
    }

    @Test
    void spreadingBothTogetherReachesTheJointOptimum() throws Exception {
        assertThat(engine.quality().maxLoad()).as("one after another").isCloseTo(1.5, within(1e-9));

        FabricSpread.Plan p = FabricSpread.plan(engine, jobs(), BUDGET_MS, planner());

        assertThat(p.fallback()).isNull();
        assertThat(p.maxLoadBefore()).isCloseTo(1.5, within(1e-9));
        double lp = leafSpineOptimum();
        assertThat(lp).isCloseTo(4.0 / 3, within(1e-9));
        assertThat(p.lowerBound()).isLessThanOrEqualTo(lp + 1e-9);
        // The LP optimum rounded to sixteenths of a flow: at most 1/16 of 400G more on an uplink.
        assertThat(p.maxLoadAfter()).isBetween(lp - 1e-9, 1.375 + 1e-9);
        // 64 sixteenths (25G) on three uplinks put 22 on one: no routing in sixteenths beats 1.375, so
        // the answer's 3 % above the optimum is the granularity's, and the plan says so.
        assertThat(p.lowerBound()).isCloseTo(lp, within(1e-6));
        assertThat(p.granularBound()).isCloseTo(1.375, within(1e-9));
        assertThat(p.maxLoadAfter()).isCloseTo(p.granularBound(), within(1e-9));
        assertThat(p.changed()).isNotEmpty();

        FabricSpread.apply(engine, p);

        assertThat(engine.quality().maxLoad()).isCloseTo(p.maxLoadAfter(), within(1e-9));
        Map<String, Double> share = new HashMap<>();
        for (String j : List.of("a", "b")) {
            for (PlacedFlow s : engine.placedFlows(j)) {
                share.merge(s.flow().id().substring(0, 3), s.flow().demandGbps() / 400, Double::sum);
                assertThat(s.flow().id()).matches(j + "/[01](\\.[01])?");
                // Every slice walks the plan's forwarding with its own carriers and entropy value.
                assertThat(ForwardingWalk.walkCarriers(plan, s.flow().srcNic(), s.flow().dstNic(),
                        s.encoding().carriers(), "default")).isEqualTo(s.path());
                assertThat(ForwardingWalk.walkEv(plan, s.flow().srcNic(), s.flow().dstNic(), s.encoding().ev(),
                        "default")).isEqualTo(s.path());
            }
        }
        assertThat(share).containsOnlyKeys("a/0", "a/1", "b/0", "b/1");
        share.values().forEach(w -> assertThat(w).isCloseTo(1.0, within(1e-12)));
    }

    /**
     * A job in eighths with up to three paths next to one in sixteenths with two: the pass rounds in
     * sixteenths, and each flow ends with its own job's limits (before, both were held to eighths
     * and two paths). A bound in sixteenths holds for both: eighths are sixteenths.
     */
    @Test
    void eachJobKeepsItsOwnGranularityAndPathLimitInAJointPass() throws Exception {
        List<FabricSpread.SpreadJob> mixed = List.of(new FabricSpread.SpreadJob("a", "default", Encoding.BOTH, 2, 16),
                new FabricSpread.SpreadJob("b", "default", Encoding.BOTH, 3, 8));
        FabricSpread.Plan p = FabricSpread.plan(engine, mixed, BUDGET_MS, planner());
        assertThat(p.fallback()).isNull();
        assertThat(p.granularBound()).isCloseTo(1.375, within(1e-9));
        assertThat(p.maxLoadAfter()).isLessThan(p.maxLoadBefore());
        for (FabricSpread.PatternFlow f : p.flows()) {
            int g = f.job().granularity();
            assertThat(f.granularity()).as(f.flow().id()).isEqualTo(g);
            assertThat(f.paths()).as(f.flow().id()).hasSizeBetween(1, f.job().maxPaths());
            assertThat(f.units().stream().mapToInt(Integer::intValue).sum()).as(f.flow().id()).isEqualTo(g);
        }

        FabricSpread.apply(engine, p);
        assertThat(engine.quality().maxLoad()).isCloseTo(p.maxLoadAfter(), within(1e-9));
        for (PlacedFlow s : engine.placedFlows("b")) {
            double eighths = s.flow().demandGbps() / 50;
            assertThat(eighths).as(s.flow().id()).isCloseTo(Math.rint(eighths), within(1e-9));
        }
        Map<String, Map<String, Object>> stored = MultipathRespread.summaries(engine, p, p.maxLoadAfter());
        assertThat(stored.get("a")).containsEntry("granularBound", p.granularBound());
        assertThat(stored.get("b")).containsEntry("granularBound", p.granularBound());
    }

    @Test
    void aFlowIsFittedToItsJobsLimitsByLargestRemainder() {
        FabricSpread.PatternFlow f = new FabricSpread.PatternFlow(new FabricSpread.SpreadJob("j", "default",
                Encoding.BOTH, 2, 8), 0, new Flow("j/0", "j", "x", "y", 400, 0), List.of(), List.of(), List.of(), 1);
        int[] p1 = {1};
        int[] p2 = {2};
        int[] p3 = {3};
        // Sixteenths 4, 7, 5: the two heaviest (7, 5) in eighths are 4.67 and 3.33, dealt 5 and 3.
        FabricSpread.PatternFlow fitted = FabricSpread.fit(f, List.of(p1, p2, p3), List.of(4, 7, 5), 16);
        assertThat(fitted.paths()).containsExactly(p2, p3);
        assertThat(fitted.units()).containsExactly(5, 3);
        assertThat(fitted.granularity()).isEqualTo(8);
        assertThat(FabricSpread.fit(f, List.of(), List.of(), 16)).isNull();
        assertThat(FabricSpread.passGranularity(List.of(f.job(), new FabricSpread.SpreadJob("k", "default",
                Encoding.BOTH, 2, 16)))).isEqualTo(16);
        assertThat(FabricSpread.passGranularity(List.of(new FabricSpread.SpreadJob("k", "default", Encoding.BOTH, 2,
                6), f.job()))).isEqualTo(24);
    }

    /**
     * Both jobs placed while two of leaf1's uplinks were down, all four flows on the third (4.0), then
     * the links restored: a planner that falls back (here: one path allowed) still hands out one path
     * per flow over all three uplinks (2.0), and the pass takes that as its plan and says why.
     */
    @Test
    void aPlannerFallbackStillPlansOnePathPerFlowThatBeatsThePlacementNow() throws Exception {
        engine = new PlacementEngine(DenseFabric.of(FABRIC), new PlanFlowEncoder(plan), PlacementConfig.DEFAULTS);
        engine.updateLinkStates(Map.of("leaf1-spine1", LinkState.DOWN, "leaf1-spine2", LinkState.DOWN));
        MultipathPlacement.place(engine, plan, job("a", 1, 2), TWO_PATHS, Encoding.BOTH, BUDGET_MS);
        MultipathPlacement.place(engine, plan, job("b", 3, 3), TWO_PATHS, Encoding.BOTH, BUDGET_MS);
        engine.updateLinkStates(Map.of());
        assertThat(engine.quality().maxLoad()).as("all four on leaf1-spine3").isCloseTo(4.0, within(1e-9));

        FabricSpread.Plan p = FabricSpread.plan(engine, jobs(), BUDGET_MS, (j, options, background) ->
                planner().spread(j, new MultipathOptions(1, options.granularity(), options.timeBudgetMs()),
                        background));

        assertThat(p.fallback()).isNull();
        assertThat(p.note()).startsWith("one path per flow (").contains("maxPaths 1");
        assertThat(p.maxLoadAfter()).isCloseTo(2.0, within(1e-9));
        assertThat(p.changed()).isNotEmpty();
        p.flows().forEach(f -> assertThat(f.paths()).as(f.flow().id()).hasSize(1));
        FabricSpread.apply(engine, p);
        assertThat(engine.quality().maxLoad()).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void aPlannerFallbackKeepsThePlacementAndSaysWhy() throws Exception {
        FabricSpread.Plan p = FabricSpread.plan(engine, jobs(), 1, (j, options, background) ->
                new MultipathResult(List.of(), List.of(), "time budget 1 ms spent after 3 passes", 1.5, Double.NaN,
                        Double.NaN, Double.NaN, 1.5, 0, Double.NaN, 0, 0));
        assertThat(p.fallback()).isEqualTo("time budget 1 ms spent after 3 passes: the placement stays");
        assertThat(p.granularBound()).isNaN();
        assertThat(p.changed()).isEmpty();
        assertThat(p.flows()).hasSize(4);
    }

    /**
     * The min-max splittable routing of the four flows over leaf1's uplinks, solved here with GLOP
     * (each flow over the three spines; downlinks carry at most two flows of one leaf pair, so only
     * the shared uplinks bind).
     */
    static double leafSpineOptimum() {
        com.google.ortools.Loader.loadNativeLibraries();
        MPSolver lp = MPSolver.createSolver("GLOP");
        MPVariable lambda = lp.makeNumVar(0, MPSolver.infinity(), "lambda");
        MPVariable[][] x = new MPVariable[4][3];
        MPConstraint[] uplink = new MPConstraint[3];
        MPConstraint[][] downlink = new MPConstraint[2][3];
        for (int s = 0; s < 3; s++) {
            uplink[s] = lp.makeConstraint(-MPSolver.infinity(), 0);
            uplink[s].setCoefficient(lambda, -400);
            for (int leaf = 0; leaf < 2; leaf++) {
                downlink[leaf][s] = lp.makeConstraint(-MPSolver.infinity(), 0);
                downlink[leaf][s].setCoefficient(lambda, -400);
            }
        }
        for (int f = 0; f < 4; f++) {
            MPConstraint demand = lp.makeConstraint(400, 400);
            for (int s = 0; s < 3; s++) {
                x[f][s] = lp.makeNumVar(0, MPSolver.infinity(), "x" + f + s);
                demand.setCoefficient(x[f][s], 1);
                uplink[s].setCoefficient(x[f][s], 1);
                downlink[f / 2][s].setCoefficient(x[f][s], 1);
            }
        }
        lp.objective().setCoefficient(lambda, 1);
        lp.objective().setMinimization();
        assertThat(lp.solve()).isEqualTo(MPSolver.ResultStatus.OPTIMAL);
        return lambda.solutionValue();
    }
}
