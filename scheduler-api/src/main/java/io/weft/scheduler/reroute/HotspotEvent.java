package io.weft.scheduler.reroute;

import java.time.Instant;
import java.time.format.DateTimeParseException;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The fields of a {@code weft.hotspots} record (contracts/schemas/hotspot-event.schema.json) that
 * re-placement uses.
 *
 * @param sample the telemetry sample that triggered it (from sampleTimestampNs)
 */
record HotspotEvent(String eventId, String kind, String linkId, String direction, Instant sample, Instant detectedAt) {
    static final String START = "hotspot-start";
    static final String END = "hotspot-end";
    static final String LINK_DOWN = "link-down";
    static final String LINK_UP = "link-up";

    /** Reads one event; the message of the exception names the offending field. */
    static HotspotEvent parse(JsonNode n) {
        String kind = text(n, "kind");
        if (!kind.equals(START) && !kind.equals(END) && !kind.equals(LINK_DOWN) && !kind.equals(LINK_UP)) {
            throw new IllegalArgumentException("kind: unknown \"" + kind + "\"");
        }
        JsonNode ns = n.get("sampleTimestampNs");
        if (ns == null || !(ns.isIntegralNumber() || ns.isTextual())) {
            throw new IllegalArgumentException("sampleTimestampNs: must be an integer");
        }
        long sampleNs;
        try {
            sampleNs = ns.isTextual() ? Long.parseUnsignedLong(ns.asText()) : ns.asLong();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("sampleTimestampNs: must be an integer");
        }
        Instant detected;
        try {
            detected = Instant.parse(text(n, "detectedAt"));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("detectedAt: not an RFC 3339 date-time");
        }
        return new HotspotEvent(text(n, "eventId"), kind, text(n, "linkId"), text(n, "direction"),
                Instant.ofEpochSecond(0, sampleNs), detected);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual() || v.asText().isEmpty()) {
            throw new IllegalArgumentException(field + ": must be a non-empty string");
        }
        return v.asText();
    }

    /** The hot direction's identity across events: link id and the node it points to. */
    String key() {
        return linkId + ">" + direction;
    }
}
