package io.weft.telemetry.history;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Folds weft.links.load records into 1-second rollups per link direction (sample count, sum and max
 * of rate and utilisation, max drop rate and ECN fraction, last oper-status, hot at any time in the
 * second). Drained whole at every write: a second split across two drains becomes two upserts that
 * add up in the database. Not thread-safe (the writer thread owns it).
 */
final class RollupBuffer {
    /** One direction's second. */
    static final class Rollup {
        final String linkId;
        final String toNode;
        final Instant second;
        final String fabricId;
        int samples;
        double rateSum;
        double rateMax;
        double utilSum;
        double utilMax;
        double capacityGbps;
        Double dropMax;
        Double ecnMax;
        String operStatus;
        boolean hot;

        Rollup(String linkId, String toNode, Instant second, String fabricId) {
            this.linkId = linkId;
            this.toNode = toNode;
            this.second = second;
            this.fabricId = fabricId;
        }
    }

    private final Map<String, Rollup> rollups = new HashMap<>();

    /** Adds one link-load record (contracts/schemas/link-load.schema.json). */
    void add(JsonNode load) {
        String linkId = load.path("linkId").asText();
        String toNode = load.path("toNode").asText();
        long ns = Long.parseUnsignedLong(load.path("timestampNs").asText("0"));
        Instant second = Instant.ofEpochSecond(Long.divideUnsigned(ns, 1_000_000_000L));
        String key = linkId + '>' + toNode + '@' + second.getEpochSecond();
        Rollup r = rollups.computeIfAbsent(key,
                k -> new Rollup(linkId, toNode, second, load.path("fabricId").asText()));
        double rate = load.path("rateGbps").asDouble();
        double util = load.path("utilisation").asDouble();
        r.samples++;
        r.rateSum += rate;
        r.rateMax = Math.max(r.rateMax, rate);
        r.utilSum += util;
        r.utilMax = Math.max(r.utilMax, util);
        r.capacityGbps = load.path("capacityGbps").asDouble();
        r.dropMax = max(r.dropMax, load.get("dropRate"));
        r.ecnMax = max(r.ecnMax, load.get("ecnFraction"));
        if (load.hasNonNull("operStatus")) {
            r.operStatus = load.get("operStatus").asText();
        }
        r.hot |= load.path("hot").asBoolean();
    }

    private static Double max(Double held, JsonNode v) {
        if (v == null || !v.isNumber()) {
            return held;
        }
        return held == null ? v.asDouble() : Math.max(held, v.asDouble());
    }

    int size() {
        return rollups.size();
    }

    /** Everything buffered, emptying the buffer. */
    List<Rollup> drain() {
        List<Rollup> out = new ArrayList<>(rollups.values());
        rollups.clear();
        return out;
    }
}
