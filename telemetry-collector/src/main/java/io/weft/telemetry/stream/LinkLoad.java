package io.weft.telemetry.stream;

import java.io.IOException;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;

/**
 * The latest load of one link direction (contracts/schemas/link-load.schema.json), keyed by
 * {@code linkId>toNode} on the compacted weft.links.load. Rate and utilisation are those of the last
 * sample interval (not smoothed: the UI shows what was measured); NaN ratios are written as null.
 */
public record LinkLoad(String fabricId, String linkId, String toNode, long timestampNs, double rateGbps,
                       double capacityGbps, double utilisation, double dropRate, double ecnFraction,
                       String operStatus, boolean hot) implements Emitted {
    public static final int SCHEMA_VERSION = 1;
    private static final SerializedString SCHEMA_VERSION_FIELD = Json.name("schemaVersion");
    private static final SerializedString FABRIC_ID = Json.name("fabricId");
    private static final SerializedString LINK_ID = Json.name("linkId");
    private static final SerializedString TO_NODE = Json.name("toNode");
    private static final SerializedString TIMESTAMP_NS = Json.name("timestampNs");
    private static final SerializedString RATE_GBPS = Json.name("rateGbps");
    private static final SerializedString CAPACITY_GBPS = Json.name("capacityGbps");
    private static final SerializedString UTILISATION = Json.name("utilisation");
    private static final SerializedString DROP_RATE = Json.name("dropRate");
    private static final SerializedString ECN_FRACTION = Json.name("ecnFraction");
    private static final SerializedString OPER_STATUS = Json.name("operStatus");
    private static final SerializedString HOT = Json.name("hot");

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

    public LinkLoad {
        Objects.requireNonNull(fabricId, "fabricId");
        Objects.requireNonNull(linkId, "linkId");
        Objects.requireNonNull(toNode, "toNode");
    }

    @Override
    public String key() {
        return linkId + ">" + toNode;
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
        Json.number(g, DROP_RATE, dropRate);
        Json.number(g, ECN_FRACTION, ecnFraction);
        g.writeFieldName(OPER_STATUS);
        g.writeString(operStatus);
        g.writeFieldName(HOT);
        g.writeBoolean(hot);
        g.writeEndObject();
    }
}
