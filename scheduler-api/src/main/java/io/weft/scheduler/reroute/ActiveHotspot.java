package io.weft.scheduler.reroute;

import java.time.Instant;

import io.weft.contracts.HotspotEvent;

/** An active hotspot (or a link-down being acted on): the event and when this service received it. */
record ActiveHotspot(HotspotEvent start, Instant received) {
}
