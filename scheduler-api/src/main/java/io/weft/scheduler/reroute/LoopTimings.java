package io.weft.scheduler.reroute;

import java.time.Duration;
import java.time.Instant;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The loop's timing chain as Prometheus histograms ({@code weft_loop_*_seconds}): telemetry sample
 * → hotspot event (collector) → moves committed (this service) → agents woken (their parked
 * long-polls answered with the new version). Wall-clock stamps: the sample time and detectedAt come
 * from other processes, so skew between hosts shows up in the first two.
 */
final class LoopTimings {
    private final Timer sampleToEvent;
    private final Timer eventToCommit;
    private final Timer commitToWake;
    private final Timer eventToWake;

    LoopTimings(MeterRegistry meters) {
        sampleToEvent = timer(meters, "weft.loop.sample.to.event", "telemetry sample to hotspot event detected");
        eventToCommit = timer(meters, "weft.loop.event.to.commit", "hotspot event detected to moves committed");
        commitToWake = timer(meters, "weft.loop.commit.to.wake", "moves committed to agent long-polls answered");
        eventToWake = timer(meters, "weft.loop.event.to.wake",
                "hotspot event detected to agent long-polls answered (the loop latency)");
    }

    private static Timer timer(MeterRegistry meters, String name, String description) {
        return Timer.builder(name).description(description).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(10))
                .register(meters);
    }

    /** One pass's chain; {@code sample} or {@code event} null when unknown (a periodic pass has both). */
    void record(Instant sample, Instant event, Instant committed, Instant woken) {
        if (sample != null && event != null) {
            sampleToEvent.record(nonNegative(sample, event));
        }
        if (event != null) {
            eventToCommit.record(nonNegative(event, committed));
            eventToWake.record(nonNegative(event, woken));
        }
        commitToWake.record(nonNegative(committed, woken));
    }

    static Duration nonNegative(Instant from, Instant to) {
        Duration d = Duration.between(from, to);
        return d.isNegative() ? Duration.ZERO : d;
    }

    static long micros(Instant from, Instant to) {
        return from == null || to == null ? -1 : nonNegative(from, to).toNanos() / 1000;
    }

    static long millis(Instant from, Instant to) {
        return from == null || to == null ? -1 : nonNegative(from, to).toMillis();
    }
}
