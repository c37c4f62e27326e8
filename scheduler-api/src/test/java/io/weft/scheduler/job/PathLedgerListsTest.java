package io.weft.scheduler.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A path's lists travel to PostgreSQL as one text per row, split there by U+001F (the API tests read
 * them back: links, carriers, uSIDs, EVs); an element that holds the separator would be split
 * wrongly, so it is refused rather than stored as two.
 */
class PathLedgerListsTest {
    @Test
    void listsAreJoinedByTheUnitSeparator() {
        assertThat(PathLedger.joined(List.of("leaf1-spine2>spine2", "spine2-leaf3>leaf3")))
                .isEqualTo("leaf1-spine2>spine2\u001fspine2-leaf3>leaf3");
        assertThat(PathLedger.joined(List.of(18, 2, 57344))).isEqualTo("18\u001f2\u001f57344");
        assertThat(PathLedger.joined(List.of())).isEmpty();
    }

    @Test
    void anElementHoldingTheSeparatorIsRefused() {
        assertThatThrownBy(() -> PathLedger.joined(List.of("a\u001fb")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("separator");
    }
}
