package io.weft.simulator;

import java.util.List;

/**
 * How a flow's packets are steered. {@code SRV6}: uSID carriers (carriers[0] is the destination
 * address, the rest the SRH), walked over the plan's SIDs. {@code EV}: the entropy value as UDP
 * source port, walked over the plan's EV tables from the source NIC's link {@code port} (null: its
 * home link; a multi-plane NIC's agent sends the source port out another plane's port).
 * {@code ECMP}: the baseline, no steering; every switch hashes the five-tuple (with
 * {@code srcPort}) over its shortest-path next hops. {@code UGAL_L}:
 * the adaptive baseline, no steering either; the source switch picks the minimal (hashed) route or a
 * Valiant one through a random intermediate by its local load ({@link Router#ugalL}).
 */
public record Routing(Mode mode, List<String> carriers, int ev, int srcPort, String port) {
    public enum Mode { SRV6, EV, ECMP, UGAL_L }

    public Routing {
        carriers = carriers == null ? List.of() : List.copyOf(carriers);
    }

    public static Routing srv6(List<String> carriers) {
        return new Routing(Mode.SRV6, carriers, 0, 0, null);
    }

    public static Routing ev(int ev) {
        return ev(ev, null);
    }

    /** An EV sent out the source NIC's link {@code port} (another plane's port); null: its home link. */
    public static Routing ev(int ev, String port) {
        return new Routing(Mode.EV, List.of(), ev, ev, port);
    }

    public static Routing ecmp(int srcPort) {
        return new Routing(Mode.ECMP, List.of(), 0, srcPort, null);
    }

    public static Routing ugalL(int srcPort) {
        return new Routing(Mode.UGAL_L, List.of(), 0, srcPort, null);
    }

    /** True for the routings the fabric chooses per flow (ECMP, UGAL-L) rather than the sender's encoding. */
    public boolean routedByFabric() {
        return mode == Mode.ECMP || mode == Mode.UGAL_L;
    }
}
