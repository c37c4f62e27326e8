package io.weft.scheduler.agent;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.media.Schema.RequiredMode;

/**
 * What a NIC agent is told: for every peer it sends to, the entries it may spread that traffic
 * over (modelled on the OCP MRC NIC API's per-connection EV lists). {@code version} grows with
 * every change for this NIC and survives restarts; agents long-poll with {@code since=version}.
 */
public record EvProfile(@Schema(requiredMode = RequiredMode.REQUIRED) String nic,
                        @Schema(requiredMode = RequiredMode.REQUIRED) long version,
                        @Schema(requiredMode = RequiredMode.REQUIRED) List<Peer> peers) {

    /**
     * @param address   the peer NIC's IPv6 address from the fabric plan (the destination an agent routes
     *                  into its carriers); null when the peer is no longer in the fabric
     * @param minActive fewest entries the agent must keep in use for this peer: it may stop using
     *                  entries it finds bad (ASSUMED_BAD) down to this count, not below
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Peer(@Schema(requiredMode = RequiredMode.REQUIRED) String peer, String address,
                       @Schema(requiredMode = RequiredMode.REQUIRED) int minActive,
                       @Schema(requiredMode = RequiredMode.REQUIRED) List<Entry> entries) {
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
     * @param port     the fabric link id of the NIC port the entry leaves by (the path's first link);
     *                 only for a NIC with more than one port (one per plane of a multi-plane fabric),
     *                 absent otherwise: a single-port NIC has one way out. An srv6 entry's carriers
     *                 leave by it; a udp-sport entry's source port is sent to the peer out of it (the
     *                 agent steers it there by policy routing), whatever plane it is on
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Entry(@Schema(requiredMode = RequiredMode.REQUIRED) String id, String jobId,
                        @Schema(requiredMode = RequiredMode.REQUIRED, allowableValues = {"srv6", "udp-sport"})
                        String format,
                        String value, List<String> carriers,
                        @Schema(requiredMode = RequiredMode.REQUIRED) int weight,
                        @Schema(requiredMode = RequiredMode.REQUIRED,
                                allowableValues = {"GOOD", "ASSUMED_BAD", "DENIED", "UNKNOWN"})
                        String state,
                        @Schema(description = "Fabric link id of the NIC port this entry leaves by; only for a NIC "
                                + "with more than one port (multi-plane fabrics). srv6: the carriers are sent out "
                                + "of this port. udp-sport: packets to the peer with this source port are sent "
                                + "out of this port (the agent steers them by policy routing), on any plane")
                        String port) {
    }
}
