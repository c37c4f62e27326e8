package io.weft.scheduler.reroute;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.weft.contracts.DirectionKey;
import io.weft.contracts.HotspotEvent;
import io.weft.placement.DenseFabric;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hot link directions now, in the order they started, and their arcs in the engine's current
 * index. A hotspot-start adds its direction (a repeated start keeps the first), a hotspot-end removes
 * it, a link-down removes both directions of the link (its flows leave it anyway). A direction the
 * index does not have is left out and logged once. Owned by the loop thread.
 */
final class ActiveHotspots {
    private static final Logger LOG = LoggerFactory.getLogger(ActiveHotspots.class);

    /** What a pass works on: the hot arcs, the moves each already had this interval, and their events. */
    record Hot(List<HotArc> arcs, Map<Integer, Integer> usedByArc, Map<String, ActiveHotspot> byEventId) {
    }

    private final Map<String, ActiveHotspot> active = new LinkedHashMap<>();
    private final Set<String> unknown = new HashSet<>();

    void started(HotspotEvent ev, Instant received) {
        active.putIfAbsent(ev.directionKey().toString(), new ActiveHotspot(ev, received));
    }

    void ended(HotspotEvent ev) {
        active.remove(ev.directionKey().toString());
    }

    void linkDown(String linkId) {
        active.keySet().removeIf(k -> DirectionKey.parse(k).linkId().equals(linkId));
    }

    boolean isEmpty() {
        return active.isEmpty();
    }

    /**
     * The hot directions the index has, with their timestamps for the policy's tie-breaks; without
     * timestamps ({@code withTimes} false) for a link-down pass, which only avoids them.
     */
    Hot resolve(DenseFabric ix, MoveBudget budget, boolean withTimes) {
        List<HotArc> hot = new ArrayList<>();
        Map<Integer, Integer> used = new HashMap<>();
        Map<String, ActiveHotspot> byId = new HashMap<>();
        for (var e : active.entrySet()) {
            HotspotEvent s = e.getValue().start();
            int arc = arcOf(ix, s);
            if (arc < 0) {
                continue;
            }
            hot.add(withTimes ? new HotArc(arc, s.linkId(), s.eventId(), s.detectedAt().toEpochMilli(),
                    s.sampleTimestampNs())
                    : new HotArc(arc, s.linkId(), s.eventId(), 0, 0));
            used.put(arc, budget.usedOn(e.getKey()));
            byId.put(s.eventId(), e.getValue());
        }
        return new Hot(hot, used, byId);
    }

    /** The arc of the event's hot direction in {@code ix}, or -1 (unknown link, logged once). */
    int arcOf(DenseFabric ix, HotspotEvent ev) {
        int[] arcs = ix.arcsOfLink(ev.linkId());
        if (arcs != null) {
            for (int a : arcs) {
                if (ix.nodeId(ix.to(a)).equals(ev.direction())) {
                    return a;
                }
            }
        }
        warnUnknown(ev.directionKey().toString());
        return -1;
    }

    void warnUnknown(String what) {
        if (unknown.add(what)) {
            LOG.warn("hotspot on {} which the current fabric does not have: ignored", what);
        }
    }
}
