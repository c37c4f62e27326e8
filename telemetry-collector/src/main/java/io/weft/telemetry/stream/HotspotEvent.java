package io.weft.telemetry.stream;

import java.io.IOException;
import java.time.Instant;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonGenerator;

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
    public void write(JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeNumberField("schemaVersion", SCHEMA_VERSION);
        g.writeStringField("eventId", eventId);
        g.writeStringField("kind", kind.jsonName());
        g.writeStringField("linkId", linkId);
        g.writeStringField("direction", direction);
        g.writeStringField("sampleTimestampNs", Long.toUnsignedString(sampleTimestampNs));
        g.writeStringField("detectedAt", detectedAt.toString());
        Json.number(g, "utilisation", utilisation);
        Json.number(g, "dropRate", dropRate);
        Json.number(g, "ecnFraction", ecnFraction);
        Json.number(g, "threshold", threshold);
        g.writeEndObject();
    }
}
