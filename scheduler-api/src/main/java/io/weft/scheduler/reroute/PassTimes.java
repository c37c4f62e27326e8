package io.weft.scheduler.reroute;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import io.weft.contracts.HotspotEvent;

/**
 * When one pass reached each step, for the "loop-timings" event: the pass started on the loop thread,
 * got the single writer, decided, pinned the moves, committed, and the agents were woken. Any stamp
 * may be null (unknown); the chain then says -1 for the spans touching it.
 */
record PassTimes(Instant started, Instant writing, Instant decided, Instant pinned, Instant committed,
                 Instant woken) {

    /**
     * One cause's chain, from its event's sample to the agents woken. An interval pass serves
     * hotspots received in earlier intervals, so its queue time (received to pass) is not measured.
     */
    Map<String, Object> chain(ActiveHotspot cause, String trigger) {
        HotspotEvent s = cause.start();
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("eventId", s.eventId());
        c.put("linkId", s.linkId());
        c.put("sampleToEventMs", LoopTimings.millis(s.sampledAt(), s.detectedAt()));
        c.put("eventToReceivedMs", LoopTimings.millis(s.detectedAt(), cause.received()));
        c.put("eventToCommitMs", LoopTimings.millis(s.detectedAt(), committed));
        c.put("commitToWakeMs", LoopTimings.millis(committed, woken));
        // Where the service's share went, in µs: waiting for the loop thread, for the single writer (a
        // snapshot or job being applied), deciding, pinning (encoding), recording.
        if (!trigger.equals("interval")) {
            c.put("receivedToPassUs", LoopTimings.micros(cause.received(), started));
        }
        c.put("lockWaitUs", LoopTimings.micros(started, writing));
        c.put("decideUs", LoopTimings.micros(writing, decided));
        c.put("pinUs", LoopTimings.micros(decided, pinned));
        c.put("recordUs", LoopTimings.micros(pinned, committed));
        c.put("eventToWakeMs", LoopTimings.millis(s.detectedAt(), woken));
        return c;
    }
}
