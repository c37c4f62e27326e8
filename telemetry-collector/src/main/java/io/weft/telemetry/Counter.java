package io.weft.telemetry;

import java.util.HashMap;
import java.util.Map;

/**
 * The OpenConfig counters Weft reads, by their leaf name (contracts/topics.md). Interface counters
 * come from {@code /interfaces/interface/state/counters}, queue counters from
 * {@code /qos/interfaces/interface/output/queues/queue/state}. Every other leaf is ignored.
 */
public enum Counter {
    IN_OCTETS("in-octets", true),
    OUT_OCTETS("out-octets", true),
    IN_PKTS("in-pkts", false),
    OUT_PKTS("out-pkts", false),
    IN_DISCARDS("in-discards", false),
    OUT_DISCARDS("out-discards", false),
    IN_ERRORS("in-errors", false),
    OUT_ERRORS("out-errors", false),
    TRANSMIT_PKTS("transmit-pkts", false),
    TRANSMIT_OCTETS("transmit-octets", true),
    DROPPED_PKTS("dropped-pkts", false),
    ECN_MARKED_PKTS("ecn-marked-pkts", false),
    ECN_MARKED_OCTETS("ecn-marked-octets", true);

    private static final Map<String, Counter> BY_LEAF = new HashMap<>();

    static {
        for (Counter c : values()) {
            BY_LEAF.put(c.leaf, c);
        }
    }

    private final String leaf;
    private final boolean octets;

    Counter(String leaf, boolean octets) {
        this.leaf = leaf;
        this.octets = octets;
    }

    /** The OpenConfig leaf name, e.g. {@code in-octets}. */
    public String leaf() {
        return leaf;
    }

    /** True for byte counters, whose rate is a bit rate (Gbit/s); false for packet counters. */
    public boolean octets() {
        return octets;
    }

    /** The counter with this leaf name (no module prefix), or null when Weft does not read it. */
    public static Counter fromLeaf(String leaf) {
        return BY_LEAF.get(leaf);
    }
}
