package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.lab.fabric.RailGenerator;
import org.junit.jupiter.api.Test;

/**
 * {@link DenseFabric#withStates} builds a snapshot from the previous one (only the nodes of links whose
 * state changed get new adjacency); every table must equal the one a fresh index of the same states has.
 */
class DenseFabricStatesTest {

    @Test
    void aChainOfSnapshotsEqualsFreshIndicesOnEveryFabricKind() {
        Fabric twoPlanes = RailGenerator.generate(new RailGenerator.Params("rail-8x4-2pl", 8, 4, 8, 4, 2, 400, 400,
                100, 500));
        for (Fabric f : List.of(Fixtures.fatTree(4), Fixtures.dragonfly(2, 4, 2), twoPlanes)) {
            Random rnd = new Random(11);
            DenseFabric chained = DenseFabric.of(f);
            for (int step = 0; step < 40; step++) {
                double fraction = step % 10 == 9 ? 0 : 0.02 + 0.1 * rnd.nextDouble();
                Map<String, LinkState> states = randomStates(f, rnd, fraction);
                chained = chained.withStates(states);
                assertSameTables(chained, DenseFabric.of(f, states), f.id() + " step " + step);
            }
        }
    }

    @Test
    void aStateForAnUnknownLinkChangesNothing() {
        Fabric f = Fixtures.fatTree(4);
        Map<String, LinkState> states = Map.of("no-such-link", LinkState.DOWN);
        DenseFabric ix = DenseFabric.of(f).withStates(states);
        assertSameTables(ix, DenseFabric.of(f, states), "unknown link");
        assertThat(ix.usable).as("every link up").containsOnly(true);
    }

    /** Down and drained links (and some named up) at about the given fraction, NIC links included. */
    private static Map<String, LinkState> randomStates(Fabric f, Random rnd, double fraction) {
        Map<String, LinkState> m = new LinkedHashMap<>();
        for (Link l : f.links()) {
            double x = rnd.nextDouble();
            if (x < fraction) {
                m.put(l.id(), rnd.nextBoolean() ? LinkState.DOWN : LinkState.DRAINED);
            } else if (x < 2 * fraction) {
                m.put(l.id(), LinkState.UP);
            }
        }
        return m;
    }

    private static void assertSameTables(DenseFabric got, DenseFabric want, String what) {
        assertThat(got.linkStates()).as(what).isEqualTo(want.linkStates());
        assertThat(got.usable).as(what + ": usable").isEqualTo(want.usable);
        assertThat(got.out).as(what + ": out").isDeepEqualTo(want.out);
        assertThat(got.attach).as(what + ": attach").isEqualTo(want.attach);
        assertThat(got.nicUpArc).as(what + ": nicUpArc").isEqualTo(want.nicUpArc);
        assertThat(got.nicDownArc).as(what + ": nicDownArc").isEqualTo(want.nicDownArc);
        assertThat(got.nicPorts).as(what + ": nicPorts").isDeepEqualTo(want.nicPorts);
    }
}
