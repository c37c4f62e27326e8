package io.weft.scheduler.reroute;

import java.time.Instant;

/** An active hotspot (or a link-down being acted on): the event and when this service received it. */
record ActiveHotspot(HotspotEvent start, Instant received) {
}
