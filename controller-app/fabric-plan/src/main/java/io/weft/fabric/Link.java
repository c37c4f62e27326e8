package io.weft.fabric;

import java.util.Objects;

/**
 * A full-duplex link between two ports. Each direction has the full capacity; placement and
 * telemetry treat the two directions as separate resources (see {@link Arc}).
 */
public final class Link {
    private final String id;
    private final Endpoint a;
    private final Endpoint b;
    private final double capacityGbps;
    private final long latencyNs;

    public Link(String id, Endpoint a, Endpoint b, double capacityGbps, long latencyNs) {
        this.id = Objects.requireNonNull(id, "id");
        this.a = Objects.requireNonNull(a, "a");
        this.b = Objects.requireNonNull(b, "b");
        this.capacityGbps = capacityGbps;
        this.latencyNs = latencyNs;
    }

    public String id() {
        return id;
    }

    public Endpoint a() {
        return a;
    }

    public Endpoint b() {
        return b;
    }

    public double capacityGbps() {
        return capacityGbps;
    }

    public long latencyNs() {
        return latencyNs;
    }

    /** True when this link has {@code nodeId} on either end. */
    public boolean touches(String nodeId) {
        return a.node().equals(nodeId) || b.node().equals(nodeId);
    }

    /** The endpoint on {@code nodeId}'s side; throws when the link does not touch it. */
    public Endpoint endOf(String nodeId) {
        if (a.node().equals(nodeId)) {
            return a;
        }
        if (b.node().equals(nodeId)) {
            return b;
        }
        throw new IllegalArgumentException("link " + id + " does not touch " + nodeId);
    }

    /** The endpoint across from {@code nodeId}. */
    public Endpoint otherEnd(String nodeId) {
        if (a.node().equals(nodeId)) {
            return b;
        }
        if (b.node().equals(nodeId)) {
            return a;
        }
        throw new IllegalArgumentException("link " + id + " does not touch " + nodeId);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Link)) {
            return false;
        }
        Link l = (Link) o;
        return id.equals(l.id) && a.equals(l.a) && b.equals(l.b)
                && Double.compare(capacityGbps, l.capacityGbps) == 0 && latencyNs == l.latencyNs;
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return id + " (" + a + " <-> " + b + ")";
    }
}
