package io.weft.scheduler.reroute;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Drops redelivered hotspot events: the topic is consumed at least once, so an event may come again
 * after a rebalance or a writer takeover. Remembers the last {@code capacity} event ids (oldest
 * forgotten first). Owned by the loop thread.
 */
final class SeenEvents {
    private final Map<String, Boolean> seen;

    SeenEvents(int capacity) {
        this.seen = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    /** True the first time an id is offered (while it is remembered), false for a redelivery. */
    boolean firstTime(String eventId) {
        return seen.put(eventId, Boolean.TRUE) == null;
    }
}
