package io.weft.scheduler.reroute;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.placement.DenseFabric;
import io.weft.placement.Flow;
import io.weft.placement.Job;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The live-fabric incident, replayed on the 2 leaves x 4 spines fabric: spine1 -> leaf1 is hot and
 * its flows stay (every other spine's arc into leaf1 already carries an elephant); then the link
 * leaf1-spine2 fails. The link-down event reaches the loop before the controller's snapshot, so
 * the engine's index still calls the link up. The hotspot pass that follows must not take the
 * room the link-down just "freed" on spine2: that link is down.
 */
class LinkDownRaceTest {
    private final Fabric fabric = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 4, 4));
    private final PlacementEngine engine = new PlacementEngine(DenseFabric.of(fabric), ReunionPolicyTest.FAKE,
            PlacementConfig.DEFAULTS);
    private final DenseFabric ix = engine.index();
    private final ReunionPolicy policy = new ReunionPolicy(1, 1);
    private final DownLinks down = new DownLinks();
    private HotArc hot;

    /** leaf2 -> leaf1 flows: two on spine1 (hot), one on each of spines 2, 3 and 4 (no room anywhere). */
    @BeforeEach
    void fabricWithAHotDirectionAndNoRoom() throws Exception {
        int[] spineOf = {1, 1, 2, 3, 4};
        List<Flow> flows = new ArrayList<>();
        for (int i = 0; i < spineOf.length; i++) {
            flows.add(new Flow("f" + (i + 1), "j", "leaf2-nic" + (i % 4 + 1), "leaf1-nic" + (i % 4 + 1), 100, 0));
        }
        engine.add(new Job("j", "default", flows));
        for (int i = 0; i < spineOf.length; i++) {
            Flow f = flows.get(i);
            EnginePin.pin(engine, f.id(), engine.pathArcs(f.id()), viaSpine(f.srcNic(), f.dstNic(), spineOf[i]));
        }
        hot = new HotArc(ix.arcOf("leaf1-spine1", "spine1"), "leaf1-spine1", "h1", 0, 0);
        assertThat(policy.onHotspots(view(), List.of(hot), Map.of(), Set.of()))
                .as("no room: the hot direction keeps its flows").isEmpty();
    }

    private int[] viaSpine(String src, String dst, int spine) {
        return new int[] {ix.arcOf(src + "-up", src), ix.arcOf("leaf2-spine" + spine, "leaf2"),
            ix.arcOf("leaf1-spine" + spine, "spine" + spine), ix.arcOf(dst + "-up", "leaf1")};
    }

    /** The view the loop builds: the engine's reservations with the links the loop knows are down. */
    private PlacementView view() {
        return PlacementView.of(engine, new io.weft.placement.Candidates(ix), down.arcs(ix));
    }

    /** What the loop does on a link-down event: remember it, then move the link's flows and pin them. */
    private List<Move> linkDown(String linkId) throws Exception {
        down.reported(linkId);
        List<Move> moves = policy.onLinkDown(view(), linkId, ix.arcsOfLink(linkId), List.of(hot));
        for (Move m : moves) {
            EnginePin.pin(engine, m.flowId(), m.fromArcs(), m.toArcs(), down.arcs(ix));
        }
        return moves;
    }

    private static boolean crosses(int[] path, int[] arcs) {
        for (int a : arcs) {
            if (ReunionPolicy.contains(path, a)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void theHotspotPassAfterALinkDownNeverChoosesAPathOverTheDownLink() throws Exception {
        int[] failed = ix.arcsOfLink("leaf1-spine2");
        List<Move> off = linkDown("leaf1-spine2");
        assertThat(off).extracting(Move::flowId).containsExactly("f3");
        assertThat(ix.usable(failed[0])).as("the controller's snapshot has not arrived yet").isTrue();

        List<Move> moves = policy.onHotspots(view(), List.of(hot), Map.of(), Set.of("f3"));
        for (Move m : moves) {
            assertThat(crosses(m.toArcs(), failed)).as("%s moved onto the down link", m.flowId()).isFalse();
        }
        for (String f : List.of("f1", "f2", "f3", "f4", "f5")) {
            assertThat(crosses(engine.pathArcs(f), failed)).as("%s is on the down link", f).isFalse();
        }
    }

    @Test
    void aSecondLinkDownDoesNotMoveFlowsOntoTheFirst() throws Exception {
        linkDown("leaf1-spine2");
        linkDown("leaf1-spine3");
        for (String f : List.of("f1", "f2", "f3", "f4", "f5")) {
            assertThat(crosses(engine.pathArcs(f), ix.arcsOfLink("leaf1-spine2"))).as(f).isFalse();
            assertThat(crosses(engine.pathArcs(f), ix.arcsOfLink("leaf1-spine3"))).as(f).isFalse();
        }
    }

    @Test
    void aLinkDownMovesEveryFlowOnTheLinkInOnePass() throws Exception {
        // Three flows on spine4 now: all of them must leave in the one pass of its link-down.
        for (String f : List.of("f1", "f3")) {
            EnginePin.pin(engine, f, engine.pathArcs(f), viaSpine(engine.placed(f).flow().srcNic(),
                    engine.placed(f).flow().dstNic(), 4));
        }
        List<Move> moves = linkDown("leaf1-spine4");
        assertThat(moves).extracting(Move::flowId).containsExactlyInAnyOrder("f1", "f3", "f5");
        assertThat(view().flowsOn(ix.arcOf("leaf1-spine4", "spine4"))).isEmpty();
    }

    @Test
    void aPinOntoAKnownDownLinkIsRefused() throws Exception {
        down.reported("leaf1-spine2");
        int[] from = engine.pathArcs("f4");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> EnginePin.pin(engine, "f4", from,
                viaSpine("leaf2-nic4", "leaf1-nic4", 2), down.arcs(ix)))
                .isInstanceOf(EnginePin.PinFailure.class).hasMessageContaining("leaf1-spine2");
        assertThat(engine.pathArcs("f4")).isEqualTo(from);
    }

    @Test
    void aDownLinkIsForgottenOnLinkUpOrOnceTheSnapshotCarriesIt() {
        down.reported("leaf1-spine2");
        assertThat(down.arcs(ix)).hasSize(2);
        down.restored("leaf1-spine2");
        assertThat(down.arcs(ix)).isEmpty();

        down.reported("leaf1-spine2");
        DenseFabric caughtUp = DenseFabric.of(fabric, Map.of("leaf1-spine2", LinkState.DOWN));
        assertThat(down.arcs(caughtUp)).isEmpty();
        assertThat(down.arcs(ix)).as("the snapshot owns the state from then on").isEmpty();
    }
}
