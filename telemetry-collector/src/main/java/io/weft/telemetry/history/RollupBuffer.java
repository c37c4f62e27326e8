package io.weft.telemetry.history;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.weft.contracts.LinkLoad;

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

    /** Adds one link load (the contract value of weft.links.load). */
    void add(LinkLoad load) {
        String linkId = load.linkId();
        String toNode = load.toNode();
        Instant second = Instant.ofEpochSecond(Long.divideUnsigned(load.timestampNs(), 1_000_000_000L));
        String key = load.key() + '@' + second.getEpochSecond();
        Rollup r = rollups.computeIfAbsent(key, k -> new Rollup(linkId, toNode, second, load.fabricId()));
        double rate = load.rateGbps();
        double util = load.utilisation();
        r.samples++;
        r.rateSum += rate;
        r.rateMax = Math.max(r.rateMax, rate);
        r.utilSum += util;
        r.utilMax = Math.max(r.utilMax, util);
        r.capacityGbps = load.capacityGbps();
        r.dropMax = max(r.dropMax, load.dropRate());
        r.ecnMax = max(r.ecnMax, load.ecnFraction());
        if (load.operStatus() != null) {
            r.operStatus = load.operStatus();
        }
        r.hot |= load.hot();
    }

    /** The larger of what is held and {@code v}; NaN (unknown) changes nothing. */
    private static Double max(Double held, double v) {
        if (Double.isNaN(v)) {
            return held;
        }
        return held == null ? v : Math.max(held, v);
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
