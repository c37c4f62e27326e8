package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Fresh and moved flows are encoded; a path that fails to encode is released and reported, never handed out. */
class EncodingPassTest {
    private final LedgerFixture fx = new LedgerFixture(2, 2, 2);
    private final List<String> encoded = new ArrayList<>();
    /** Refuses every path over spine 2. */
    private final FlowEncoder encoder = (path, tenant) -> {
        if (path.stream().anyMatch(a -> a.to().equals("spine2"))) {
            throw new FlowEncoder.EncodingFailure("spine2 has no uSID");
        }
        encoded.add(path.get(0).from());
        return new FlowEncoding(List.of("fcbb:bb00::"), List.of(), null);
    };
    private final EncodingPass pass = new EncodingPass(fx.ledger, encoder);

    @Test
    void freshFlowsAreEncodedAndAFailureIsReleasedWithItsReason() {
        int a = fx.flow("a", 1, 2, 1, 100);
        int b = fx.flow("b", 1, 2, 2, 100);
        fx.ledger.reserve(a, fx.via(1, 2, 1, 1));
        fx.ledger.reserve(b, fx.via(1, 2, 2, 2));
        List<String> moved = new ArrayList<>();
        List<Unplaced> unplaced = new ArrayList<>();
        pass.encodeChanged(fx.ix, Map.of(), new int[] {a, b}, moved, unplaced);
        assertThat(fx.ledger.encoding(a)).isNotNull();
        assertThat(moved).isEmpty();
        assertThat(unplaced).singleElement().satisfies(u -> {
            assertThat(u.flow().id()).isEqualTo("b");
            assertThat(u.reason()).isEqualTo("encoding: spine2 has no uSID");
        });
        assertThat(fx.ledger.path(b)).isNull();
        assertThat(fx.ledger.encoding(b)).isNull();
        assertThat(fx.ledger.placedCount()).isEqualTo(1);
    }

    @Test
    void aMovedFlowIsReportedAndOneBackOnItsPathKeepsItsEncoding() throws Exception {
        int a = fx.flow("a", 1, 2, 1, 100);
        int b = fx.flow("b", 1, 2, 2, 100);
        fx.ledger.reserve(a, fx.via(1, 2, 1, 1));
        fx.ledger.reserve(b, fx.via(1, 2, 2, 1));
        pass.encodeChanged(fx.ix, Map.of(), new int[] {a, b}, new ArrayList<>(), new ArrayList<>());
        FlowEncoding kept = fx.ledger.encoding(b);
        encoded.clear();
        // a went from a path it never had to spine 1 (moved); b was taken off and put back (not moved).
        int[] oldA = fx.via(1, 2, 1, 2);
        List<String> moved = new ArrayList<>();
        pass.encodeChanged(fx.ix, Map.of(a, oldA, b, fx.ledger.path(b)), new int[0], moved, new ArrayList<>());
        assertThat(moved).containsExactly("a");
        assertThat(encoded).containsExactly("leaf1-nic1");
        assertThat(fx.ledger.encoding(b)).isSameAs(kept);
    }
}
