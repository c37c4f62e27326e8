package io.weft.placement;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import io.weft.fabric.Arc;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.fabric.Role;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoder;
import io.weft.plan.PathEncoding;
import io.weft.plan.PlanException;

/**
 * The real encoder: {@link PathEncoder} over the fabric plan, which builds the uSID carriers and the
 * EV and proves both with the forwarding walk (a path the walk does not reproduce is refused).
 *
 * <p><b>Switch-path cache.</b> Encoding and proving cost ~0.3-0.5 µs a path over arc numbers (the
 * engine's entry; ~8 µs by the reference walk over ids), while the flows of a job
 * share few switch-level paths (every NIC of a leaf reaches the other leaves over the same spines).
 * So a proven encoding is kept per (switch-level path, tenant) for the life of this plan and handed
 * to every later flow with that switch path whose two NICs are <em>single-homed</em> (one link each).
 * Why the one proof covers those flows:
 * <ul>
 *   <li>The uSID list is the uN of every switch hop, the uA of parallel links, then the egress
 *       switch's decap function for the tenant: switch hops and tenant only, never the NICs.</li>
 *   <li>The carrier walk leaves a single-homed NIC on its only link (whatever the first uSID), is
 *       then driven by the carriers and the switch tables alone, and delivers at the decapsulating
 *       switch over its link to the destination NIC, which for a single-homed NIC exists only at its
 *       home switch: the path's last switch. So the walk is the NIC's link + the cached switch walk
 *       + the destination's link, which is exactly this flow's path.</li>
 *   <li>The EV walk starts on the source's home link (its only one), and every choice it makes
 *       depends on the switch, the stage and the destination's home switch (the path's last switch,
 *       in the key); it delivers at the first switch linked to the destination NIC, which again can
 *       only be the last switch. So EV, and whether there is one, are the same for every such flow.</li>
 * </ul>
 * A flow that does not meet those conditions (multi-homed NIC, first arc not the NIC's link, src =
 * dst, unknown tenant) is encoded and proven on its own, uncached. Entries are only written from a
 * successful {@link PathEncoder#encode}, their keys are private copies of the arcs, and
 * {@link FlowEncoding} is immutable, so an entry cannot be changed after its proof. The plan is
 * immutable too; link states do not enter the encodings (they steer the choice of path only).
 */
public final class PlanFlowEncoder implements FlowEncoder {
    /** A bound on memory: past this many distinct switch paths the cache starts over. */
    static final int MAX_ENTRIES = 1 << 18;
    /** A lookup key per thread, refilled for each path: a cache hit allocates no key (the map is shared). */
    private static final ThreadLocal<IntSwitchPath> PROBE = ThreadLocal.withInitial(IntSwitchPath::probe);

    private final FabricPlan plan;
    private final Set<String> singleHomed = new HashSet<>();
    private final Map<SwitchPath, FlowEncoding> cache = new ConcurrentHashMap<>();
    /**
     * The same cache keyed by arc indices, for the engine (no arc list, no string hashing on a hit).
     * Arc a of a {@link DenseFabric} is link a/2 of the fabric in file order, from its a end (even)
     * or b end (odd), and node numbers follow the fabric's node order; both are fixed by the
     * fabric, so this is used only when the index is of this plan's very fabric.
     */
    private final Map<IntSwitchPath, FlowEncoding> arcCache = new ConcurrentHashMap<>();
    /** Arc index to: 1 = the only link of a single-homed NIC, leaving it; 2 = the same, entering it. */
    private final byte[] nicEnd;
    private final LongAdder hits = new LongAdder();
    private final LongAdder proofs = new LongAdder();

    public PlanFlowEncoder(FabricPlan plan) {
        this.plan = plan;
        for (String nic : plan.nics()) {
            List<Link> links = plan.fabric().linksOf(nic);
            Node n = plan.fabric().node(nic);
            if (n != null && n.role() == Role.NIC && links.size() == 1
                    && links.get(0).id().equals(plan.attachment(nic).link().id())) {
                singleHomed.add(nic);
            }
        }
        List<Link> links = plan.fabric().links();
        nicEnd = new byte[2 * links.size()];
        for (int i = 0; i < links.size(); i++) {
            Link l = links.get(i);
            for (int end = 0; end < 2; end++) {
                String from = end == 0 ? l.a().node() : l.b().node();
                String to = end == 0 ? l.b().node() : l.a().node();
                if (singleHomed.contains(from) && new Arc(l, from).equals(plan.attachment(from))) {
                    nicEnd[2 * i + end] = 1;
                } else if (singleHomed.contains(to) && l.id().equals(plan.attachment(to).link().id())) {
                    nicEnd[2 * i + end] = 2;
                }
            }
        }
    }

