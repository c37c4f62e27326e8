package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** Rip-up and reroute moves flows off a shared spine, prefers fresh flows, and leaves others alone when told. */
class LocalSearchTest {
    private final LedgerFixture fx = new LedgerFixture(2, 2, 2);
    private final LocalSearch search = new LocalSearch(fx.ledger, PlacementConfig.DEFAULTS);

    @Test
    void twoLineRateFlowsOnOneSpineAreSplit() {
        int a = fx.flow("a", 1, 2, 1, 400);
        int b = fx.flow("b", 1, 2, 2, 400);
        fx.ledger.reserve(a, fx.via(1, 2, 1, 1));
        fx.ledger.reserve(b, fx.via(1, 2, 2, 1));
        Map<Integer, int[]> before = new HashMap<>();
        search.improve(fx.chooser(), new int[] {b}, before, false);
        assertThat(fx.ledger.maxLoad()).isEqualTo(1.0);
        assertThat(fx.ledger.collisions()).isZero();
        // The fresh flow is the preferred victim: it moves, the other stays.
        assertThat(before).containsOnlyKeys(b);
        assertThat(before.get(b)).containsExactly(fx.via(1, 2, 2, 1));
        assertThat(fx.ledger.path(b)).containsExactly(fx.via(1, 2, 2, 2));
        assertThat(fx.ledger.path(a)).containsExactly(fx.via(1, 2, 1, 1));
    }

    @Test
    void onlyFreshFlowsMoveWhenOthersMustStay() {
        int a = fx.flow("a", 1, 2, 1, 400);
        int b = fx.flow("b", 1, 2, 2, 400);
        fx.ledger.reserve(a, fx.via(1, 2, 1, 1));
        fx.ledger.reserve(b, fx.via(1, 2, 2, 1));
        Map<Integer, int[]> before = new HashMap<>();
        search.improve(fx.chooser(), new int[0], before, true);
        assertThat(before).isEmpty();
        assertThat(fx.ledger.maxLoad()).isEqualTo(2.0);
    }

    @Test
    void aPlacementAtTheNicBoundIsLeftAsItIs() {
        // Both flows leave leaf1-nic1: its link carries 2.0 whatever the paths, so nothing moves.
        int a = fx.ledger.newSlot(new Flow("a", "j", "leaf1-nic1", "leaf2-nic1", 400, 0), "default");
        int b = fx.ledger.newSlot(new Flow("b", "j", "leaf1-nic1", "leaf2-nic2", 400, 0), "default");
        fx.ledger.reserve(a, fx.via(1, 2, 1, 1));
        int[] pb = fx.via(1, 2, 2, 2);
        pb[0] = fx.via(1, 2, 1, 2)[0];
        fx.ledger.reserve(b, pb);
        Map<Integer, int[]> before = new HashMap<>();
        search.improve(fx.chooser(), new int[] {a, b}, before, false);
        assertThat(before).isEmpty();
        assertThat(fx.ledger.maxLoad()).isEqualTo(2.0);
    }

    @Test
    void victimsSortedAsPackedKeysComeInTheComparatorsOrder() {
        LedgerFixture big = new LedgerFixture(4, 2, 8);
        LocalSearch ls = new LocalSearch(big.ledger, PlacementConfig.DEFAULTS);
        double[] sizes = {100, 200, 400, 400, 50};
        Random rnd = new Random(3);
        int n = 0;
        for (int leaf = 1; leaf <= 4; leaf++) {
            for (int nic = 1; nic <= 8; nic++) {
                big.flow("f" + n++, leaf, leaf % 4 + 1, nic, sizes[rnd.nextInt(sizes.length)]);
            }
        }
        for (int trial = 0; trial < 20; trial++) {
            boolean[] fresh = new boolean[n];
            int[] victims = new int[n];
            for (int s = 0; s < n; s++) {
                fresh[s] = rnd.nextBoolean();
                victims[s] = s;
            }
            for (int i = n - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                int t = victims[i];
                victims[i] = victims[j];
                victims[j] = t;
            }
            assertThat(ls.inMoveOrder(victims, fresh)).containsExactly(ls.inMoveOrderBoxed(victims, fresh));
        }
    }
}
