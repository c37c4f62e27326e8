package io.weft.simulator.live;

/**
 * One switch port's counters, as a switch keeps them: monotonically increasing uint64 octets and
 * packets in each direction, output discards, and one output queue's transmit / dropped counters,
 * grown from the simulated rates by {@link #advance}. Fractions of a byte or packet are carried
 * over, so a rate integrated over many short ticks adds up to the same count as over one long one.
 */
final class SwitchPort {
    /** Bytes per packet when rates become packet counts: a RoCEv2 4096-byte MTU frame with headers. */
    static final double PACKET_BYTES = 4096 + 78;
    /** The queue every simulated port reports (one traffic class: the RoCEv2 lossless queue). */
    static final String QUEUE = "3";

    final String node;
    final String name;
    final double capacityGbps;
    boolean up = true;

    long inOctets;
    long outOctets;
    long inPkts;
    long outPkts;
    long outDiscards;
    private double inOctetsFrac;
    private double outOctetsFrac;
    private double inPktsFrac;
    private double outPktsFrac;
    private double discardsFrac;

    SwitchPort(String node, String name, double capacityGbps) {
        this.node = node;
        this.name = name;
        this.capacityGbps = capacityGbps;
    }

    /**
     * Counts {@code seconds} of traffic: {@code outGbps} sent, {@code inGbps} received and
     * {@code droppedGbps} offered to this port's output but dropped (never sent). Rates below zero
     * count as zero: counters only grow.
     */
    void advance(double seconds, double outGbps, double inGbps, double droppedGbps) {
        double outBytes = Math.max(0, outGbps) * 1e9 / 8 * seconds + outOctetsFrac;
        double inBytes = Math.max(0, inGbps) * 1e9 / 8 * seconds + inOctetsFrac;
        double droppedPkts = Math.max(0, droppedGbps) * 1e9 / 8 * seconds / PACKET_BYTES + discardsFrac;
        long out = (long) outBytes;
        long in = (long) inBytes;
        outOctetsFrac = outBytes - out;
        inOctetsFrac = inBytes - in;
        outOctets += out;
        inOctets += in;
        double op = out / PACKET_BYTES + outPktsFrac;
        double ip = in / PACKET_BYTES + inPktsFrac;
        outPkts += (long) op;
        inPkts += (long) ip;
        outPktsFrac = op - (long) op;
        inPktsFrac = ip - (long) ip;
        outDiscards += (long) droppedPkts;
        discardsFrac = droppedPkts - (long) droppedPkts;
    }
}
