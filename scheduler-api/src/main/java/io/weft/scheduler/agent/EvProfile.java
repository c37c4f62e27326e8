package io.weft.scheduler.agent;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What a NIC agent is told: for every peer it sends to, the entries it may spread that traffic
 * over (modelled on the OCP MRC NIC API's per-connection EV lists). {@code version} grows with
 * every change for this NIC and survives restarts; agents long-poll with {@code since=version}.
 */
public record EvProfile(String nic, long version, List<Peer> peers) {

    /**
     * @param address   the peer NIC's IPv6 address from the fabric plan (the destination an agent routes
     *                  into its carriers); null when the peer is no longer in the fabric
     * @param minActive fewest entries the agent must keep in use for this peer: it may stop using
     *                  entries it finds bad (ASSUMED_BAD) down to this count, not below
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Peer(String peer, String address, int minActive, List<Entry> entries) {
    }

    /**
     * One way to reach the peer.
     *
     * @param id       stable across versions: flow slice id + "#srv6" or "#ev"
     * @param format   {@code srv6} (value = first uSID carrier, the destination address; carriers =
     *                 the whole list, the rest for an SRH) or {@code udp-sport} (value = entropy value,
     *                 the RoCEv2 UDP source port, in decimal)
     * @param weight   relative share of traffic, the slice's demand in Mbit/s
     * @param state    GOOD, ASSUMED_BAD, DENIED (do not use: no path) or UNKNOWN
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Entry(String id, String jobId, String format, String value, List<String> carriers, int weight,
                        String state) {
    }
}
