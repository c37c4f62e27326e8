package io.weft.telemetry.live;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.weft.contracts.LinkLoad;

/**
 * The latest load of every link direction, as read from weft.links.load, with a sequence number per
 * change so that any client can be brought up to date from where it stands.
 * <p>
 * Every applied record takes the next {@code seq}; a direction remembers the seq of its last change
 * (a tombstone is remembered as a removal). {@link #since(long)} is then "every direction changed after
 * that seq", whatever the client missed, and {@link #drainChanged()} is the same for the broadcaster's
 * last tick without scanning the map. The seq is only meaningful within one {@link #epoch()} (one
 * process): a client that presents another epoch gets a full snapshot.
 * Thread-safe: the feed's consumer thread writes, the broadcaster and HTTP threads read.
 */
public final class LiveLoads {
    /** What one direction was last set to; {@code load == null} means removed (a tombstone). */
    private record Entry(long seq, LinkLoad load) {
    }

    /** A consistent view: the state (or changes) up to {@code seq}. */
    public record View(String epoch, long fromSeq, long seq, List<LinkLoad> loads, List<String> removed) {
    }

    private final String epoch;
    private final Map<String, Entry> entries = new HashMap<>();
    private final Set<String> changed = new LinkedHashSet<>();
    private long seq;
    private long drainedSeq;

    public LiveLoads(String epoch) {
        this.epoch = epoch;
    }

    public String epoch() {
        return epoch;
    }

    public synchronized long seq() {
        return seq;
    }

    /** Sets the direction of {@code load} (its {@link LinkLoad#key()}) to it. */
    public synchronized void apply(LinkLoad load) {
        set(load.key(), load);
    }

    /** Removes the direction {@code key} (a tombstone: its link left the fabric). */
    public synchronized void remove(String key) {
        Entry old = entries.get(key);
        if (old == null || old.load == null) {
            return; // removing what is not there changes nothing
        }
        set(key, null);
    }

    private void set(String key, LinkLoad load) {
        entries.put(key, new Entry(++seq, load));
        changed.add(key);
    }

    /** Every present direction, as of {@link View#seq()}. */
    public synchronized View snapshot() {
        List<LinkLoad> loads = new ArrayList<>(entries.size());
        for (Entry e : entries.values()) {
            if (e.load != null) {
                loads.add(e.load);
            }
        }
        return new View(epoch, 0, seq, loads, List.of());
    }

    /** The directions changed after {@code fromSeq} (0 &lt;= fromSeq &lt;= seq()), with their current loads. */
    public synchronized View since(long fromSeq) {
        if (fromSeq < 0 || fromSeq > seq) {
            throw new IllegalArgumentException("fromSeq " + fromSeq + " outside 0.." + seq);
        }
        List<LinkLoad> loads = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        for (Map.Entry<String, Entry> e : entries.entrySet()) {
            if (e.getValue().seq > fromSeq) {
                add(e.getKey(), e.getValue(), loads, removed);
            }
        }
        return new View(epoch, fromSeq, seq, loads, removed);
    }

    /** The directions changed since the previous drain (null when none did). */
    public synchronized View drainChanged() {
        if (changed.isEmpty()) {
            return null;
        }
        List<LinkLoad> loads = new ArrayList<>(changed.size());
        List<String> removed = new ArrayList<>();
        for (String key : changed) {
            add(key, entries.get(key), loads, removed);
        }
        changed.clear();
        View v = new View(epoch, drainedSeq, seq, loads, removed);
        drainedSeq = seq;
        return v;
    }

    private static void add(String key, Entry e, List<LinkLoad> loads, List<String> removed) {
        if (e.load == null) {
            removed.add(key);
        } else {
            loads.add(e.load);
        }
    }
}
