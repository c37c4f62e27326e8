package io.weft.scheduler.reroute;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;

import io.weft.contracts.HotspotEvent;
import org.junit.jupiter.api.Test;

class PassTimesTest {
    private final Instant t0 = Instant.parse("2026-11-27T03:00:00Z");
    private final HotspotEvent ev = HotspotEvents.of("h1", HotspotEvents.START, "leaf1-spine1", "spine1",
            t0.minusMillis(7), t0);
    private final ActiveHotspot cause = new ActiveHotspot(ev, t0.plusMillis(3));

    private PassTimes times() {
        return new PassTimes(t0.plusMillis(4), t0.plusNanos(4_250_000), t0.plusNanos(4_500_000),
                t0.plusMillis(5), t0.plusMillis(9), t0.plusMillis(12));
    }

    @Test
    void theChainSplitsTheLoopFromSampleToAgentsWoken() {
        Map<String, Object> c = times().chain(cause, "hotspot-start");
        assertThat(c).containsEntry("eventId", "h1").containsEntry("linkId", "leaf1-spine1")
                .containsEntry("sampleToEventMs", 7L).containsEntry("eventToReceivedMs", 3L)
                .containsEntry("eventToCommitMs", 9L).containsEntry("commitToWakeMs", 3L)
                .containsEntry("receivedToPassUs", 1000L).containsEntry("lockWaitUs", 250L)
                .containsEntry("decideUs", 250L).containsEntry("pinUs", 500L).containsEntry("recordUs", 4000L)
                .containsEntry("eventToWakeMs", 12L);
    }

    @Test
    void anIntervalPassHasNoQueueTimeAndUnknownStampsAreMinusOne() {
        PassTimes t = new PassTimes(t0, null, t0, t0, t0, t0);
        Map<String, Object> c = t.chain(cause, "interval");
        assertThat(c).doesNotContainKey("receivedToPassUs").containsEntry("lockWaitUs", -1L)
                .containsEntry("decideUs", -1L);
    }
}
