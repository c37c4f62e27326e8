package io.weft.scheduler.reroute;

/**
 * One direction of a link that telemetry reported hot and has not yet reported cool.
 *
 * @param arc arc index in the engine's {@code DenseFabric}
 * @param hotspotId the {@code eventId} of the hotspot-start event
 * @param sinceMs when the hotspot started (detectedAt), used to order the hot links of a pass
 * @param sampleTimestampNs the telemetry sample that triggered it (for the loop timings)
 */
public record HotArc(int arc, String linkId, String hotspotId, long sinceMs, long sampleTimestampNs) {
}
