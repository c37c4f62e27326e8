package io.weft.simulator;

import java.util.List;

/**
 * How a flow's packets are steered. {@code SRV6}: uSID carriers (carriers[0] is the destination
 * address, the rest the SRH), walked over the plan's SIDs. {@code EV}: the entropy value as UDP
 * source port, walked over the plan's EV tables. {@code ECMP}: the baseline, no steering; every
 * switch hashes the five-tuple (with {@code srcPort}) over its shortest-path next hops. {@code UGAL_L}:
 * the adaptive baseline, no steering either; the source switch picks the minimal (hashed) route or a
 * Valiant one through a random intermediate by its local load ({@link Router#ugalL}).
 */
public record Routing(Mode mode, List<String> carriers, int ev, int srcPort) {
    public enum Mode { SRV6, EV, ECMP, UGAL_L }

    public Routing {
        carriers = carriers == null ? List.of() : List.copyOf(carriers);
    }

    public static Routing srv6(List<String> carriers) {
        return new Routing(Mode.SRV6, carriers, 0, 0);
    }

    public static Routing ev(int ev) {
        return new Routing(Mode.EV, List.of(), ev, ev);
    }

    public static Routing ecmp(int srcPort) {
        return new Routing(Mode.ECMP, List.of(), 0, srcPort);
    }

    public static Routing ugalL(int srcPort) {
        return new Routing(Mode.UGAL_L, List.of(), 0, srcPort);
    }

    /** True for the routings the fabric chooses per flow (ECMP, UGAL-L) rather than the sender's encoding. */
    public boolean routedByFabric() {
        return mode == Mode.ECMP || mode == Mode.UGAL_L;
    }
}
