package io.weft.scheduler.reroute;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SeenEventsTest {
    @Test
    void aRedeliveryIsDroppedWhileItsIdIsRemembered() {
        SeenEvents seen = new SeenEvents(2);
        assertThat(seen.firstTime("a")).isTrue();
        assertThat(seen.firstTime("a")).isFalse();
        assertThat(seen.firstTime("b")).isTrue();
        assertThat(seen.firstTime("a")).as("still among the last two").isFalse();
    }

    @Test
    void theOldestIdIsForgottenFirst() {
        SeenEvents seen = new SeenEvents(2);
        seen.firstTime("a");
        seen.firstTime("b");
        seen.firstTime("c");
        assertThat(seen.firstTime("a")).as("a was the oldest of three").isTrue();
        assertThat(seen.firstTime("c")).isFalse();
    }
}
