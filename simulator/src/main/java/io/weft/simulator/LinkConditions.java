package io.weft.simulator;

import java.util.Arrays;

/**
 * What happened to the links: failures (both directions carry nothing), throttling (capacity
 * scaled, e.g. a degraded optic renegotiated to a lower speed) and background load (traffic the
 * simulation does not route, e.g. storage or other tenants, taken off the capacity of one
 * direction before the flows share what is left). Mutable; owned by one {@link Simulation}.
 */
public final class LinkConditions {
    private final ArcTable arcs;
    private final boolean[] failed;
    private final double[] factor;
    private final double[] backgroundGbps;
    private int failedLinks;
    private long failureVersion;

    public LinkConditions(ArcTable arcs) {
        this.arcs = arcs;
        int n = arcs.size();
        failed = new boolean[n];
        factor = new double[n];
        backgroundGbps = new double[n];
        Arrays.fill(factor, 1.0);
    }

    /** Fails or restores a link (both directions). */
    public void setFailed(String linkId, boolean isFailed) {
        int l = arcs.linkIndexOf(linkId);
        if (failed[2 * l] != isFailed) {
            failedLinks += isFailed ? 1 : -1;
            failureVersion++;
        }
        failed[2 * l] = isFailed;
        failed[2 * l + 1] = isFailed;
    }

    /** Number of links failed now. */
    public int failedLinks() {
        return failedLinks;
    }

    /** Changes whenever a link fails or comes back (routing caches key on it). */
    public long failureVersion() {
        return failureVersion;
    }

    /** Scales a link's capacity (both directions) by {@code capacityFactor} in [0, 1]; 1 restores it. */
    public void setThrottle(String linkId, double capacityFactor) {
        if (!(capacityFactor >= 0 && capacityFactor <= 1)) {
            throw new IllegalArgumentException("factor: " + capacityFactor + " is not in [0, 1]");
        }
        int l = arcs.linkIndexOf(linkId);
        factor[2 * l] = capacityFactor;
        factor[2 * l + 1] = capacityFactor;
    }

    /** Sets the background load of one direction of a link (or both when {@code fromNode} is null). */
    public void setBackground(String linkId, String fromNode, double gbps) {
        if (!(gbps >= 0) || Double.isInfinite(gbps)) {
            throw new IllegalArgumentException("gbps: " + gbps + " is not a finite load >= 0");
        }
        int l = arcs.linkIndexOf(linkId);
        String a = arcs.fabric().links().get(l).a().node();
        String b = arcs.fabric().links().get(l).b().node();
        if (fromNode == null || fromNode.equals(a)) {
            backgroundGbps[2 * l] = gbps;
        }
        if (fromNode == null || fromNode.equals(b)) {
            backgroundGbps[2 * l + 1] = gbps;
        }
        if (fromNode != null && !fromNode.equals(a) && !fromNode.equals(b)) {
            throw new IllegalArgumentException("from: \"" + fromNode + "\" is not an end of link " + linkId);
        }
    }

    public boolean failed(int arc) {
        return failed[arc];
    }

    /** True when any arc of the route has failed. */
    public boolean crossesFailure(int[] route) {
        for (int a : route) {
            if (failed[a]) {
                return true;
            }
        }
        return false;
    }

    /** What the flows of one direction can share, Gbit/s: 0 when failed. */
    public double capacityGbps(int arc) {
        return failed[arc] ? 0 : Math.max(0, arcs.capacityGbps(arc) * factor[arc] - backgroundGbps[arc]);
    }

    /** {@link #capacityGbps(int)} of every arc. */
    public double[] capacitiesGbps() {
        double[] c = new double[failed.length];
        for (int a = 0; a < c.length; a++) {
            c[a] = capacityGbps(a);
        }
        return c;
    }
}
