package io.weft.placement;

import java.util.Arrays;

import com.carrotsearch.hppc.ObjectIntHashMap;

/**
 * The one owner of the engine's state: every registered flow (a slot: the flow, its demand, ends,
 * path, encoding, tenant, why it waits) and every arc's reservations (load, elephant count, the
 * flows on it), with the aggregates the objective reads (max utilisation, collisions, hops).
 *
 * <p>{@link #reserve} and {@link #unreserve} are the only writers of the per-arc state, so the
 * aggregates follow every change: the max utilisation is kept exactly on reserve and recomputed
 * lazily only after a release took the last arc at the max off it. Loads are integer kbit/s so a
 * release restores the previous state exactly. Not thread-safe (the engine's callers serialise).
 */
final class ReservationLedger {
    static final double EPS = 1e-9;

    private DenseFabric ix;
    private final int tolerance;
    private final double elephantMinGbps;
    private final long[] loadKbps;
    private final int[] elephants;
    private final IntList[] arcFlows;
    private final double[] invCapKbps;
    private final boolean[] nicArc;
    /** Per arc: {@link #fixedArc}, kept for the snapshot (the aggregates scan every arc with it). */
    private final boolean[] fixed;

    private Flow[] flows = new Flow[64];
    private long[] demandKbps = new long[64];
    private int[] srcNode = new int[64];
    private int[] dstNode = new int[64];
    private int[][] paths = new int[64][];
    private FlowEncoding[] encodings = new FlowEncoding[64];
    private String[] tenants = new String[64];
    private String[] unplacedReason = new String[64];
    private boolean[] homePortsOnly = new boolean[64];
    private int slotCount;
    private final IntList freeSlots = new IntList();
    private final ObjectIntHashMap<String> slotById = new ObjectIntHashMap<>();

    private long totalHops;
    private int placedCount;
    /** Max arc utilisation, kept up to date on reserve; recomputed lazily after a release touched it. */
    private double curMax;
    /** Arcs whose utilisation equals curMax (within EPS): a release only dirties curMax when this hits 0. */
    private int atMax;
    private boolean maxDirty;
    /** Fabric arcs with more than t elephants. */
    private int collided;

    /**
     * The largest utilisation on arcs a move can unload (fabric arcs, ports of multi-port NICs) and on
     * the arcs of single-port NICs (the same load on any path).
     */
    record MaxSplit(double fabricMax, double nicMax) {
        /** True when some move could lower the max: a fabric arc, not a NIC link, sets it. */
        boolean fabricBound() {
            return fabricMax > nicMax + EPS;
        }
    }

    ReservationLedger(DenseFabric index, PlacementConfig cfg) {
        this.ix = index;
        this.tolerance = cfg.elephantTolerance();
        this.elephantMinGbps = cfg.elephantMinGbps();
        int n = index.arcCount;
        loadKbps = new long[n];
        elephants = new int[n];
        arcFlows = new IntList[n];
        invCapKbps = index.invCapKbps;
        nicArc = new boolean[n];
        fixed = new boolean[n];
        for (int a = 0; a < n; a++) {
            nicArc[a] = index.tier[index.arcFrom[a]] == 0 || index.tier[index.arcTo[a]] == 0;
        }
        markFixed();
    }

    /** A single-port NIC's arcs: how many ports a NIC has left depends on the snapshot's link states. */
    private void markFixed() {
        for (int a = 0; a < fixed.length; a++) {
            int nic = ix.tier[ix.arcFrom[a]] == 0 ? ix.arcFrom[a] : ix.arcTo[a];
            fixed[a] = nicArc[a] && ix.nicPorts[nic].length <= 1;
        }
    }

    /** A new snapshot of the same fabric (link states changed; arcs and capacities are the same). */
    void reindex(DenseFabric index) {
        if (index.arcCount != loadKbps.length) {
            throw new IllegalStateException("reindex: " + index.arcCount + " arcs, the ledger has " + loadKbps.length);
        }
        this.ix = index;
        markFixed();
    }

    // ---------------------------------------------------------------- slots

    /** Registers a flow (not yet placed); its id must not be registered. */
    int newSlot(Flow f, String tenant) {
        return newSlot(f, tenant, ix.node(f.srcNic()), ix.node(f.dstNic()));
    }

