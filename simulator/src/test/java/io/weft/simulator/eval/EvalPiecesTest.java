package io.weft.simulator.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import io.weft.fabric.Fabric;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.simulator.ArcTable;
import io.weft.simulator.Routing;
import org.junit.jupiter.api.Test;

/** The evaluation's LP bounds and metrics on a fabric small enough to work out by hand. */
class EvalPiecesTest {
    private final Fabric fabric = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 2, 2));
    private final List<String[]> flows = List.of(new String[] {"leaf1-nic1", "leaf2-nic1"},
            new String[] {"leaf1-nic2", "leaf2-nic2"});

    @Test
    void lpBoundsOnTwoLeavesAreTheHandComputedOnes() throws Exception {
        FabricPlan plan = Planner.plan(fabric, null);
        ArcTable arcs = new ArcTable(fabric);
        // Two 400G flows leaf1 -> leaf2 over two 400G spines: load 1.0, both at 400.
        LpBounds.Result all = LpBounds.of(plan, arcs, new boolean[arcs.size()], flows, 400);
        assertThat(all.minMaxLoad()).isCloseTo(1.0, within(1e-9));
        assertThat(all.maxMinRateGbps()).isCloseTo(400, within(1e-9));
        assertThat(all.variables()).isEqualTo(8); // one commodity (leaf1) x 8 switch arcs
        // leaf1-spine1 down: both must cross spine2: load 2.0, 200 each.
        boolean[] failed = new boolean[arcs.size()];
        int l = arcs.linkIndexOf("leaf1-spine1");
        failed[2 * l] = true;
        failed[2 * l + 1] = true;
        LpBounds.Result one = LpBounds.of(plan, arcs, failed, flows, 400);
        assertThat(one.minMaxLoad()).isCloseTo(2.0, within(1e-9));
        assertThat(one.maxMinRateGbps()).isCloseTo(200, within(1e-9));
    }

    @Test
    void theVolumeBoundIsHopsTimesDemandOverTheSwitchLinksCapacity() throws Exception {
        FabricPlan plan = Planner.plan(fabric, null);
        ArcTable arcs = new ArcTable(fabric);
        // Two flows of 2 switch hops each (leaf1 > spine > leaf2) = 1,600 Gbit/s over 8 x 400G switch arcs.
        assertThat(VolumeBound.maxLoad(plan, arcs, new boolean[arcs.size()], flows, 400)).isCloseTo(0.5,
                within(1e-9));
        // leaf1-spine1 down: 6 arcs left, same hops; the LP (2.0 above) is the tighter bound there.
        boolean[] failed = new boolean[arcs.size()];
        int l = arcs.linkIndexOf("leaf1-spine1");
        failed[2 * l] = true;
        failed[2 * l + 1] = true;
        assertThat(VolumeBound.maxLoad(plan, arcs, failed, flows, 400)).isCloseTo(1600.0 / 2400, within(1e-9));
        // A flow within one leaf crosses no switch link.
        assertThat(VolumeBound.maxLoad(plan, arcs, failed, List.<String[]>of(new String[] {"leaf1-nic1",
                "leaf1-nic2"}), 400)).isZero();
    }

    @Test
    void pipelinePairsGoBothWaysWithinEachPipelineAndFourJobsSplitTheNics() throws Exception {
        FabricPlan plan = Planner.plan(LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(4, 2, 4)), null);
        List<io.weft.placement.JobSpec> one = EvalRun.specs("pipeline", plan, 5);
        // 16 NICs: two pipelines of 8 stages, 7 links each, both directions.
        assertThat(one).hasSize(1);
        assertThat(one.get(0).flows()).hasSize(2 * 2 * 7);
        List<io.weft.placement.JobSpec> four = EvalRun.specs("4 jobs", plan, 5);
        assertThat(four).extracting(io.weft.placement.JobSpec::pattern).containsExactly("ring", "all-to-all",
                "explicit", "explicit");
        // A quarter of the NICs each, none in two jobs.
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (io.weft.placement.JobSpec j : four) {
            java.util.Set<String> own = new java.util.HashSet<>(j.endpoints());
            j.flows().forEach(f -> {
                own.add(f.src());
                own.add(f.dst());
            });
            assertThat(own).as(j.name()).hasSize(4);
            own.forEach(nic -> assertThat(seen.add(nic)).as(nic + " in one job only").isTrue());
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(plan.nics());
    }

    @Test
    void simulatedMetricsOfACollisionAreTheHandComputedOnes() throws Exception {
        FabricPlan plan = Planner.plan(fabric, null);
        ArcTable arcs = new ArcTable(fabric);
        // Both flows over spine1 (carriers through it): load 2.0, 200 each, 1 GB in 40 ms.
        var viaSpine1a = io.weft.plan.PathEncoder.encode(plan, List.of(
                new io.weft.fabric.Arc(fabric.link("leaf1-nic1-up"), "leaf1-nic1"),
                new io.weft.fabric.Arc(fabric.link("leaf1-spine1"), "leaf1"),
                new io.weft.fabric.Arc(fabric.link("leaf2-spine1"), "spine1"),
                new io.weft.fabric.Arc(fabric.link("leaf2-nic1-up"), "leaf2")), "default");
        var viaSpine1b = io.weft.plan.PathEncoder.encode(plan, List.of(
                new io.weft.fabric.Arc(fabric.link("leaf1-nic2-up"), "leaf1-nic2"),
                new io.weft.fabric.Arc(fabric.link("leaf1-spine1"), "leaf1"),
                new io.weft.fabric.Arc(fabric.link("leaf2-spine1"), "spine1"),
                new io.weft.fabric.Arc(fabric.link("leaf2-nic2-up"), "leaf2")), "default");
        EvalRun.Metrics m = EvalRun.simulate(plan, arcs, List.of(), flows,
                List.of(Routing.srv6(viaSpine1a.carriers()), Routing.srv6(viaSpine1b.carriers())), 1);
        assertThat(m.maxLoad()).isCloseTo(2.0, within(1e-9));
        assertThat(m.slowestGbps()).isCloseTo(200, within(1e-9));
        assertThat(m.cctMs()).isCloseTo(40, within(1e-6));
        assertThat(m.stalled()).isZero();
        // Reunion's t: two elephants share leaf1-spine1 and spine1-leaf2; each NIC link carries one.
        assertThat(m.elephants()).isEqualTo(2);
        assertThat(m.fabricElephants()).isEqualTo(2);
        // The same flows with spine1's link to leaf2 down: both stall, the collective never ends.
        EvalRun.Metrics down = EvalRun.simulate(plan, arcs, List.of("leaf2-spine1"), flows,
                List.of(Routing.srv6(viaSpine1a.carriers()), Routing.srv6(viaSpine1b.carriers())), 1);
        assertThat(down.stalled()).isEqualTo(2);
        assertThat(down.cctMs()).isInfinite();
    }

    @Test
    void elephantsPerLinkCountsNicLinksApartFromFabricLinks() throws Exception {
        FabricPlan plan = Planner.plan(fabric, null);
        ArcTable arcs = new ArcTable(fabric);
        // Two flows from one NIC, one over each spine: its own link holds both, no fabric link more than one.
        var viaSpine1 = io.weft.plan.PathEncoder.encode(plan, List.of(
                new io.weft.fabric.Arc(fabric.link("leaf1-nic1-up"), "leaf1-nic1"),
                new io.weft.fabric.Arc(fabric.link("leaf1-spine1"), "leaf1"),
                new io.weft.fabric.Arc(fabric.link("leaf2-spine1"), "spine1"),
                new io.weft.fabric.Arc(fabric.link("leaf2-nic1-up"), "leaf2")), "default");
        var viaSpine2 = io.weft.plan.PathEncoder.encode(plan, List.of(
                new io.weft.fabric.Arc(fabric.link("leaf1-nic1-up"), "leaf1-nic1"),
                new io.weft.fabric.Arc(fabric.link("leaf1-spine2"), "leaf1"),
                new io.weft.fabric.Arc(fabric.link("leaf2-spine2"), "spine2"),
                new io.weft.fabric.Arc(fabric.link("leaf2-nic2-up"), "leaf2")), "default");
        EvalRun.Metrics m = EvalRun.simulate(plan, arcs, List.of(),
                List.of(new String[] {"leaf1-nic1", "leaf2-nic1"}, new String[] {"leaf1-nic1", "leaf2-nic2"}),
                List.of(Routing.srv6(viaSpine1.carriers()), Routing.srv6(viaSpine2.carriers())), 1);
        assertThat(m.elephants()).isEqualTo(2);
        assertThat(m.fabricElephants()).isEqualTo(1);
        assertThat(m.maxLoad()).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void lpBoundsLetAMultiPlaneNicSplitOverItsPlanes() throws Exception {
        // Two servers, one rail, two planes: one 400G flow can put half on each plane's path.
        Fabric rail = io.weft.lab.fabric.RailGenerator.generate(
                new io.weft.lab.fabric.RailGenerator.Params(null, 2, 1, 1, 1, 2, 400, 400, 100, 500));
        FabricPlan plan = Planner.plan(rail, null);
        ArcTable arcs = new ArcTable(rail);
        List<String[]> one = List.<String[]>of(new String[] {"srv1-nic1", "srv2-nic1"});
        LpBounds.Result all = LpBounds.of(plan, arcs, new boolean[arcs.size()], one, 400);
        assertThat(all.minMaxLoad()).isCloseTo(0.5, within(1e-9));
        assertThat(all.maxMinRateGbps()).isCloseTo(800, within(1e-9));
        // Plane 2's spine link down: all of it crosses plane 1.
        boolean[] failed = new boolean[arcs.size()];
        int l = arcs.linkIndexOf("pl2-g1-rail1-spine1");
        failed[2 * l] = true;
        failed[2 * l + 1] = true;
        LpBounds.Result planeDown = LpBounds.of(plan, arcs, failed, one, 400);
        assertThat(planeDown.minMaxLoad()).isCloseTo(1.0, within(1e-9));
        assertThat(planeDown.maxMinRateGbps()).isCloseTo(400, within(1e-9));
    }

    @Test
    void theNicLinkBoundIsTheBusiestNicsFlowCount() {
        assertThat(EvalRun.nicLinkBound(List.of(new String[] {"a", "b"}, new String[] {"a", "c"},
                new String[] {"b", "c"}, new String[] {"d", "c"}))).isEqualTo(3); // c receives 3
        assertThat(EvalRun.nicLinkBound(flows)).isEqualTo(1);
    }

    @Test
    void twoPercentOfTheSwitchLinksIsAFixedSeededChoice() {
        Fabric big = LeafSpineGenerator.generate(new LeafSpineGenerator.Params(null, 16, 8, 8, 1, 400, 400, 100, 500));
        List<String> a = EvalRun.failedLinks(big, 2, 77);
        assertThat(a).hasSize(3).isEqualTo(EvalRun.failedLinks(big, 2, 77)).allMatch(l -> !l.contains("nic"));
    }
}