    public FabricPlan plan() {
        return plan;
    }

    @Override
    public FlowEncoding encode(List<Arc> path, String tenant) throws EncodingFailure {
        SwitchPath key = cacheable(path, tenant) ? SwitchPath.of(path, tenant) : null;
        if (key != null) {
            FlowEncoding e = cache.get(key);
            if (e != null) {
                hits.increment();
                return e;
            }
        }
        FlowEncoding e = prove(path, tenant);
        if (key != null) {
            if (cache.size() >= MAX_ENTRIES) {
                cache.clear();
            }
            cache.put(key, e);
        }
        return e;
    }

    /**
     * The engine's entry. For an index over this plan's very fabric the path is proven as the engine
     * holds it, by {@link PathEncoder#encode(FabricPlan, int[], String)} (the compiled walk over arc
     * numbers, which are the index's), and a path from a single-homed NIC to another is cached by arc
     * indices; anything else goes through {@link #encode(List, String)}.
     */
    @Override
    public FlowEncoding encode(DenseFabric ix, int[] arcs, String tenant) throws EncodingFailure {
        int n = arcs.length;
        if (ix.fabric() != plan.fabric() || nicEnd.length != ix.arcCount()) {
            return FlowEncoder.super.encode(ix, arcs, tenant);
        }
        if (n < 2 || tenant == null || nicEnd[arcs[0]] != 1 || nicEnd[arcs[n - 1]] != 2
                || arcs[0] >> 1 == arcs[n - 1] >> 1) {
            return prove(arcs, tenant);
        }
        IntSwitchPath probe = PROBE.get().fill(ix, arcs, tenant);
        FlowEncoding e = arcCache.get(probe);
        if (e != null) {
            hits.increment();
            return e;
        }
        e = prove(arcs, tenant);
        if (arcCache.size() >= MAX_ENTRIES) {
            arcCache.clear();
        }
        arcCache.put(probe.copy(), e);
        return e;
    }

    /** Forgets every proven switch path (benchmarks measure the cold cost with it). */
    public void clearCache() {
        cache.clear();
        arcCache.clear();
    }

    /** Paths encoded by a full walk proof so far, and paths served from the cache (for benchmarks). */
    public long proofs() {
        return proofs.sum();
    }

    public long cacheHits() {
        return hits.sum();
    }

    private FlowEncoding prove(List<Arc> path, String tenant) throws EncodingFailure {
        proofs.increment();
        try {
            return flowEncoding(PathEncoder.encode(plan, path, tenant));
        } catch (PlanException ex) {
            throw new EncodingFailure(ex.getMessage());
        }
    }

    private FlowEncoding prove(int[] arcs, String tenant) throws EncodingFailure {
        proofs.increment();
        try {
            return flowEncoding(PathEncoder.encode(plan, arcs, tenant));
        } catch (PlanException ex) {
            throw new EncodingFailure(ex.getMessage());
        }
    }

    private static FlowEncoding flowEncoding(PathEncoding e) {
        Integer[] usids = new Integer[e.usidCount()];
        for (int i = 0; i < usids.length; i++) {
            usids[i] = boxedUsid(e.usid(i));
        }
        // Unmodifiable lists, so FlowEncoding keeps them as they are.
        return new FlowEncoding(e.carriers(), List.of(usids), e.ev());
    }

    /**
     * One boxed Integer per 16-bit uSID value, shared by every encoding (Integer.valueOf caches only up to
     * 127, so a cold placement boxed every uSID of every flow again). Filled lazily; a race only boxes twice.
     */
    private static final Integer[] BOXED_USIDS = new Integer[1 << 16];

    private static Integer boxedUsid(int v) {
        if (v < 0 || v >= BOXED_USIDS.length) {
            return v;
        }
        Integer b = BOXED_USIDS[v];
        if (b == null) {
            b = v;
            BOXED_USIDS[v] = b;
        }
        return b;
    }