    /** The same with the NICs' node indices already known ({@code ix.node} of its two NIC ids). */
    int newSlot(Flow f, String tenant, int src, int dst) {
        int s;
        if (freeSlots.size() > 0) {
            s = freeSlots.removeLast();
        } else {
            if (slotCount == flows.length) {
                int n = slotCount * 2;
                flows = Arrays.copyOf(flows, n);
                demandKbps = Arrays.copyOf(demandKbps, n);
                srcNode = Arrays.copyOf(srcNode, n);
                dstNode = Arrays.copyOf(dstNode, n);
                paths = Arrays.copyOf(paths, n);
                encodings = Arrays.copyOf(encodings, n);
                tenants = Arrays.copyOf(tenants, n);
                unplacedReason = Arrays.copyOf(unplacedReason, n);
                homePortsOnly = Arrays.copyOf(homePortsOnly, n);
            }
            s = slotCount++;
        }
        flows[s] = f;
        demandKbps[s] = Math.max(1, Math.round(f.demandGbps() * 1e6));
        srcNode[s] = src;
        dstNode[s] = dst;
        paths[s] = null;
        encodings[s] = null;
        tenants[s] = tenant;
        unplacedReason[s] = "not placed yet";
        homePortsOnly[s] = false;
        slotById.put(f.id(), s);
        return s;
    }

    /** Unregisters a flow, releasing its path if it holds one; the slot is reused later. */
    void freeSlot(int s) {
        if (paths[s] != null) {
            unreserve(s);
        }
        slotById.remove(flows[s].id());
        flows[s] = null;
        encodings[s] = null;
        tenants[s] = null;
        unplacedReason[s] = null;
        freeSlots.add(s);
    }

    /** The slot of a registered flow, or -1. */
    int slotOf(String flowId) {
        return slotById.getOrDefault(flowId, -1);
    }

    /** Slots are 0 .. slotCount() - 1; a free one has no flow. */
    int slotCount() {
        return slotCount;
    }

    boolean registered(int s) {
        return flows[s] != null;
    }

    Flow flow(int s) {
        return flows[s];
    }

    long demandKbps(int s) {
        return demandKbps[s];
    }

    int src(int s) {
        return srcNode[s];
    }

    int dst(int s) {
        return dstNode[s];
    }

    /** The slot's path as arc indices (the ledger's own array: do not modify), or null. */
    int[] path(int s) {
        return paths[s];
    }

    FlowEncoding encoding(int s) {
        return encodings[s];
    }

    void setEncoding(int s, FlowEncoding e) {
        encodings[s] = e;
    }

    String tenant(int s) {
        return tenants[s];
    }

    String unplacedReason(int s) {
        return unplacedReason[s];
    }

    void setUnplacedReason(int s, String reason) {
        unplacedReason[s] = reason;
    }

    boolean elephant(int s) {
        return flows[s].demandGbps() >= elephantMinGbps;
    }

    /** Largest demand first; ties keep the given order (job order). */
    int[] byDemand(int[] slots) {
        if (slots.length >= 1 << 23) {
            return byDemandBoxed(slots);
        }
        // Sort (demand descending, position) packed in longs: no boxing. Demands above 2^40 kbit/s
        // (1 Pbit/s) would tie; no link carries that.
        long[] keys = new long[slots.length];
        for (int i = 0; i < slots.length; i++) {
            keys[i] = ((0xFF_FFFF_FFFFL - Math.min(demandKbps[slots[i]], 0xFF_FFFF_FFFFL)) << 23) | i;
        }
        Arrays.sort(keys);
        int[] out = new int[slots.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = slots[(int) (keys[i] & ((1 << 23) - 1))];
        }
        return out;
    }

    private int[] byDemandBoxed(int[] slots) {
        Integer[] boxed = new Integer[slots.length];
        for (int i = 0; i < slots.length; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (x, y) -> {
            int c = Long.compare(demandKbps[slots[y]], demandKbps[slots[x]]);
            return c != 0 ? c : Integer.compare(x, y);
        });
        int[] out = new int[slots.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = slots[boxed[i]];
        }
        return out;
    }

    // ---------------------------------------------------------------- reservations

