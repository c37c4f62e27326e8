package io.weft.telemetry.stream;

import java.util.Objects;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The latest load of one link direction (contracts/schemas/link-load.schema.json), keyed by
 * {@code linkId>toNode} on the compacted weft.links.load. Rate and utilisation are those of the last
 * sample interval (not smoothed: the UI shows what was measured); NaN ratios are written as null.
 */
public record LinkLoad(String fabricId, String linkId, String toNode, long timestampNs, double rateGbps,
                       double capacityGbps, double utilisation, double dropRate, double ecnFraction,
                       String operStatus, boolean hot) implements Emitted {
    public static final int SCHEMA_VERSION = 1;

    public LinkLoad {
        Objects.requireNonNull(fabricId, "fabricId");
        Objects.requireNonNull(linkId, "linkId");
        Objects.requireNonNull(toNode, "toNode");
    }

    @Override
    public String key() {
        return linkId + ">" + toNode;
    }

    @Override
    public ObjectNode toTree() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("schemaVersion", SCHEMA_VERSION);
        o.put("fabricId", fabricId);
        o.put("linkId", linkId);
        o.put("toNode", toNode);
        o.put("timestampNs", Long.toUnsignedString(timestampNs));
        o.put("rateGbps", rateGbps);
        o.put("capacityGbps", capacityGbps);
        o.put("utilisation", utilisation);
        Json.putNumber(o, "dropRate", dropRate);
        Json.putNumber(o, "ecnFraction", ecnFraction);
        o.put("operStatus", operStatus);
        o.put("hot", hot);
        return o;
    }
}
