package io.weft.telemetry.stream;

import java.io.IOException;
import java.time.Instant;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;

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
    private static final SerializedString SCHEMA_VERSION_FIELD = Json.name("schemaVersion");
    private static final SerializedString EVENT_ID = Json.name("eventId");
    private static final SerializedString KIND = Json.name("kind");
    private static final SerializedString LINK_ID = Json.name("linkId");
    private static final SerializedString DIRECTION = Json.name("direction");
    private static final SerializedString SAMPLE_TIMESTAMP_NS = Json.name("sampleTimestampNs");
    private static final SerializedString DETECTED_AT = Json.name("detectedAt");
    private static final SerializedString UTILISATION = Json.name("utilisation");
    private static final SerializedString DROP_RATE = Json.name("dropRate");
    private static final SerializedString ECN_FRACTION = Json.name("ecnFraction");
    private static final SerializedString THRESHOLD = Json.name("threshold");

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
        g.writeFieldName(SCHEMA_VERSION_FIELD);
        g.writeNumber(SCHEMA_VERSION);
        g.writeFieldName(EVENT_ID);
        g.writeString(eventId);
        g.writeFieldName(KIND);
        g.writeString(kind.jsonName());
        g.writeFieldName(LINK_ID);
        g.writeString(linkId);
        g.writeFieldName(DIRECTION);
        g.writeString(direction);
        g.writeFieldName(SAMPLE_TIMESTAMP_NS);
        g.writeString(Long.toUnsignedString(sampleTimestampNs));
        g.writeFieldName(DETECTED_AT);
        g.writeString(detectedAt.toString());
        Json.number(g, UTILISATION, utilisation);
        Json.number(g, DROP_RATE, dropRate);
        Json.number(g, ECN_FRACTION, ecnFraction);
        Json.number(g, THRESHOLD, threshold);
        g.writeEndObject();
    }
}