    /**
     * Puts the slot on {@code path} (it must hold none) and adds its demand to every arc. The array is kept as
     * it is: the ledger and the results viewing it never change a path array in place.
     */
    void reserve(int s, int[] path) {
        if (paths[s] != null) {
            throw new IllegalStateException("reserve: flow " + flows[s].id() + " already holds a path");
        }
        paths[s] = path;
        unplacedReason[s] = null;
        boolean e = elephant(s);
        long d = demandKbps[s];
        for (int a : path) {
            long was = loadKbps[a];
            loadKbps[a] = was + d;
            if (e && ++elephants[a] == tolerance + 1 && !nicArc[a]) {
                collided++;
            }
            IntList on = arcFlows[a];
            if (on == null) {
                on = arcFlows[a] = new IntList(4);
            }
            on.add(s);
            if (!maxDirty) {
                double u = (was + d) * invCapKbps[a];
                if (u > curMax + EPS) {
                    curMax = u;
                    atMax = 1;
                } else if (u >= curMax - EPS && was * invCapKbps[a] < curMax - EPS) {
                    atMax++;
                }
            }
        }
        totalHops += path.length;
        placedCount++;
    }

    /** Takes the slot off its path; it then waits with reason "no path" until reserved again. */
    void unreserve(int s) {
        int[] path = paths[s];
        boolean e = elephant(s);
        long d = demandKbps[s];
        for (int a : path) {
            boolean wasAtMax = util(a) >= curMax - EPS;
            loadKbps[a] -= d;
            if (!maxDirty && wasAtMax && util(a) < curMax - EPS && --atMax <= 0) {
                maxDirty = true;
            }
            if (e && elephants[a]-- == tolerance + 1 && !nicArc[a]) {
                collided--;
            }
            arcFlows[a].removeValue(s);
        }
        totalHops -= path.length;
        placedCount--;
        paths[s] = null;
        unplacedReason[s] = "no path";
    }

    // ---------------------------------------------------------------- arcs and aggregates

    /** Per-arc reserved load in kbit/s: the live array, read by the path chooser. */
    long[] loadKbps() {
        return loadKbps;
    }

    /** Per-arc elephant counts: the live array, read by the path chooser. */
    int[] elephants() {
        return elephants;
    }

    /** The slots on arc {@code a} (live; do not modify), or null when none ever was. */
    IntList flowsOn(int a) {
        return arcFlows[a];
    }

    DenseFabric index() {
        return ix;
    }

    int arcCount() {
        return loadKbps.length;
    }

    /** The flow may use only its NICs' home ports ({@link Job#homePortsOnly}). */
    boolean homePortsOnly(int s) {
        return homePortsOnly[s];
    }

    void setHomePortsOnly(int s, boolean v) {
        homePortsOnly[s] = v;
    }

    boolean nicArc(int a) {
        return nicArc[a];
    }

    /**
     * True for an arc of a NIC with one working port: it carries that NIC's flows on every routing,
     * so no move lowers its load. A multi-port NIC's arcs are not fixed: flows can change port.
     */
    boolean fixedArc(int a) {
        return fixed[a];
    }

    double util(int a) {
        return loadKbps[a] * invCapKbps[a];
    }

    double maxLoad() {
        if (!maxDirty) {
            return curMax;
        }
        double m = 0;
        int n = 0;
        for (int a = 0; a < loadKbps.length; a++) {
            if (loadKbps[a] != 0) {
                double u = util(a);
                if (u > m + EPS) {
                    m = u;
                    n = 1;
                } else if (u >= m - EPS) {
                    n++;
                }
            }
        }
        curMax = m;
        atMax = n;
        maxDirty = false;
        return m;
    }

    MaxSplit maxSplit() {
        double fabricMax = 0;
        double nicMax = 0;
        for (int a = 0; a < loadKbps.length; a++) {
            if (loadKbps[a] != 0) {
                if (fixedArc(a)) {
                    nicMax = Math.max(nicMax, util(a));
                } else {
                    fabricMax = Math.max(fabricMax, util(a));
                }
            }
        }
        return new MaxSplit(fabricMax, nicMax);
    }

    /** Fabric arcs carrying more than t elephants (a NIC link carries all its own slices whatever the paths). */
    int collisions() {
        return collided;
    }

    int placedCount() {
        return placedCount;
    }

    Quality quality() {
        return new Quality(maxLoad(), collided, totalHops, placedCount);
    }
}
