package io.weft.simulator;

/**
 * One flow to simulate: from a source NIC to a destination NIC in a tenant, steered by
 * {@code routing}, starting at {@code startS} seconds with {@code sizeBytes} to send
 * (Double.POSITIVE_INFINITY: it never completes, e.g. a long-lived elephant) and sending at most
 * {@code demandGbps} (Double.POSITIVE_INFINITY: as fast as the network lets it).
 */
public record FlowSpec(String id, String srcNic, String dstNic, String tenant, Routing routing, double sizeBytes,
                       double startS, double demandGbps) {
    public FlowSpec {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("id: a flow needs an id");
        }
        if (!(sizeBytes > 0)) {
            throw new IllegalArgumentException("sizeBytes: " + sizeBytes + " is not a positive size");
        }
        if (!(startS >= 0) || Double.isInfinite(startS)) {
            throw new IllegalArgumentException("startS: " + startS + " is not a finite time >= 0");
        }
        if (!(demandGbps > 0)) {
            throw new IllegalArgumentException("demandGbps: " + demandGbps + " is not a positive rate");
        }
        tenant = tenant == null ? "default" : tenant;
    }

    /** A flow that starts at 0, never ends and takes what it gets. */
    public static FlowSpec persistent(String id, String src, String dst, Routing routing) {
        return new FlowSpec(id, src, dst, "default", routing, Double.POSITIVE_INFINITY, 0,
                Double.POSITIVE_INFINITY);
    }
}
