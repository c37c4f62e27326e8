package io.weft.scheduler.reroute;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.lab.fabric.RailGenerator;
import io.weft.placement.DenseFabric;
import io.weft.placement.Flow;
import io.weft.placement.FlowEncoder;
import io.weft.placement.FlowEncoding;
import io.weft.placement.Job;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlanFlowEncoder;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.plan.walk.ForwardingWalk;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Applying a pass's moves to a real engine on 2 leaves x 2 spines: one flow leaf1-nic1 -> leaf2-nic1.
 * The encoder gives an entropy value only to paths over spine1, so a move onto spine2 would strand an
 * EV-steered flow.
 */
class MovePinsTest {
    private final Fabric fabric = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 2, 2));
    private boolean evEverywhere = true;
    private final FlowEncoder encoder = (List<Arc> path, String tenant) -> new FlowEncoding(List.of("fcbb:bb00::"),
            List.of(), evEverywhere || path.stream().anyMatch(a -> a.to().equals("spine1")) ? 4791 : null);
    private final PlacementEngine engine = new PlacementEngine(DenseFabric.of(fabric), encoder,
            PlacementConfig.DEFAULTS);
    private final DenseFabric ix = engine.index();
    private final Instant decided = Instant.parse("2026-11-27T03:00:00.100Z");
    private final ActiveHotspot cause = new ActiveHotspot(ActiveHotspotsTest.event("h1", HotspotEvents.START,
            "leaf1-spine1", "spine1"), decided.minusMillis(50));

    private int[] viaSpine(int spine) {
        return new int[] {ix.arcOf("leaf1-nic1-up", "leaf1-nic1"), ix.arcOf("leaf1-spine" + spine, "leaf1"),
            ix.arcOf("leaf2-spine" + spine, "spine" + spine), ix.arcOf("leaf2-nic1-up", "leaf2")};
    }

    @BeforeEach
    void oneFlowOnSpine1() throws Exception {
        engine.add(new Job("j", "default", List.of(new Flow("f1", "j", "leaf1-nic1", "leaf2-nic1", 100, 0))));
        EnginePin.pin(engine, "f1", engine.pathArcs("f1"), viaSpine(1));
    }

    private Map<Move, ActiveHotspot> moveTo(int[] from, int spine) {
        Map<Move, ActiveHotspot> m = new LinkedHashMap<>();
        m.put(new Move("f1", from, viaSpine(spine), Move.HOTSPOT + "h1", 0.5), cause);
        return m;
    }

    @Test
    void aMoveIsPinnedAndRecordedWithItsCauseAndTimings() {
        MovePins.Pinned p = MovePins.apply(engine, moveTo(viaSpine(1), 2), Set.of(), decided);
        assertThat(engine.pathArcs("f1")).isEqualTo(viaSpine(2));
        assertThat(p.moves()).hasSize(1);
        assertThat(p.changes()).singleElement().satisfies(c -> {
            assertThat(c.flowId()).isEqualTo("f1");
            assertThat(c.arcs()).contains("leaf1-spine2>spine2");
            assertThat(c.reason()).isEqualTo("hotspot:h1 sample-to-event-ms=5 event-to-decision-ms=100");
        });
        assertThat(p.described()).singleElement().satisfies(d -> assertThat(d).containsEntry("jobId", "j")
                .containsEntry("maxUtilAfter", 0.5));
    }

    @Test
    void aFlowThatMovedSinceTheDecisionStaysWhereItIs() {
        MovePins.Pinned p = MovePins.apply(engine, moveTo(viaSpine(2), 2), Set.of(), decided);
        assertThat(p.isEmpty()).isTrue();
        assertThat(engine.pathArcs("f1")).isEqualTo(viaSpine(1));
    }

    @Test
    void noMoveOntoALinkKnownDown() {
        Set<Integer> down = Set.of(ix.arcOf("leaf2-spine2", "spine2"));
        MovePins.Pinned p = MovePins.apply(engine, moveTo(viaSpine(1), 2), down, decided);
        assertThat(p.isEmpty()).isTrue();
        assertThat(engine.pathArcs("f1")).isEqualTo(viaSpine(1));
    }

    @Test
    void anEvSteeredFlowIsNotMovedOntoAPathWithoutAnEntropyValue() {
        evEverywhere = false;
        MovePins.Pinned p = MovePins.apply(engine, moveTo(viaSpine(1), 2), Set.of(), decided);
        assertThat(p.isEmpty()).isTrue();
        assertThat(engine.pathArcs("f1")).as("put back").isEqualTo(viaSpine(1));
        assertThat(engine.placed("f1").encoding().ev()).isEqualTo(4791);
    }

    @Test
    void anEvSteeredFlowMovesOntoAnotherPlaneKeepingAnEntropyValue() throws Exception {
        // Two planes, one port per plane on every NIC, the plan's own encoder: plane 2 has EVs too.
        FabricPlan plan = Planner.plan(RailGenerator.generate(
                new RailGenerator.Params(null, 4, 1, 2, 2, 2, 400, 400, 100, 500)), null);
        PlacementEngine twoPlanes = new PlacementEngine(DenseFabric.of(plan.fabric()), new PlanFlowEncoder(plan),
                PlacementConfig.DEFAULTS);
        String src = plan.nics().get(0);
        String dst = plan.nics().get(plan.nics().size() - 1);
        twoPlanes.add(new Job("j", "default", List.of(new Flow("f1", "j", src, dst, 100, 0))));
        int[] before = twoPlanes.pathArcs("f1");
        assertThat(twoPlanes.placed("f1").encoding().ev()).isNotNull();
        Arc out = plan.fabric().arcsFrom(src).stream()
                .filter(a -> !a.link().id().equals(twoPlanes.placed("f1").path().get(0).link().id()))
                .findFirst().orElseThrow();
        int[] otherPlane = shortestFrom(plan, twoPlanes.index(), out, dst);
        Map<Move, ActiveHotspot> m = new LinkedHashMap<>();
        m.put(new Move("f1", before, otherPlane, Move.HOTSPOT + "h1", 0.5), cause);
        MovePins.Pinned p = MovePins.apply(twoPlanes, m, Set.of(), decided);
        assertThat(p.moves()).as("moved to the other plane").hasSize(1);
        assertThat(twoPlanes.pathArcs("f1")).isEqualTo(otherPlane);
        Integer ev = twoPlanes.placed("f1").encoding().ev();
        assertThat(ev).isNotNull();
        assertThat(ForwardingWalk.walkEv(plan, src, dst, ev, "default", out.link().id()))
                .isEqualTo(twoPlanes.placed("f1").path());
    }

    /** A shortest path leaving by {@code first}, to the destination's leaf on that plane. */
    private static int[] shortestFrom(FabricPlan plan, DenseFabric ix, Arc first, String dst) {
        List<Integer> arcs = new java.util.ArrayList<>(List.of(ix.arcOf(first.link().id(), first.from())));
        String at = first.to();
        String leaf = plan.deliverySwitch(dst, at);
        while (!at.equals(leaf)) {
            Arc next = plan.nextHops(at, leaf).get(0);
            arcs.add(ix.arcOf(next.link().id(), at));
            at = next.to();
        }
        arcs.add(ix.arcOf(plan.nicLink(at, dst).id(), at));
        return arcs.stream().mapToInt(Integer::intValue).toArray();
    }

    @Test
    void undoPutsEveryPinnedFlowBack() {
        MovePins.Pinned p = MovePins.apply(engine, moveTo(viaSpine(1), 2), Set.of(), decided);
        long[] moved = engine.arcLoadsKbps();
        MovePins.undo(engine, p.moves());
        assertThat(engine.pathArcs("f1")).isEqualTo(viaSpine(1));
        assertThat(engine.arcLoadsKbps()).isNotEqualTo(moved);
        assertThat(engine.arcLoadsKbps()[ix.arcOf("leaf1-spine2", "leaf1")]).isZero();
    }
}
