package io.weft.contracts;

import java.io.IOException;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The latest load of one link direction (contracts/schemas/link-load.schema.json), the value of the
 * compacted {@value Topics#LINKS_LOAD} keyed by {@link DirectionKey} ({@code linkId>toNode}). The
 * telemetry collector writes one per link-direction sample; rate and utilisation are those of the
 * last sample interval (not smoothed: the UI shows what was measured); NaN ratios are written as null.
 *
 * <p>A final value class rather than a record: this jar is Java 11 bytecode because the ONOS 2.7 app
 * (Java 11) embeds it.
 */
public final class LinkLoad implements TopicValue {
    public static final int SCHEMA_VERSION = 1;

    private static final SerializedString SCHEMA_VERSION_FIELD = new SerializedString("schemaVersion");
    private static final SerializedString FABRIC_ID = new SerializedString("fabricId");
    private static final SerializedString LINK_ID = new SerializedString("linkId");
    private static final SerializedString TO_NODE = new SerializedString("toNode");
    private static final SerializedString TIMESTAMP_NS = new SerializedString("timestampNs");
    private static final SerializedString RATE_GBPS = new SerializedString("rateGbps");
    private static final SerializedString CAPACITY_GBPS = new SerializedString("capacityGbps");
    private static final SerializedString UTILISATION = new SerializedString("utilisation");
    private static final SerializedString DROP_RATE = new SerializedString("dropRate");
    private static final SerializedString ECN_FRACTION = new SerializedString("ecnFraction");
    private static final SerializedString OPER_STATUS = new SerializedString("operStatus");
    private static final SerializedString HOT = new SerializedString("hot");

    private static final byte[] B_SCHEMA_VERSION = JsonBytes.name("schemaVersion");
    private static final byte[] B_FABRIC_ID = JsonBytes.name("fabricId");
    private static final byte[] B_LINK_ID = JsonBytes.name("linkId");
    private static final byte[] B_TO_NODE = JsonBytes.name("toNode");
    private static final byte[] B_TIMESTAMP_NS = JsonBytes.name("timestampNs");
    private static final byte[] B_RATE_GBPS = JsonBytes.name("rateGbps");
    private static final byte[] B_CAPACITY_GBPS = JsonBytes.name("capacityGbps");
    private static final byte[] B_UTILISATION = JsonBytes.name("utilisation");
    private static final byte[] B_DROP_RATE = JsonBytes.name("dropRate");
    private static final byte[] B_ECN_FRACTION = JsonBytes.name("ecnFraction");
    private static final byte[] B_OPER_STATUS = JsonBytes.name("operStatus");
    private static final byte[] B_HOT = JsonBytes.name("hot");

    private final String fabricId;
    private final String linkId;
    private final String toNode;
    private final long timestampNs;
    private final double rateGbps;
    private final double capacityGbps;
    private final double utilisation;
    private final double dropRate;
    private final double ecnFraction;
    private final String operStatus;
    private final boolean hot;

    /**
     * @param timestampNs the sample's time, nanoseconds since the epoch (unsigned)
     * @param dropRate    NaN = unknown
     * @param ecnFraction NaN = unknown
     * @param operStatus  {@code UP}, {@code DOWN} or null when not reported
     * @param hot         between a hotspot-start and its hotspot-end
     */
    public LinkLoad(String fabricId, String linkId, String toNode, long timestampNs, double rateGbps,
                    double capacityGbps, double utilisation, double dropRate, double ecnFraction,
                    String operStatus, boolean hot) {
        this.fabricId = Objects.requireNonNull(fabricId, "fabricId");
        this.linkId = Objects.requireNonNull(linkId, "linkId");
        this.toNode = Objects.requireNonNull(toNode, "toNode");
        this.timestampNs = timestampNs;
        this.rateGbps = rateGbps;
        this.capacityGbps = capacityGbps;
        this.utilisation = utilisation;
        this.dropRate = dropRate;
        this.ecnFraction = ecnFraction;
        this.operStatus = operStatus;
        this.hot = hot;
    }

    /** Reads one record value strictly; the ContractException's message names the offending field. */
    public static LinkLoad fromJson(String json) {
        return fromTree(Strict.parse(json));
    }

    /** Reads one record value strictly; the ContractException's message names the offending field. */
    public static LinkLoad fromJson(byte[] json) {
        return fromTree(Strict.parse(json));
    }

    /** Reads one parsed value strictly (Jackson 2 tree). */
    public static LinkLoad fromTree(JsonNode node) {
        return Strict.value(node, SCHEMA_VERSION, o -> {
            String fabricId = o.id("fabricId");
            String linkId = o.id("linkId");
            String toNode = o.id("toNode");
            long timestampNs = o.uint64("timestampNs");
            double rate = o.number("rateGbps", 0, false, Double.POSITIVE_INFINITY);
            double capacity = o.number("capacityGbps", 0, true, Double.POSITIVE_INFINITY);
            double utilisation = o.number("utilisation", 0, false, Double.POSITIVE_INFINITY);
            double dropRate = o.nullableRatio("dropRate");
            double ecnFraction = o.nullableRatio("ecnFraction");
            String operStatus = o.nullableString("operStatus", 1);
            if (operStatus != null && !operStatus.equals("UP") && !operStatus.equals("DOWN")) {
                throw new ContractException("operStatus", "must be UP, DOWN or null (got " + Strict.quote(operStatus)
                        + ")");
            }
            boolean hot = o.bool("hot");
            return new LinkLoad(fabricId, linkId, toNode, timestampNs, rate, capacity, utilisation, dropRate,
                    ecnFraction, operStatus, hot);
        });
    }

    public String fabricId() {
        return fabricId;
    }

    public String linkId() {
        return linkId;
    }

    public String toNode() {
        return toNode;
    }

    /** The link direction this load is of. */
    public DirectionKey directionKey() {
        return DirectionKey.of(linkId, toNode);
    }

    /** Nanoseconds since the epoch, unsigned. */
    public long timestampNs() {
        return timestampNs;
    }

    public double rateGbps() {
        return rateGbps;
    }

    public double capacityGbps() {
        return capacityGbps;
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

    public String operStatus() {
        return operStatus;
    }

    public boolean hot() {
        return hot;
    }

    /** The record key on {@value Topics#LINKS_LOAD}: {@code linkId>toNode}. */
    @Override
    public String key() {
        return DirectionKey.text(linkId, toNode);
    }

    /**
     * The contract JSON without a Jackson generator (this runs for every link-direction sample); the
     * same bytes as {@link #write(JsonGenerator)}, which stays the reference (tests hold them equal).
     */
    @Override
    public byte[] toJsonBytes() {
        return new JsonBytes().start()
                .field(B_SCHEMA_VERSION, SCHEMA_VERSION)
                .field(B_FABRIC_ID, fabricId)
                .field(B_LINK_ID, linkId)
                .field(B_TO_NODE, toNode)
                .field(B_TIMESTAMP_NS, Long.toUnsignedString(timestampNs))
                .number(B_RATE_GBPS, rateGbps)
                .number(B_CAPACITY_GBPS, capacityGbps)
                .number(B_UTILISATION, utilisation)
                .numberOrNull(B_DROP_RATE, dropRate)
                .numberOrNull(B_ECN_FRACTION, ecnFraction)
                .field(B_OPER_STATUS, operStatus)
                .field(B_HOT, hot)
                .end();
    }

    @Override
    public void write(JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeFieldName(SCHEMA_VERSION_FIELD);
        g.writeNumber(SCHEMA_VERSION);
        g.writeFieldName(FABRIC_ID);
        g.writeString(fabricId);
        g.writeFieldName(LINK_ID);
        g.writeString(linkId);
        g.writeFieldName(TO_NODE);
        g.writeString(toNode);
        g.writeFieldName(TIMESTAMP_NS);
        g.writeString(Long.toUnsignedString(timestampNs));
        g.writeFieldName(RATE_GBPS);
        g.writeNumber(rateGbps);
        g.writeFieldName(CAPACITY_GBPS);
        g.writeNumber(capacityGbps);
        g.writeFieldName(UTILISATION);
        g.writeNumber(utilisation);
        TopicValue.numberOrNull(g, DROP_RATE, dropRate);
        TopicValue.numberOrNull(g, ECN_FRACTION, ecnFraction);
        g.writeFieldName(OPER_STATUS);
        g.writeString(operStatus);
        g.writeFieldName(HOT);
        g.writeBoolean(hot);
        g.writeEndObject();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof LinkLoad)) {
            return false;
        }
        LinkLoad l = (LinkLoad) o;
        return fabricId.equals(l.fabricId) && linkId.equals(l.linkId) && toNode.equals(l.toNode)
                && timestampNs == l.timestampNs && Double.compare(rateGbps, l.rateGbps) == 0
                && Double.compare(capacityGbps, l.capacityGbps) == 0
                && Double.compare(utilisation, l.utilisation) == 0 && Double.compare(dropRate, l.dropRate) == 0
                && Double.compare(ecnFraction, l.ecnFraction) == 0 && Objects.equals(operStatus, l.operStatus)
                && hot == l.hot;
    }

    @Override
    public int hashCode() {
        return Objects.hash(fabricId, linkId, toNode, timestampNs, rateGbps, capacityGbps, utilisation, dropRate,
                ecnFraction, operStatus, hot);
    }

    @Override
    public String toString() {
        return "LinkLoad[" + fabricId + " " + key() + " timestampNs=" + Long.toUnsignedString(timestampNs)
                + " rateGbps=" + rateGbps + " capacityGbps=" + capacityGbps + " utilisation=" + utilisation
                + " dropRate=" + dropRate + " ecnFraction=" + ecnFraction + " operStatus=" + operStatus
                + " hot=" + hot + "]";
    }
}