    /** The conditions under which the switch path alone fixes the encoding (see the class comment). */
    private boolean cacheable(List<Arc> path, String tenant) {
        if (path == null || path.size() < 2 || tenant == null) {
            return false;
        }
        Arc first = path.get(0);
        Arc last = path.get(path.size() - 1);
        String src = first.from();
        String dst = last.to();
        return !src.equals(dst) && singleHomed.contains(src) && singleHomed.contains(dst)
                && first.equals(plan.attachment(src))
                && last.link().id().equals(plan.attachment(dst).link().id());
    }

    /**
     * The switch-level part of a path: the first switch, every switch-to-switch arc, the last switch,
     * and the tenant. Both end switches are in the key so that a path whose NIC arcs do not join its
     * switch arcs can never share an entry with one that does.
     */
    static final class SwitchPath {
        private final String tenant;
        private final String firstSwitch;
        private final String lastSwitch;
        private final Arc[] arcs;
        private final int hash;

        private SwitchPath(String tenant, String firstSwitch, String lastSwitch, Arc[] arcs) {
            this.tenant = tenant;
            this.firstSwitch = firstSwitch;
            this.lastSwitch = lastSwitch;
            this.arcs = arcs;
            this.hash = ((tenant.hashCode() * 31 + firstSwitch.hashCode()) * 31 + lastSwitch.hashCode()) * 31
                    + Arrays.hashCode(arcs);
        }

        static SwitchPath of(List<Arc> path, String tenant) {
            Arc[] inner = new Arc[path.size() - 2];
            for (int i = 0; i < inner.length; i++) {
                inner[i] = path.get(i + 1);
            }
            return new SwitchPath(tenant, path.get(0).to(), path.get(path.size() - 1).from(), inner);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof SwitchPath)) {
                return false;
            }
            SwitchPath k = (SwitchPath) o;
            return hash == k.hash && tenant.equals(k.tenant) && firstSwitch.equals(k.firstSwitch)
                    && lastSwitch.equals(k.lastSwitch) && Arrays.equals(arcs, k.arcs);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * {@link SwitchPath} in arc indices: first switch, switch-to-switch arcs, last switch, tenant. Keys in the
     * cache are {@link #copy copies} and never change; a {@link #probe} is refilled for lookups only.
     */
    static final class IntSwitchPath {
        private String tenant;
        private int[] key;
        private int hash;
        /** A probe's key arrays by path length (a key must have the path's exact length to be equal). */
        private int[][] byLength;

        private IntSwitchPath(String tenant, int[] key) {
            this(tenant, key, tenant.hashCode() * 31 + Arrays.hashCode(key));
        }

        private IntSwitchPath(String tenant, int[] key, int hash) {
            this.tenant = tenant;
            this.key = key;
            this.hash = hash;
        }

        /** A key of its own equal to this one (a probe's arrays are reused: never put a probe in the map). */
        IntSwitchPath copy() {
            return new IntSwitchPath(tenant, key.clone(), hash);
        }

        static IntSwitchPath probe() {
            IntSwitchPath p = new IntSwitchPath("", new int[0]);
            p.byLength = new int[16][];
            return p;
        }

        /** This probe, now equal to {@code of(ix, arcs, tenant)}. */
        IntSwitchPath fill(DenseFabric ix, int[] arcs, String tenant) {
            int n = arcs.length;
            if (n >= byLength.length) {
                byLength = Arrays.copyOf(byLength, 2 * n);
            }
            if (byLength[n] == null) {
                byLength[n] = new int[n];
            }
            this.tenant = tenant;
            this.key = switchKey(ix, arcs, byLength[n]);
            this.hash = tenant.hashCode() * 31 + Arrays.hashCode(key);
            return this;
        }

        private static int[] switchKey(DenseFabric ix, int[] arcs, int[] k) {
            int n = arcs.length;
            k[0] = ix.to(arcs[0]);
            System.arraycopy(arcs, 1, k, 1, n - 2);
            k[n - 1] = ix.from(arcs[n - 1]);
            return k;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof IntSwitchPath)) {
                return false;
            }
            IntSwitchPath p = (IntSwitchPath) o;
            return hash == p.hash && Arrays.equals(key, p.key) && tenant.equals(p.tenant);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
