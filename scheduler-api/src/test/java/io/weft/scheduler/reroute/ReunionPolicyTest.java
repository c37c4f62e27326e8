package io.weft.scheduler.reroute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.weft.fabric.Fabric;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.placement.DenseFabric;
import io.weft.placement.Flow;
import io.weft.placement.FlowEncoder;
import io.weft.placement.FlowEncoding;
import io.weft.placement.Job;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import org.junit.jupiter.api.Test;

/** Hand-made leaf-spine cases: 2 leaves, 4 spines, 400G links, 100G flows from leaf1 to leaf2. */
class ReunionPolicyTest {
    static final FlowEncoder FAKE = (path, tenant) -> new FlowEncoding(List.of("fcbb:bb00::"), List.of(), null);

    private final Fabric fabric = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 4, 4));
    private final PlacementEngine engine = new PlacementEngine(DenseFabric.of(fabric), FAKE, PlacementConfig.DEFAULTS);
    private final DenseFabric ix = engine.index();

    /** Places n flows leaf1-nicI -> leaf2-nicI, then pins them all onto spine1 (a collision to resolve). */
    private List<String> flowsAllOnSpine1(int n) throws Exception {
        List<Flow> flows = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            flows.add(new Flow("f" + i, "j", "leaf1-nic" + i, "leaf2-nic" + i, 100, 0));
        }
        engine.add(new Job("j", "default", flows));
        List<String> ids = new ArrayList<>();
        for (Flow f : flows) {
            EnginePin.pin(engine, f.id(), engine.pathArcs(f.id()), viaSpine(f.srcNic(), f.dstNic(), 1));
            ids.add(f.id());
        }
        return ids;
    }

    private int[] viaSpine(String src, String dst, int spine) {
        return new int[] {ix.arcOf(src + "-up", src), ix.arcOf("leaf1-spine" + spine, "leaf1"),
            ix.arcOf("leaf2-spine" + spine, "spine" + spine), ix.arcOf(dst + "-up", "leaf2")};
    }

    private HotArc hot(String linkId, String from, String id) {
        return new HotArc(ix.arcOf(linkId, from), linkId, id, 0, 0);
    }

    private String spineOf(int[] path) {
        return ix.nodeId(ix.to(path[1]));
    }

    @Test
    void pinPutsTheFlowOnTheGivenPathAndKeepsCountsExact() throws Exception {
        flowsAllOnSpine1(3);
        int up = ix.arcOf("leaf1-spine1", "leaf1");
        assertThat(engine.arcElephants()[up]).isEqualTo(3);
        assertThat(engine.arcLoadsKbps()[up]).isEqualTo(300_000_000L);
        assertThat(engine.quality().collisions()).isEqualTo(2);
        assertThat(engine.placed("f1").encoding().carriers()).containsExactly("fcbb:bb00::");
    }

    @Test
    void pinRefusesAFlowThatIsNoLongerWhereTheDecisionSawIt() throws Exception {
        flowsAllOnSpine1(1);
        assertThatThrownBy(() -> EnginePin.pin(engine, "f1", viaSpine("leaf1-nic1", "leaf2-nic1", 3),
                viaSpine("leaf1-nic1", "leaf2-nic1", 2))).isInstanceOf(EnginePin.PinFailure.class)
                .hasMessageContaining("f1");
    }

    @Test
    void movesAtMostKFlowsOffAHotLinkOntoDistinctSpareSpines() throws Exception {
        flowsAllOnSpine1(3);
        PlacementView view = PlacementView.of(engine);
        HotArc h = hot("leaf1-spine1", "leaf1", "h1");

        List<Move> one = new ReunionPolicy(1, 1).onHotspots(view, List.of(h), Map.of(), Set.of());
        assertThat(one).hasSize(1);
        assertThat(one.get(0).cause()).isEqualTo("hotspot:h1");
        assertThat(ReunionPolicy.contains(one.get(0).toArcs(), h.arc())).isFalse();

        List<Move> two = new ReunionPolicy(2, 1).onHotspots(view, List.of(h), Map.of(), Set.of());
        assertThat(two).hasSize(2);
        assertThat(spineOf(two.get(0).toArcs())).isNotEqualTo(spineOf(two.get(1).toArcs()));
    }

    @Test
    void budgetAlreadyUsedThisIntervalAndFlowsAlreadyMovedAreRespected() throws Exception {
        flowsAllOnSpine1(3);
        PlacementView view = PlacementView.of(engine);
        HotArc h = hot("leaf1-spine1", "leaf1", "h1");
        ReunionPolicy p = new ReunionPolicy(2, 1);
        assertThat(p.onHotspots(view, List.of(h), Map.of(h.arc(), 2), Set.of())).isEmpty();
        List<Move> moves = p.onHotspots(view, List.of(h), Map.of(h.arc(), 1), Set.of("f1", "f2"));
        assertThat(moves).extracting(Move::flowId).containsExactly("f3");
    }

    @Test
    void noHerdWhenTwoHotLinksCompeteForTheOnlySpareSpine() throws Exception {
        flowsAllOnSpine1(3);
        // f2 on spine2, f3 on spine3: only spine4 is spare; f1 stays on spine1.
        EnginePin.pin(engine, "f2", engine.pathArcs("f2"), viaSpine("leaf1-nic2", "leaf2-nic2", 2));
        EnginePin.pin(engine, "f3", engine.pathArcs("f3"), viaSpine("leaf1-nic3", "leaf2-nic3", 3));
        PlacementView view = PlacementView.of(engine);
        List<HotArc> burst = List.of(hot("leaf1-spine2", "leaf1", "h2"), hot("leaf1-spine3", "leaf1", "h3"));
        List<Move> moves = new ReunionPolicy(1, 1).onHotspots(view, burst, Map.of(), Set.of());
        assertThat(moves).hasSize(1);
        assertThat(moves.get(0).flowId()).isEqualTo("f2");
        assertThat(spineOf(moves.get(0).toArcs())).isEqualTo("spine4");
    }

    @Test
    void aHotLinkWithoutASpareAlternativeKeepsItsFlows() throws Exception {
        flowsAllOnSpine1(4);
        for (int i = 2; i <= 4; i++) {
            String s = "leaf1-nic" + i;
            EnginePin.pin(engine, "f" + i, engine.pathArcs("f" + i), viaSpine(s, "leaf2-nic" + i, i));
        }
        PlacementView view = PlacementView.of(engine);
        assertThat(new ReunionPolicy(1, 1).onHotspots(view, List.of(hot("leaf1-spine1", "leaf1", "h")), Map.of(),
                Set.of())).isEmpty();
        // With a tolerance of 2 the least loaded spine takes it.
        assertThat(new ReunionPolicy(1, 2).onHotspots(view, List.of(hot("leaf1-spine1", "leaf1", "h")), Map.of(),
                Set.of())).hasSize(1);
    }

    @Test
    void hotArcsAreNeverATarget() throws Exception {
        flowsAllOnSpine1(1);
        PlacementView view = PlacementView.of(engine);
        List<HotArc> hotSpines = List.of(hot("leaf1-spine1", "leaf1", "a"), hot("leaf1-spine2", "leaf1", "b"),
                hot("leaf2-spine3", "spine3", "c"));
        List<Move> moves = new ReunionPolicy(1, 1).onHotspots(view, hotSpines, Map.of(), Set.of());
        assertThat(moves).hasSize(1);
        assertThat(spineOf(moves.get(0).toArcs())).isEqualTo("spine4");
    }

    @Test
    void linkDownMovesEveryFlowOnTheLinkInOnePassMinMax() throws Exception {
        flowsAllOnSpine1(3);
        PlacementView view = PlacementView.of(engine);
        int[] arcs = ix.arcsOfLink("leaf2-spine1");
        List<Move> moves = new ReunionPolicy(1, 1).onLinkDown(view, "leaf2-spine1", arcs, List.of());
        assertThat(moves).extracting(Move::flowId).containsExactlyInAnyOrder("f1", "f2", "f3");
        Set<String> spines = new HashSet<>();
        for (Move m : moves) {
            assertThat(m.cause()).isEqualTo("link-down:leaf2-spine1");
            assertThat(ReunionPolicy.contains(m.toArcs(), arcs[0]) || ReunionPolicy.contains(m.toArcs(), arcs[1]))
                    .isFalse();
            spines.add(spineOf(m.toArcs()));
        }
        assertThat(spines).hasSize(3).doesNotContain("spine1");
    }

    @Test
    void rejectsNonsenseSettingsNamingTheField() {
        assertThatThrownBy(() -> new ReunionPolicy(0, 1)).hasMessageStartingWith("k:");
        assertThatThrownBy(() -> new ReunionPolicy(1, 0)).hasMessageStartingWith("t:");
    }
}
