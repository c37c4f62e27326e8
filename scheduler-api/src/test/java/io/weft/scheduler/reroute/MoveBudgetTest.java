package io.weft.scheduler.reroute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MoveBudgetTest {
    private final MoveBudget budget = new MoveBudget(500);

    @Test
    void movesCountPerHotDirectionAndFlowWithinOneInterval() {
        budget.roll(1_000);
        budget.spend("l1>s1", "f1");
        budget.spend("l1>s1", "f2");
        budget.moved("f3");
        assertThat(budget.usedOn("l1>s1")).isEqualTo(2);
        assertThat(budget.usedOn("l2>s1")).isZero();
        assertThat(budget.movedThisInterval()).containsExactlyInAnyOrder("f1", "f2", "f3");
        budget.roll(1_499);
        assertThat(budget.usedOn("l1>s1")).as("same 500 ms slot").isEqualTo(2);
    }

    @Test
    void aPassInTheNextSlotStartsAFreshBudget() {
        budget.roll(1_499);
        budget.spend("l1>s1", "f1");
        budget.roll(1_500);
        assertThat(budget.usedOn("l1>s1")).isZero();
        assertThat(budget.movedThisInterval()).isEmpty();
    }

    @Test
    void aZeroIntervalIsRefused() {
        assertThatThrownBy(() -> new MoveBudget(0)).hasMessageContaining("intervalMs");
    }
}
