package io.weft.contracts;

import java.io.IOException;
import java.time.Instant;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A change of state of one link direction (contracts/schemas/hotspot-event.schema.json), the value of
 * {@value Topics#HOTSPOTS} keyed by link id: it became hot, cooled down, went down or came back up.
 * The telemetry collector writes it; scheduler-api, the standalone controller and the simulator read
 * it. The numbers are those the decision was taken on; NaN stands for the contract's null (unknown).
 *
 * <p>A final value class rather than a record: this jar is Java 11 bytecode because the ONOS 2.7 app
 * (Java 11) embeds it.
 */
public final class HotspotEvent implements TopicValue {
    public static final int SCHEMA_VERSION = 1;

    private static final SerializedString SCHEMA_VERSION_FIELD = new SerializedString("schemaVersion");
    private static final SerializedString EVENT_ID = new SerializedString("eventId");
    private static final SerializedString KIND = new SerializedString("kind");
    private static final SerializedString LINK_ID = new SerializedString("linkId");
    private static final SerializedString DIRECTION = new SerializedString("direction");
    private static final SerializedString SAMPLE_TIMESTAMP_NS = new SerializedString("sampleTimestampNs");
    private static final SerializedString DETECTED_AT = new SerializedString("detectedAt");
    private static final SerializedString UTILISATION = new SerializedString("utilisation");
    private static final SerializedString DROP_RATE = new SerializedString("dropRate");
    private static final SerializedString ECN_FRACTION = new SerializedString("ecnFraction");
    private static final SerializedString THRESHOLD = new SerializedString("threshold");

    /** The event kinds of the contract. */
    public enum Kind {
        HOTSPOT_START("hotspot-start"), HOTSPOT_END("hotspot-end"), LINK_DOWN("link-down"), LINK_UP("link-up");

        private final String json;

        Kind(String json) {
            this.json = json;
        }

        /** The JSON form, e.g. {@code hotspot-start}. */
        public String json() {
            return json;
        }

        /** The kind of a JSON value; throws {@link ContractException} on {@code kind} for anything else. */
        public static Kind fromJson(String value) {
            for (Kind k : values()) {
                if (k.json.equals(value)) {
                    return k;
                }
            }
            throw new ContractException("kind", "must be one of hotspot-start, hotspot-end, link-down, link-up (got "
                    + Strict.quote(value) + ")");
        }

        @Override
        public String toString() {
            return json;
        }
    }

    private final String eventId;
    private final Kind kind;
    private final String linkId;
    private final String direction;
    private final long sampleTimestampNs;
    private final Instant detectedAt;
    private final double utilisation;
    private final double dropRate;
    private final double ecnFraction;
    private final double threshold;

    /**
     * @param direction         the node the direction points to (Arc.to)
     * @param sampleTimestampNs the triggering sample's time, nanoseconds since the epoch (unsigned)
     * @param utilisation       smoothed utilisation compared with {@code threshold}; NaN = unknown
     * @param dropRate          dropped / offered packets of the sample; NaN = unknown
     * @param ecnFraction       ECN-marked / transmitted packets of the sample; NaN = unknown
     * @param threshold         the threshold that was crossed; NaN for link-down / link-up
     */
    public HotspotEvent(String eventId, Kind kind, String linkId, String direction, long sampleTimestampNs,
                        Instant detectedAt, double utilisation, double dropRate, double ecnFraction,
                        double threshold) {
        this.eventId = Objects.requireNonNull(eventId, "eventId");
        this.kind = Objects.requireNonNull(kind, "kind");
        this.linkId = Objects.requireNonNull(linkId, "linkId");
        this.direction = Objects.requireNonNull(direction, "direction");
        this.sampleTimestampNs = sampleTimestampNs;
        this.detectedAt = Objects.requireNonNull(detectedAt, "detectedAt");
        this.utilisation = utilisation;
        this.dropRate = dropRate;
        this.ecnFraction = ecnFraction;
        this.threshold = threshold;
    }

    /** Reads one record value strictly; the ContractException's message names the offending field. */
    public static HotspotEvent fromJson(String json) {
        return fromTree(Strict.parse(json));
    }

    /** Reads one record value strictly; the ContractException's message names the offending field. */
    public static HotspotEvent fromJson(byte[] json) {
        return fromTree(Strict.parse(json));
    }

    /** Reads one parsed value strictly (Jackson 2 tree). */
    public static HotspotEvent fromTree(JsonNode node) {
        return Strict.value(node, SCHEMA_VERSION, o -> {
            String eventId = o.string("eventId", 1);
            Kind kind = Kind.fromJson(o.string("kind", 1));
            String linkId = o.id("linkId");
            String direction = o.id("direction");
            long sampleNs = o.uint64("sampleTimestampNs");
            Instant detectedAt = o.dateTime("detectedAt");
            double utilisation = o.nullableNumber("utilisation", 0, Double.POSITIVE_INFINITY);
            double dropRate = o.nullableRatio("dropRate");
            double ecnFraction = o.nullableRatio("ecnFraction");
            double threshold = o.nullableNumber("threshold", 0, Double.POSITIVE_INFINITY);
            return new HotspotEvent(eventId, kind, linkId, direction, sampleNs, detectedAt, utilisation, dropRate,
                    ecnFraction, threshold);
        });
    }

    public String eventId() {
        return eventId;
    }

    public Kind kind() {
        return kind;
    }

    public String linkId() {
        return linkId;
    }

    /** The node the direction points to. */
    public String direction() {
        return direction;
    }

    /** The link direction this event is about. */
    public DirectionKey directionKey() {
        return DirectionKey.of(linkId, direction);
    }

    /** Nanoseconds since the epoch, unsigned. */
    public long sampleTimestampNs() {
        return sampleTimestampNs;
    }

    /** The triggering sample's time as an Instant. */
    public Instant sampledAt() {
        return Instant.ofEpochSecond(0, sampleTimestampNs);
    }

    public Instant detectedAt() {
        return detectedAt;
    }

    public double utilisation() {
        return utilisation;
    }

    public double dropRate() {
        return dropRate;
    }

    public double ecnFraction() {
        return ecnFraction;
    }

    public double threshold() {
        return threshold;
    }

    /** The record key on {@value Topics#HOTSPOTS}: the link id, so one link's events stay in order. */
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
        g.writeString(kind.json());
        g.writeFieldName(LINK_ID);
        g.writeString(linkId);
        g.writeFieldName(DIRECTION);
        g.writeString(direction);
        g.writeFieldName(SAMPLE_TIMESTAMP_NS);
        g.writeString(Long.toUnsignedString(sampleTimestampNs));
        g.writeFieldName(DETECTED_AT);
        g.writeString(detectedAt.toString());
        TopicValue.numberOrNull(g, UTILISATION, utilisation);
        TopicValue.numberOrNull(g, DROP_RATE, dropRate);
        TopicValue.numberOrNull(g, ECN_FRACTION, ecnFraction);
        TopicValue.numberOrNull(g, THRESHOLD, threshold);
        g.writeEndObject();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof HotspotEvent)) {
            return false;
        }
        HotspotEvent e = (HotspotEvent) o;
        return eventId.equals(e.eventId) && kind == e.kind && linkId.equals(e.linkId)
                && direction.equals(e.direction) && sampleTimestampNs == e.sampleTimestampNs
                && detectedAt.equals(e.detectedAt) && Double.compare(utilisation, e.utilisation) == 0
                && Double.compare(dropRate, e.dropRate) == 0 && Double.compare(ecnFraction, e.ecnFraction) == 0
                && Double.compare(threshold, e.threshold) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(eventId, kind, linkId, direction, sampleTimestampNs, detectedAt, utilisation, dropRate,
                ecnFraction, threshold);
    }

    @Override
    public String toString() {
        return "HotspotEvent[" + kind.json() + " " + DirectionKey.text(linkId, direction) + " eventId=" + eventId
                + " sampleTimestampNs=" + Long.toUnsignedString(sampleTimestampNs) + " detectedAt=" + detectedAt
                + " utilisation=" + utilisation + " dropRate=" + dropRate + " ecnFraction=" + ecnFraction
                + " threshold=" + threshold + "]";
    }
}
