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
import io.weft.placement.DenseFabric;
import io.weft.placement.Flow;
import io.weft.placement.FlowEncoder;
import io.weft.placement.FlowEncoding;
import io.weft.placement.Job;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
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
    void undoPutsEveryPinnedFlowBack() {
        MovePins.Pinned p = MovePins.apply(engine, moveTo(viaSpine(1), 2), Set.of(), decided);
        long[] moved = engine.arcLoadsKbps();
        MovePins.undo(engine, p.moves());
        assertThat(engine.pathArcs("f1")).isEqualTo(viaSpine(1));
        assertThat(engine.arcLoadsKbps()).isNotEqualTo(moved);
        assertThat(engine.arcLoadsKbps()[ix.arcOf("leaf1-spine2", "leaf1")]).isZero();
    }
}
