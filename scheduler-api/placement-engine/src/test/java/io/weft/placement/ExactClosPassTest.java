package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The exact Clos assignment is used first on an empty ledger and later only when it lowers the max load. */
class ExactClosPassTest {
    private final LedgerFixture fx = new LedgerFixture(2, 2, 2);
    private final ExactClosPass pass = new ExactClosPass(fx.ledger, PlacementConfig.DEFAULTS);

    private int[] permutation() {
        return new int[] {fx.flow("a", 1, 2, 1, 400), fx.flow("b", 1, 2, 2, 400), fx.flow("c", 2, 1, 1, 400),
            fx.flow("d", 2, 1, 2, 400)};
    }

    @Test
    void anEmptyLedgerIsPlacedFromTheColouring() {
        int[] slots = permutation();
        assertThat(pass.placeFirst(fx.ix, slots)).isTrue();
        assertThat(fx.ledger.placedCount()).isEqualTo(4);
        assertThat(fx.ledger.maxLoad()).isEqualTo(1.0);
        int c = fx.flow("e", 1, 2, 1, 1);
        assertThat(pass.placeFirst(fx.ix, new int[] {c})).as("not on a non-empty ledger").isFalse();
        assertThat(fx.ledger.path(c)).isNull();
    }

    @Test
    void aWorsePlacementIsReassignedAndTheMovesRecorded() {
        int[] slots = permutation();
        for (int s : slots) {
            Flow f = fx.ledger.flow(s);
            int from = f.srcNic().startsWith("leaf1") ? 1 : 2;
            fx.ledger.reserve(s, fx.via(from, 3 - from, f.srcNic().endsWith("1") ? 1 : 2, 1));
        }
        assertThat(fx.ledger.maxLoad()).isEqualTo(2.0);
        Map<Integer, int[]> before = new HashMap<>();
        pass.reassignIfLower(fx.ix, before);
        assertThat(fx.ledger.maxLoad()).isEqualTo(1.0);
        assertThat(before).isNotEmpty().allSatisfy((s, old) -> assertThat(fx.ledger.path(s)).isNotEqualTo(old));
    }

    @Test
    void aPlacementAlreadyAtTheBoundIsKept() {
        int[] slots = permutation();
        pass.placeFirst(fx.ix, slots);
        int[][] paths = new int[slots.length][];
        for (int i = 0; i < slots.length; i++) {
            paths[i] = fx.ledger.path(slots[i]);
        }
        Map<Integer, int[]> before = new HashMap<>();
        pass.reassignIfLower(fx.ix, before);
        assertThat(before).isEmpty();
        for (int i = 0; i < slots.length; i++) {
            assertThat(fx.ledger.path(slots[i])).isSameAs(paths[i]);
        }
    }

    @Test
    void offWhenTheConfigSaysSo() {
        ExactClosPass off = new ExactClosPass(fx.ledger, PlacementConfig.DEFAULTS.withExactClos(false));
        assertThat(off.placeFirst(fx.ix, permutation())).isFalse();
        assertThat(fx.ledger.placedCount()).isZero();
    }
}
