package io.weft.scheduler.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.weft.contracts.LinkState;
import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.placement.ColumnGenerationMultipath;
import io.weft.placement.DenseFabric;
import io.weft.placement.Flow;
import io.weft.placement.Job;
import io.weft.placement.MultipathFlow;
import io.weft.placement.MultipathResult;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlanFlowEncoder;
import io.weft.placement.WeightedPath;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.plan.walk.ForwardingWalk;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A multipath job on the real engine, planner and plan encoder: a 2-leaf, 2-spine leaf-spine with
 * four 400G NICs per leaf (2:1). Three line-rate flows leave leaf1 for leaf2 while another job
 * already sends 200G the same way: one path per flow loads some uplink to 2.0, spread flows reach
 * (1200 + 200) / 800 = 1.75, which weights in eighths can carry exactly.
 */
class MultipathPlacementTest {
    static final MultipathRequest EIGHTHS = new MultipathRequest(4, 8);
    /** Generous: this is about what is placed, not how fast (a loaded machine may be slow). */
    static final long BUDGET_MS = 60_000;

    Fabric fabric;
    FabricPlan plan;
    PlacementEngine engine;

    @BeforeEach
    void fabricWithAnotherJob() throws Exception {
        fabric = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 2, 4));
        plan = Planner.plan(fabric, null);
        engine = new PlacementEngine(DenseFabric.of(fabric), new PlanFlowEncoder(plan), PlacementConfig.DEFAULTS);
        engine.add(new Job("other", "default", List.of(flow("other", 0, "leaf1-nic4", "leaf2-nic4", 200))));
    }

    /** A generated leaf-spine's plan and a fresh engine on it. */
    record OnFabric(FabricPlan plan, PlacementEngine engine) {
        static OnFabric leafSpine(int leaves, int spines, int nicsPerLeaf) throws Exception {
            Fabric f = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(leaves, spines, nicsPerLeaf));
            FabricPlan p = Planner.plan(f, null);
            return new OnFabric(p, new PlacementEngine(DenseFabric.of(f), new PlanFlowEncoder(p),
                    PlacementConfig.DEFAULTS));
        }
    }

    static Flow flow(String job, int k, String src, String dst, double gbps) {
        return new Flow(job + "/" + k, job, src, dst, gbps, 0);
    }

    static Job threeLineRateFlows() {
        return new Job("mp", "default", List.of(flow("mp", 0, "leaf1-nic1", "leaf2-nic1", 400),
                flow("mp", 1, "leaf1-nic2", "leaf2-nic2", 400), flow("mp", 2, "leaf1-nic3", "leaf2-nic3", 400)));
    }

    @Test
    void spreadFlowsBecomeWeightedSlicesOnThePlannersPaths() throws Exception {
        MultipathPlacement.Outcome o = MultipathPlacement.place(engine, plan, threeLineRateFlows(), EIGHTHS,
                Encoding.BOTH, BUDGET_MS);

        assertThat(o.view().fallback()).isNull();
        // The engine's one path per flow puts two line-rate flows on one uplink.
        assertThat(o.view().singlePathMaxLoad()).isEqualTo(2.0);
        assertThat(o.view().maxLoad()).isCloseTo(1.75, within(1e-9));
        assertThat(o.view().lowerBound()).isCloseTo(1.75, within(1e-9));
        // Eighths of 400G are 50G, and 700G on each uplink is 14 of them: the units cost nothing here.
        assertThat(o.view().granularBound()).isCloseTo(1.75, within(1e-9));
        assertThat(o.view().gapBound()).isCloseTo(0, within(1e-9));
        assertThat(o.result().quality().maxLoad()).as("the engine holds what the planner planned")
                .isCloseTo(1.75, within(1e-9));
        assertSharesSumToOne(o, threeLineRateFlows());
        for (Flow s : o.job().flows()) {
            assertThat(s.id()).matches("mp/[0-2]\\.[0-3]");
            assertThat(s.demandGbps()).isCloseTo(400 * o.weights().get(s.id()), within(1e-9));
            assertThat(s.demandGbps() % 50).as("a multiple of 1/8 of 400G").isCloseTo(0, within(1e-9));
        }
        assertThat(o.view().maxPathsPerFlow()).isGreaterThan(1);
        // Every slice walks the plan's forwarding with its own carriers and its own entropy value.
        Set<Integer> evs = new HashSet<>();
        for (PlacedFlow p : engine.placedFlows("mp")) {
            assertThat(ForwardingWalk.walkCarriers(plan, p.flow().srcNic(), p.flow().dstNic(),
                    p.encoding().carriers(), "default")).isEqualTo(p.path());
            assertThat(p.encoding().ev()).isNotNull();
            assertThat(ForwardingWalk.walkEv(plan, p.flow().srcNic(), p.flow().dstNic(), p.encoding().ev(),
                    "default")).isEqualTo(p.path());
            evs.add(p.encoding().ev());
        }
        // Reservations count each path's share: uplink loads are the background plus the shares.
        double[] load = engine.arcLoadsGbps();
        DenseFabric ix = engine.index();
        double up = load[ix.arcOf("leaf1-spine1", "leaf1")] + load[ix.arcOf("leaf1-spine2", "leaf1")];
        assertThat(up).isCloseTo(1400, within(1e-6));
        assertThat(Math.max(load[ix.arcOf("leaf1-spine1", "leaf1")], load[ix.arcOf("leaf1-spine2", "leaf1")]))
                .isCloseTo(700, within(1e-6));
    }

    @Test
    void aDeadLinkMovesTheSlicesOffItAndKeepsTheirShares() throws Exception {
        MultipathPlacement.Outcome o = MultipathPlacement.place(engine, plan, threeLineRateFlows(), EIGHTHS,
                Encoding.BOTH, BUDGET_MS);
        Map<String, Double> before = demands(engine.placedFlows("mp"));

        engine.updateLinkStates(Map.of("leaf1-spine1", LinkState.DOWN));

        List<PlacedFlow> after = engine.placedFlows("mp");
        assertThat(after).hasSize(o.job().flows().size());
        for (PlacedFlow p : after) {
            assertThat(p.path()).extracting(a -> a.link().id()).doesNotContain("leaf1-spine1");
        }
        assertThat(demands(after)).as("each path keeps its share").isEqualTo(before);
        assertSharesSumToOne(o, threeLineRateFlows());
    }

    @Test
    void aSplitTheUnitsCannotCarryIsReportedAsTheGranularitysCost() throws Exception {
        // Three spines: four line-rate flows leaf1 -> leaf2 split evenly need 533.3G per uplink (4/3), but
        // in eighths (50G) the 32 units of the four flows put 11 on some uplink: 550G, 1.375.
        OnFabric three = OnFabric.leafSpine(2, 3, 4);
        PlacementEngine e = three.engine();
        List<Flow> flows = new ArrayList<>();
        for (int n = 1; n <= 4; n++) {
            flows.add(flow("four", n - 1, "leaf1-nic" + n, "leaf2-nic" + n, 400));
        }
        MultipathPlacement.Outcome o = MultipathPlacement.place(e, three.plan(), new Job("four", "default", flows),
                EIGHTHS, Encoding.BOTH, BUDGET_MS);

        JobViews.MultipathView v = o.view();
        assertThat(v.fallback()).isNull();
        assertThat(v.singlePathMaxLoad()).isEqualTo(2.0);
        assertThat(v.splittableOptimum()).isCloseTo(4.0 / 3, within(1e-6));
        assertThat(v.lowerBound()).isCloseTo(4.0 / 3, within(1e-6));
        // 3 % above the optimum, and the granular bound says no routing in eighths does better.
        assertThat(v.granularBound()).isCloseTo(1.375, within(1e-9));
        assertThat(v.maxLoad()).isCloseTo(v.granularBound(), within(1e-9));
        assertThat(v.gapBound()).isCloseTo(1.375 * 3 / 4 - 1, within(1e-6));
        assertThat(e.quality().maxLoad()).isCloseTo(1.375, within(1e-9));
    }

    @Test
    void whenOnePathIsOptimalTheJobIsPlacedAsBeforeAndSaysSo() throws Exception {
        Job light = new Job("light", "default", List.of(flow("light", 0, "leaf1-nic1", "leaf2-nic1", 100)));
        MultipathPlacement.Outcome o = MultipathPlacement.place(engine, plan, light, EIGHTHS, Encoding.BOTH, BUDGET_MS);
        assertThat(o.job()).isEqualTo(light);
        assertThat(o.weights()).isEmpty();
        assertThat(o.view().maxPathsPerFlow()).isEqualTo(1);
        assertThat(engine.placedFlows("light")).extracting(p -> p.flow().id()).containsExactly("light/0");
    }

    @Test
    void maxPathsOneIsOnePathPerFlowWithTheReason() throws Exception {
        MultipathPlacement.Outcome o = MultipathPlacement.place(engine, plan, threeLineRateFlows(),
                new MultipathRequest(1, 8), Encoding.BOTH, BUDGET_MS);
        assertThat(o.view().fallback()).contains("maxPaths 1");
        assertThat(o.job().flows()).extracting(Flow::id).containsExactly("mp/0", "mp/1", "mp/2");
        assertThat(o.result().quality().maxLoad()).isEqualTo(2.0);
    }

    @Test
    void anExplicitQpSlicesOneIsOnePathPerFlowWithTheReason() throws Exception {
        MultipathPlacement.Outcome o = MultipathPlacement.onePath(engine, threeLineRateFlows(), EIGHTHS,
                "qpSlices 1: each flow allows one path");
        assertThat(o.view().fallback()).contains("qpSlices 1");
        assertOnePathPerFlow(o);
    }

    @Test
    void aPlannerCrashKeepsOnePathPerFlowAndNamesTheFailure() throws Exception {
        MultipathPlacement.Outcome o = MultipathPlacement.place(engine, threeLineRateFlows(), EIGHTHS, Encoding.BOTH,
                BUDGET_MS, (job, options, background) -> {
                    throw new IllegalStateException("native solver gone");
                });
        assertThat(o.view().fallback())
                .isEqualTo("the multipath planner failed (native solver gone): one path per flow");
        assertThat(o.view().lowerBound()).as("nothing proven").isNull();
        assertThat(o.view().granularBound()).isNull();
        assertOnePathPerFlow(o);
    }

    @Test
    void aSpentTimeBudgetKeepsOnePathPerFlowAndSaysSo() throws Exception {
        // 16 leaves x 8 spines x 16 NICs (2:1), fifteen line-rate flows from each leaf to the next:
        // the planner's own one-path placement of 240 flows (walk proofs included) alone takes more
        // than the millisecond, so neither an LP round nor a warm-start pass fits.
        OnFabric big = OnFabric.leafSpine(16, 8, 16);
        PlacementEngine e = big.engine();
        List<Flow> flows = new ArrayList<>();
        for (int leaf = 1; leaf <= 16; leaf++) {
            for (int n = 1; n <= 15; n++) {
                flows.add(flow("big", flows.size(), "leaf" + leaf + "-nic" + n, "leaf" + (leaf % 16 + 1) + "-nic" + n,
                        400));
            }
        }
        Job job = new Job("big", "default", flows);
        MultipathPlacement.Outcome o = MultipathPlacement.place(e, big.plan(), job, EIGHTHS, Encoding.BOTH, 1);
        assertThat(o.view().fallback()).startsWith("time budget 1 ms spent after");
        assertThat(o.job()).isEqualTo(job);
        assertThat(o.weights()).isEmpty();
        assertThat(e.placedFlows("big")).hasSize(240);
    }

    @Test
    void anEngineRefusingTheSlicesKeepsOnePathPerFlowAndSaysWhy() throws Exception {
        // An engine that takes one slice per NIC pair: a flow spread over two paths is two slices.
        engine = new PlacementEngine(DenseFabric.of(fabric), new PlanFlowEncoder(plan),
                new PlacementConfig(1, 0.0, 262_144, 1, 8, 1L, true));
        engine.add(new Job("other", "default", List.of(flow("other", 0, "leaf1-nic4", "leaf2-nic4", 200))));
        MultipathPlacement.Outcome o = MultipathPlacement.place(engine, plan, threeLineRateFlows(), EIGHTHS,
                Encoding.BOTH, BUDGET_MS);
        assertThat(o.view().fallback())
                .startsWith("the engine refused the spread slices (qpSlices: more than 1 slices between");
        assertThat(o.view().maxPathsPerFlow()).isEqualTo(1);
        assertOnePathPerFlow(o);
    }

    @Test
    void aPathThatCannotBePinnedKeepsOnePathPerFlowAndSaysWhy() throws Exception {
        // The planner's answer with flow 0's first path cut to its two NIC arcs (no switch between
        // the leaves): not a walk, so the engine refuses to pin it, naming the hop.
        MultipathPlacement.Outcome o = MultipathPlacement.place(engine, threeLineRateFlows(), EIGHTHS, Encoding.BOTH,
                BUDGET_MS, (job, options, background) -> {
                    MultipathResult m = new ColumnGenerationMultipath(engine.index(), new PlanFlowEncoder(plan),
                            engine.config()).place(job, options, background);
                    List<MultipathFlow> flows = new ArrayList<>(m.flows());
                    MultipathFlow f0 = flows.get(0);
                    List<WeightedPath> paths = new ArrayList<>(f0.paths());
                    WeightedPath p0 = paths.get(0);
                    List<Arc> cut = List.of(p0.path().get(0), p0.path().get(p0.path().size() - 1));
                    paths.set(0, new WeightedPath(cut, p0.encoding(), p0.units(), p0.weight()));
                    flows.set(0, new MultipathFlow(f0.flow(), paths, f0.note()));
                    return new MultipathResult(flows, m.unplaced(), m.fallback(), m.singlePathMaxLoad(),
                            m.splittableOptimum(), m.lowerBound(), m.fractionalMaxLoad(), m.maxLoad(),
                            m.roundingBound(), m.gapBound(), m.iterations(), m.columns());
                });
        assertThat(o.view().fallback()).startsWith(
                "a spread path could not be pinned (path: flow mp/0.0: hop 1 does not start where hop 0 ends)");
        assertOnePathPerFlow(o);
    }

    /**
     * A fallback's outcome: the job as asked, no weights, its three flows on one path each in the
     * engine (no slice left behind), and the uplinks holding the background and the three flows only.
     */
    void assertOnePathPerFlow(MultipathPlacement.Outcome o) {
        assertThat(o.job()).isEqualTo(threeLineRateFlows());
        assertThat(o.weights()).isEmpty();
        assertThat(o.view().maxPathsPerFlow()).isEqualTo(1);
        assertThat(o.result().quality().maxLoad()).isEqualTo(2.0);
        assertThat(engine.placedFlows("mp")).extracting(p -> p.flow().id())
                .containsExactlyInAnyOrder("mp/0", "mp/1", "mp/2");
        double[] load = engine.arcLoadsGbps();
        DenseFabric ix = engine.index();
        assertThat(load[ix.arcOf("leaf1-spine1", "leaf1")] + load[ix.arcOf("leaf1-spine2", "leaf1")])
                .isCloseTo(1400, within(1e-6));
    }

    /** The slices of each pattern flow carry its whole demand and their weights sum to 1. */
    static void assertSharesSumToOne(MultipathPlacement.Outcome o, Job asked) {
        Map<String, Double> weightSum = new HashMap<>();
        Map<String, Double> demandSum = new HashMap<>();
        for (Flow s : o.job().flows()) {
            String k = s.id().substring(0, s.id().indexOf('.'));
            weightSum.merge(k, o.weights().get(s.id()), Double::sum);
            demandSum.merge(k, s.demandGbps(), Double::sum);
        }
        for (Flow f : asked.flows()) {
            assertThat(weightSum.get(f.id())).as(f.id()).isCloseTo(1.0, within(1e-12));
            assertThat(demandSum.get(f.id())).as(f.id()).isCloseTo(f.demandGbps(), within(1e-9));
        }
    }

    static Map<String, Double> demands(List<PlacedFlow> flows) {
        Map<String, Double> out = new HashMap<>();
        for (PlacedFlow p : flows) {
            out.put(p.flow().id(), p.flow().demandGbps());
        }
        return out;
    }
}
