package io.weft.telemetry.stream;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the topology counted: samples, unmapped interfaces, dead letters per error code, flow reports
 * and flows. A problem is logged the first time its kind is seen, then only counted, so that a
 * misconfigured producer cannot flood the log. Thread-safe (shared by the stream threads).
 */
public final class TelemetryCounters {
    private static final Logger LOG = LoggerFactory.getLogger(TelemetryCounters.class);

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final Map<String, Boolean> logged = new ConcurrentHashMap<>();

    /** Adds one to a counter, e.g. {@code samples} or {@code deadletter.bad-counter}. */
    public void count(String name) {
        counts.computeIfAbsent(name, k -> new LongAdder()).increment();
    }

    public void add(String name, long n) {
        counts.computeIfAbsent(name, k -> new LongAdder()).add(n);
    }

    /** Counts the problem and logs it if it is the first of its kind. */
    public void problem(String kind, String detail) {
        count(kind);
        if (logged.putIfAbsent(kind, Boolean.TRUE) == null) {
            LOG.warn("{}: {} (logged once; further ones are only counted)", kind, detail);
        }
    }

    public long get(String name) {
        LongAdder a = counts.get(name);
        return a == null ? 0 : a.sum();
    }

    /** A sorted copy of every counter. */
    public Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }
}
