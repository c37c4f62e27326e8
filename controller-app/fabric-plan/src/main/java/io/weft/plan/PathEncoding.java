package io.weft.plan;

import java.util.Arrays;
import java.util.List;

/**
 * How to steer one flow onto one path: the uSID carriers (always) and the entropy value (when EV
 * routing reaches the path). Both were proven by the forwarding walk before this object was made.
 */
public final class PathEncoding {
    private final List<String> carriers;
    private final int[] usids;
    private final Integer ev;

    public PathEncoding(List<String> carriers, int[] usids, Integer ev) {
        this(carriers, usids, ev, false);
    }

    /**
     * @param owned the list is unmodifiable and the array the caller's own, never written or shared
     *              again (the encoder's hot path): both are kept as they are instead of copied
     */
    PathEncoding(List<String> carriers, int[] usids, Integer ev, boolean owned) {
        if (carriers == null || carriers.isEmpty()) {
            throw new IllegalArgumentException("carriers: at least one carrier is needed");
        }
        this.carriers = owned ? carriers : List.copyOf(carriers);
        this.usids = owned ? usids : usids.clone();
        this.ev = ev;
    }

    /** carriers[0] is the destination address; the rest, in order, form the SRH. Never empty. */
    public List<String> carriers() {
        return carriers;
    }

    /** The uSID list (uN per switch hop, uA where parallel links need it, then the decap function). */
    public int[] usids() {
        return usids.clone();
    }

    /** How many uSIDs {@link #usids} holds (no copy). */
    public int usidCount() {
        return usids.length;
    }

    /** The i-th uSID (no copy). */
    public int usid(int i) {
        return usids[i];
    }

    /** The 16-bit EV (RoCEv2 UDP source port), or null when EV routing cannot reach the path. */
    public Integer ev() {
        return ev;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PathEncoding)) {
            return false;
        }
        PathEncoding p = (PathEncoding) o;
        return carriers.equals(p.carriers) && Arrays.equals(usids, p.usids) && java.util.Objects.equals(ev, p.ev);
    }

    @Override
    public int hashCode() {
        return carriers.hashCode();
    }

    @Override
    public String toString() {
        return "carriers=" + carriers + (ev == null ? "" : String.format(" ev=0x%04x", ev));
    }
}
