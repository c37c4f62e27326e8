package io.weft.telemetry.stream;

import java.time.Instant;
import java.util.Objects;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A change of state of one link direction (contracts/schemas/hotspot-event.schema.json), keyed by
 * link id on weft.hotspots. The numbers are those the decision was taken on: the smoothed
 * utilisation compared with {@code threshold}, and the sample's drop rate and ECN fraction
 * (NaN = unknown, written as null).
 */
public record HotspotEvent(String eventId, Kind kind, String linkId, String direction, long sampleTimestampNs,
                           Instant detectedAt, double utilisation, double dropRate, double ecnFraction,
                           double threshold) implements Emitted {
    public static final int SCHEMA_VERSION = 1;

    /** The event kinds of the contract. */
    public enum Kind {
        HOTSPOT_START("hotspot-start"), HOTSPOT_END("hotspot-end"), LINK_DOWN("link-down"), LINK_UP("link-up");

        private final String jsonName;

        Kind(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }

        public static Kind fromJson(String name) {
            for (Kind k : values()) {
                if (k.jsonName.equals(name)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("kind: \"" + name + "\" is not a hotspot event kind");
        }
    }

    public HotspotEvent {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(linkId, "linkId");
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(detectedAt, "detectedAt");
    }

    @Override
    public String key() {
        return linkId;
    }

    @Override
    public ObjectNode toTree() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("schemaVersion", SCHEMA_VERSION);
        o.put("eventId", eventId);
        o.put("kind", kind.jsonName());
        o.put("linkId", linkId);
        o.put("direction", direction);
        o.put("sampleTimestampNs", Long.toUnsignedString(sampleTimestampNs));
        o.put("detectedAt", detectedAt.toString());
        Json.putNumber(o, "utilisation", utilisation);
        Json.putNumber(o, "dropRate", dropRate);
        Json.putNumber(o, "ecnFraction", ecnFraction);
        Json.putNumber(o, "threshold", threshold);
        return o;
    }
}
