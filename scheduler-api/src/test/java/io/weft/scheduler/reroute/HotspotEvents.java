package io.weft.scheduler.reroute;

import java.time.Instant;

import io.weft.contracts.HotspotEvent;


/** Hotspot events for the loop's tests, built from the contract type with the fields re-placement reads. */
final class HotspotEvents {
    static final String START = HotspotEvent.Kind.HOTSPOT_START.json();
    static final String END = HotspotEvent.Kind.HOTSPOT_END.json();
    static final String LINK_DOWN = HotspotEvent.Kind.LINK_DOWN.json();
    static final String LINK_UP = HotspotEvent.Kind.LINK_UP.json();

    private HotspotEvents() {
    }

    static HotspotEvent of(String id, String kind, String linkId, String direction, Instant sample, Instant detected) {
        return new HotspotEvent(id, HotspotEvent.Kind.fromJson(kind), linkId, direction,
                sample.getEpochSecond() * 1_000_000_000L + sample.getNano(), detected, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN);
    }
}
