package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Role;
import io.weft.lab.fabric.DragonflyGenerator;
import io.weft.lab.fabric.FatTreeGenerator;
import io.weft.lab.fabric.LeafSpineGenerator;

/** Shared fabrics, encoders and invariant checks for the placement tests. */
final class Fixtures {
    private Fixtures() {
    }

    /** Encodes nothing (algorithm-only tests); the plan-backed encoder is tested separately. */
    static final FlowEncoder FAKE = (path, tenant) -> new FlowEncoding(List.of("fcbb:bb00::"), List.of(), null);

    static Fabric leafSpine(int leaves, int spines, int nicsPerLeaf) {
        return LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(leaves, spines, nicsPerLeaf));
    }

    static Fabric fatTree(int k) {
        return FatTreeGenerator.generate(FatTreeGenerator.kary(k));
    }

    static Fabric dragonfly(int p, int a, int h) {
        return DragonflyGenerator.generate(DragonflyGenerator.Params.of(p, a, h));
    }

    static List<String> nics(Fabric f) {
        List<String> out = new ArrayList<>();
        f.nodesWithRole(Role.NIC).forEach(n -> out.add(n.id()));
        return out;
    }

    /** The fabric indexed with each link down with probability {@code down}, drawn from {@code rnd}. */
    static DenseFabric withRandomLinksDown(Fabric f, Random rnd, double down) {
        Map<String, LinkState> states = new LinkedHashMap<>();
        for (Link l : f.links()) {
            if (rnd.nextDouble() < down) {
                states.put(l.id(), LinkState.DOWN);
            }
        }
        return DenseFabric.of(f, states);
    }

    static PlacementEngine engine(Fabric f) {
        return new PlacementEngine(DenseFabric.of(f), FAKE, PlacementConfig.DEFAULTS);
    }

    static PlacementEngine engine(Fabric f, Map<String, LinkState> states) {
        return new PlacementEngine(DenseFabric.of(f, states), FAKE, PlacementConfig.DEFAULTS);
    }

    /** Asserts a path is a contiguous walk over usable arcs from the flow's source NIC to its destination. */
    static void assertValidWalk(DenseFabric ix, PlacedFlow pf) {
        assertThat(pf.path()).as("path of %s", pf.flow().id()).isNotEmpty();
        assertThat(pf.path().get(0).from()).isEqualTo(pf.flow().srcNic());
        assertThat(pf.path().get(pf.path().size() - 1).to()).isEqualTo(pf.flow().dstNic());
        for (int i = 0; i < pf.path().size(); i++) {
            var arc = pf.path().get(i);
            assertThat(ix.state(arc.link().id())).as("state of %s on %s", arc.link().id(), pf.flow().id())
                    .isEqualTo(LinkState.UP);
            if (i > 0) {
                assertThat(arc.from()).isEqualTo(pf.path().get(i - 1).to());
                assertThat(ix.fabric().node(arc.from()).role().isSwitch()).isTrue();
            }
        }
        assertThat(pf.nodes()).doesNotHaveDuplicates();
    }
}
