package io.weft.scheduler.reroute;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reunion's per-interval budget: at most k moves per hot link direction and never the same flow twice
 * in one statistics interval. Intervals are wall-clock slots of {@code intervalMs}; both counts reset
 * when a pass starts in a new slot. Owned by the loop thread.
 */
final class MoveBudget {
    private final long intervalMs;
    private long interval = Long.MIN_VALUE;
    private final Set<String> moved = new HashSet<>();
    private final Map<String, Integer> used = new HashMap<>();

    MoveBudget(long intervalMs) {
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("intervalMs must be positive, was " + intervalMs);
        }
        this.intervalMs = intervalMs;
    }

    /** Starts a new interval if {@code nowMs} is in a later slot than the last pass. */
    void roll(long nowMs) {
        long now = Math.floorDiv(nowMs, intervalMs);
        if (now != interval) {
            interval = now;
            moved.clear();
            used.clear();
        }
    }

    /** Moves already made this interval off the hot direction {@code key} ("linkId>toNode"). */
    int usedOn(String key) {
        return used.getOrDefault(key, 0);
    }

    /** Flows moved this interval (the policy moves none of them again); a live view. */
    Set<String> movedThisInterval() {
        return moved;
    }

    /** Counts a move of {@code flowId} against the hot direction {@code key}. */
    void spend(String key, String flowId) {
        used.merge(key, 1, Integer::sum);
        moved.add(flowId);
    }

    /** Counts a move that no hot direction pays for (a link-down moves every flow on the link). */
    void moved(String flowId) {
        moved.add(flowId);
    }
}
