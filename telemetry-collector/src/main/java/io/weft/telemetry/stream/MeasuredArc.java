package io.weft.telemetry.stream;

/**
 * One direction of one fabric link, as measured by one switch interface.
 *
 * @param arcKey       {@code linkId>toNode} (Arc.key()): the store key and the weft.links.load key
 * @param side         which counters of the interface measure this direction
 * @param capacityGbps the link's capacity (each direction has the full capacity)
 */
public record MeasuredArc(String fabricId, String linkId, String toNode, String arcKey, Side side,
                          double capacityGbps) {

    /** Which end of the link the reporting interface is on, relative to the traffic direction. */
    public enum Side {
        /** The interface sends this direction: out-octets, out-pkts, out-discards, output queues. */
        SENDER,
        /** The interface receives this direction (the sender is a NIC, which gnmic does not poll): in-*. */
        RECEIVER
    }
}
