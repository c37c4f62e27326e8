package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weft.fabric.Fabric;
import io.weft.plan.Planner;
import io.weft.plan.walk.ForwardingWalk;
import org.junit.jupiter.api.Test;

/** pin(): the re-placement policy's way to put one flow on a path it chose. */
class PinTest {
    private final Fabric fabric = Fixtures.leafSpine(2, 2, 1);
    private final PlacementEngine engine;

    PinTest() throws Exception {
        engine = new PlacementEngine(DenseFabric.of(fabric), new PlanFlowEncoder(Planner.plan(fabric, null)),
                PlacementConfig.DEFAULTS);
    }

    @Test
    void movesTheFlowToTheOtherSpineWithAProvenEncoding() throws Exception {
        String id = placeOneFlow();
        int[] before = engine.pathArcs(id);
        int[] other = viaOtherSpine(before);

        PlacedFlow now = engine.pin(id, other);

        assertThat(engine.pathArcs(id)).containsExactly(other);
        assertThat(ForwardingWalk.walkCarriers(Planner.plan(fabric, null), now.flow().srcNic(), now.flow().dstNic(),
                now.encoding().carriers(), "default")).isEqualTo(now.path());
        double[] load = engine.arcLoadsGbps();
        assertThat(load[before[1]]).as("old uplink released").isZero();
        assertThat(load[other[1]]).as("new uplink reserved").isEqualTo(now.flow().demandGbps());
    }

    @Test
    void aPathThatCannotBeEncodedLeavesTheFlowWhereItWas() throws Exception {
        String id = placeOneFlow();
        int[] before = engine.pathArcs(id);
        PlacedFlow was = engine.placed(id);
        int[] broken = {before[0], before[2]};   // skips the spine: not a walk the plan can encode

        assertThatThrownBy(() -> engine.pin(id, broken))
                .isInstanceOf(PlacementException.class)
                .satisfies(e -> assertThat(((PlacementException) e).field()).isEqualTo("path"));
        assertThat(engine.pathArcs(id)).containsExactly(before);
        assertThat(engine.placed(id).encoding().carriers()).isEqualTo(was.encoding().carriers());
        assertThat(engine.arcLoadsGbps()[before[1]]).isEqualTo(was.flow().demandGbps());
    }

    @Test
    void aPathBetweenOtherNicsIsRefusedAndTheFlowStays() throws Exception {
        var nics = Fixtures.nics(fabric);
        String id = placeOneFlow();
        int[] before = engine.pathArcs(id);
        String other = "{\"name\":\"other\",\"pattern\":\"explicit\",\"demandGbps\":100,"
                + "\"flows\":[{\"src\":\"" + nics.get(1) + "\",\"dst\":\"" + nics.get(0) + "\"}]}";
        PlacementResult r = engine.add(Patterns.expand(JobSpecJson.parse(other), engine.index(), 1 << 20));
        int[] othersPath = engine.pathArcs(r.placed().get(0).flow().id());

        assertThatThrownBy(() -> engine.pin(id, othersPath))
                .isInstanceOf(PlacementException.class)
                .hasMessageContaining("source NIC " + nics.get(0));
        assertThatThrownBy(() -> engine.pin(id, new int[] {before[0], -1}))
                .isInstanceOf(PlacementException.class)
                .hasMessageContaining("no link of the fabric");
        assertThat(engine.pathArcs(id)).containsExactly(before);
    }

    @Test
    void unknownFlowIsNamed() {
        assertThatThrownBy(() -> engine.pin("nope", new int[0]))
                .isInstanceOf(PlacementException.class)
                .hasMessageContaining("flowId")
                .hasMessageContaining("nope");
    }

    private String placeOneFlow() throws PlacementException {
        var nics = Fixtures.nics(fabric);
        String job = "{\"name\":\"pin\",\"pattern\":\"explicit\",\"demandGbps\":100,"
                + "\"flows\":[{\"src\":\"" + nics.get(0) + "\",\"dst\":\"" + nics.get(1) + "\"}]}";
        PlacementResult r = engine.add(Patterns.expand(JobSpecJson.parse(job), engine.index(), 1 << 20));
        assertThat(r.placed()).hasSize(1);
        return r.placed().get(0).flow().id();
    }

    /** nic -> leafA -> (other spine) -> leafB -> nic, from the placed path's first and last arcs. */
    private int[] viaOtherSpine(int[] path) {
        DenseFabric ix = engine.index();
        int leafA = ix.to(path[0]);
        int spine = ix.to(path[1]);
        int leafB = ix.from(path[path.length - 1]);
        int up = -1;
        int down = -1;
        for (int a = 0; a < ix.arcCount(); a++) {
            if (ix.from(a) == leafA && ix.to(a) != spine && ix.role(ix.to(a)).isSwitch()) {
                up = a;
            }
        }
        for (int a = 0; a < ix.arcCount(); a++) {
            if (ix.from(a) == ix.to(up) && ix.to(a) == leafB) {
                down = a;
            }
        }
        return new int[] {path[0], up, down, path[path.length - 1]};
    }
}
