package io.weft.telemetry.stream;

import java.io.IOException;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonGenerator;

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
    public void write(JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeNumberField("schemaVersion", SCHEMA_VERSION);
        g.writeStringField("fabricId", fabricId);
        g.writeStringField("linkId", linkId);
        g.writeStringField("toNode", toNode);
        g.writeStringField("timestampNs", Long.toUnsignedString(timestampNs));
        g.writeNumberField("rateGbps", rateGbps);
        g.writeNumberField("capacityGbps", capacityGbps);
        g.writeNumberField("utilisation", utilisation);
        Json.number(g, "dropRate", dropRate);
        Json.number(g, "ecnFraction", ecnFraction);
        g.writeStringField("operStatus", operStatus);
        g.writeBooleanField("hot", hot);
        g.writeEndObject();
    }
}
