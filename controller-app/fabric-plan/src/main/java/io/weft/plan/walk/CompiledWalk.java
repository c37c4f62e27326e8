package io.weft.plan.walk;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.plan.FabricPlan;
import io.weft.plan.ev.Ev;
import io.weft.plan.srv6.Usid;

/**
 * {@link ForwardingWalk} over the plan's tables compiled to integers: the same two walks, step for
 * step, for the encoder's hot path, where the string walk spent its time in string-keyed maps (every
 * proof looked up node ids, uA functions, next hops and EV tables by switch name).
 *
 * <p><b>Numbering.</b> Node {@code n} is the n-th node of {@code fabric().nodes()}; link {@code i} of
 * {@code fabric().links()} gives arc {@code 2i} (from its a end) and {@code 2i + 1} (from its b end).
 * This is the placement engine's {@code DenseFabric} numbering, so the engine's paths are walked as
 * they are held, with no arc objects.
 *
 * <p><b>Answers.</b> A walk writes the arcs it crosses into the caller's buffer and returns how
 * many, or a negative code saying why it stopped: {@link #DEAD_END}, {@link #LOOP},
 * {@link #AMBIGUOUS}, {@link #BAD_INPUT} (the {@link WalkException.Kind}s). Codes only, no messages:
 * a caller that needs the reason asks {@link ForwardingWalk}, the reference, which says it.
 *
 * <p><b>Tables.</b> Built once per plan (see {@link FabricPlan#compiledWalk()}), immutable except
 * for the per-pair next-hop memo, which is filled on first ask from {@link FabricPlan#nextHops} and
 * {@link FabricPlan#evTableCoversNextHops} (the one definition of the underlay) and published racily:
 * an entry has only final fields, so any thread sees it whole or not at all.
 */
public final class CompiledWalk {
    public static final int DEAD_END = -1;
    public static final int LOOP = -2;
    public static final int AMBIGUOUS = -3;
    public static final int BAD_INPUT = -4;
    /** A buffer this long holds any walk (the hop limit, then one more arc, then the delivery). */
    public static final int MAX_ARCS = ForwardingWalk.HOP_LIMIT + 2;

    private final FabricPlan plan;
    private final int[] blockGroups;
    private final Map<String, Integer> nodeIndex;
    private final Map<String, Integer> linkIndex;
    private final Arc[] arcs;
    private final int[] arcFrom;
    private final int[] arcTo;
    private final boolean[] nic;
    private final boolean[] hasNics;
    /** Per node: its uN id, -1 for NICs. */
    private final int[] usid;
    /** Per uN id: the switch owning it (the last one in file order, as the plan's map), -1 for none. */
    private final int[] switchByUsid;
    /** Per node: its rank among switches (rows of the next-hop memo), -1 for NICs. */
    private final int[] switchRank;
    /** Per arc: the uA function of its from switch for leaving over it, 0 for none. */
    private final int[] uaOfArc;
    /**
     * Per arc: true when it is the only switch-to-switch link from its from switch to its to switch.
     * Then it is the whole of {@link FabricPlan#nextHops} towards that neighbour (one hop away, every
     * shortest next hop ends there), which lets a walk that expects it skip the memo.
     */
    private final boolean[] soleLink;
    /** Per switch: the arc of each uA function, indexed from {@code uaBase}; null when it has none. */
    private final int[] uaBase;
    private final int[][] uaArcByFunction;
    /** Per decap function - DECAP_BASE: the first tenant (fabric order) decapsulating with it. */
    private final String[] tenantByDecap;
    /** Per NIC: its home arc (NIC to switch), -1 for switches. */
    private final int[] homeArc;
    /** Per NIC: arcs to switches in file order (where a multi-homed NIC may send). */
    private final int[][] nicUplinks;
    /** Per NIC: (switch, arc from that switch to the NIC) pairs, the plan's first link per other switch. */
    private final int[][] nicDownlinks;
    private final int[][] evTable1;
    private final int[][] evTable2;
    /** Per target switch rank, per from switch rank: the pair's next hops, as asked. */
    private final AtomicReferenceArray<Hops[]> hopsTo;
    /**
     * The same memo as one int per pair, what the walks read on every hop: 0 until asked, then
     * {@link #KNOWN} and the flags below, and the only next hop + 1 from bit {@link #ARC_SHIFT} (0 for
     * none or several). Rows and entries are written racily: a reader sees 0 and asks again, or the
     * whole int.
     */
    private final int[][] routeTo;
    private static final int KNOWN = 1;
    private static final int COVERS1 = 2;
    private static final int COVERS2 = 4;
    private static final int SAME_NEIGHBOUR = 8;
    private static final int NO_ROUTE = 16;
    private static final int ARC_SHIFT = 5;

    /** One pair's next hops and what EV routing makes of them. */
    private static final class Hops {
        final int[] arcs;
        /** The only next hop, or -1 when there are none or several. */
        final int unique;
        final boolean covers1;
        final boolean covers2;
        final boolean sameNeighbour;

        Hops(int[] arcs, int[] arcTo, boolean covers1, boolean covers2) {
            this.arcs = arcs;
            this.unique = arcs.length == 1 ? arcs[0] : -1;
            this.covers1 = covers1;
            this.covers2 = covers2;
            boolean same = arcs.length > 0;
            for (int a : arcs) {
                same &= arcTo[a] == arcTo[arcs[0]];
            }
            this.sameNeighbour = same;
        }
    }

    /** Compiles the plan's tables; use {@link FabricPlan#compiledWalk()}, which does it once. */
    public CompiledWalk(FabricPlan plan) {
        this.plan = plan;
        Fabric fabric = plan.fabric();
        this.blockGroups = plan.blockGroups();
        List<Node> nodes = fabric.nodes();
        int nodeCount = nodes.size();
        nodeIndex = new HashMap<>(nodeCount * 2);
        nic = new boolean[nodeCount];
        hasNics = new boolean[nodeCount];
        usid = new int[nodeCount];
        switchRank = new int[nodeCount];
        Arrays.fill(switchRank, -1);
        int switches = 0;
        for (int n = 0; n < nodeCount; n++) {
            Node node = nodes.get(n);
            nodeIndex.putIfAbsent(node.id(), n);
            nic[n] = !node.role().isSwitch();
            hasNics[n] = plan.hasNics(node.id());
            Integer id = plan.nodeIds().get(node.id());
            usid[n] = nic[n] || id == null ? -1 : id;
            if (!nic[n]) {
                switchRank[n] = switches++;
            }
        }
        switchByUsid = new int[0x10000];
        Arrays.fill(switchByUsid, -1);
        for (Map.Entry<String, Integer> e : plan.nodeIds().entrySet()) {
            Integer n = nodeIndex.get(e.getKey());
            int id = e.getValue();
            if (n != null && id >= 0 && id <= 0xFFFF) {
                switchByUsid[id] = n;
            }
        }
        List<Link> links = fabric.links();
        linkIndex = new HashMap<>(links.size() * 2);
        arcs = new Arc[2 * links.size()];
        arcFrom = new int[arcs.length];
        arcTo = new int[arcs.length];
        for (int i = 0; i < links.size(); i++) {
            Link l = links.get(i);
            linkIndex.putIfAbsent(l.id(), i);
            arcs[2 * i] = new Arc(l, l.a().node());
            arcs[2 * i + 1] = new Arc(l, l.b().node());
            arcFrom[2 * i] = nodeIndex.get(l.a().node());
            arcTo[2 * i] = nodeIndex.get(l.b().node());
            arcFrom[2 * i + 1] = arcTo[2 * i];
            arcTo[2 * i + 1] = arcFrom[2 * i];
        }
        soleLink = new boolean[arcs.length];
        for (String sw : plan.switches()) {
            Map<Integer, Integer> toNeighbour = new HashMap<>();
            int[] out = arcIndices(plan.switchArcs(sw));
            for (int a : out) {
                toNeighbour.merge(arcTo[a], 1, Integer::sum);
            }
            for (int a : out) {
                soleLink[a] = toNeighbour.get(arcTo[a]) == 1;
            }
        }
        uaOfArc = new int[arcs.length];
        uaBase = new int[nodeCount];
        uaArcByFunction = new int[nodeCount][];
        for (int n = 0; n < nodeCount; n++) {
            Map<String, Integer> fns = nic[n] ? Map.of() : plan.uaFunctions(nodes.get(n).id());
            if (fns.isEmpty()) {
                continue;
            }
            int lo = Integer.MAX_VALUE;
            int hi = Integer.MIN_VALUE;
            for (int f : fns.values()) {
                lo = Math.min(lo, f);
                hi = Math.max(hi, f);
            }
            int[] byFunction = new int[hi - lo + 1];
            Arrays.fill(byFunction, -1);
            for (Map.Entry<String, Integer> e : fns.entrySet()) {
                int a = arcOf(e.getKey(), n);
                if (a < 0) {
                    continue;
                }
                uaOfArc[a] = e.getValue();
                // The string walk takes the first link (map order) with the function: keep the first.
                if (byFunction[e.getValue() - lo] < 0) {
                    byFunction[e.getValue() - lo] = a;
                }
            }
            uaBase[n] = lo;
            uaArcByFunction[n] = byFunction;
        }
        tenantByDecap = new String[FabricPlan.MAX_TENANTS];
        for (String t : plan.tenants()) {
            int i = plan.tenantIndex(t);
            if (i >= 0 && i < tenantByDecap.length && tenantByDecap[i] == null) {
                tenantByDecap[i] = t;
            }
        }
        homeArc = new int[nodeCount];
        Arrays.fill(homeArc, -1);
        nicUplinks = new int[nodeCount][];
        nicDownlinks = new int[nodeCount][];
        for (String id : plan.nics()) {
            int n = nodeIndex.get(id);
            Arc home = plan.attachment(id);
            homeArc[n] = arcOf(home.link().id(), n);
            nicUplinks[n] = fabric.arcsFrom(id).stream().filter(a -> fabric.node(a.to()).role().isSwitch())
                    .mapToInt(a -> arcOf(a.link().id(), n)).toArray();
        }
        Map<Integer, int[]> down = new HashMap<>();
        for (String sw : plan.switches()) {
            int s = nodeIndex.get(sw);
            for (String id : plan.linkedNics(sw)) {
                int n = nodeIndex.get(id);
                int a = arcOf(plan.nicLink(sw, id).id(), s);
                int[] old = down.getOrDefault(n, new int[0]);
                int[] pairs = Arrays.copyOf(old, old.length + 2);
                pairs[old.length] = s;
                pairs[old.length + 1] = a;
                down.put(n, pairs);
            }
        }
        // Delivery checks the home switch first: keep the others only (none for a single-homed NIC).
        down.forEach((n, pairs) -> {
            int home = arcTo[homeArc[n]];
            int[] others = new int[pairs.length];
            int k = 0;
            for (int i = 0; i < pairs.length; i += 2) {
                if (pairs[i] != home) {
                    others[k++] = pairs[i];
                    others[k++] = pairs[i + 1];
                }
            }
            nicDownlinks[n] = k == 0 ? null : Arrays.copyOf(others, k);
        });
        evTable1 = new int[nodeCount][];
        evTable2 = new int[nodeCount][];
        for (String sw : plan.switches()) {
            int s = nodeIndex.get(sw);
            evTable1[s] = arcIndices(plan.evTable(sw, 1));
            evTable2[s] = arcIndices(plan.evTable(sw, 2));
        }
        hopsTo = new AtomicReferenceArray<>(switches);
        routeTo = new int[switches][];
        if (arcs.length >= 1 << (31 - ARC_SHIFT)) {
            throw new IllegalArgumentException("fabric " + fabric.id() + ": too many links for the compiled walk");
        }
    }

    public FabricPlan plan() {
        return plan;
    }

    /** Node index of a node id, or -1. */
    public int node(String nodeId) {
        Integer n = nodeIndex.get(nodeId);
        return n == null ? -1 : n;
    }

    /** Arc index of an arc of this plan's fabric, or -1 when its link is not one of them. */
    public int arc(Arc a) {
        Integer i = linkIndex.get(a.link().id());
        if (i == null) {
            return -1;
        }
        Integer from = nodeIndex.get(a.from());
        return from == null ? -1 : arcFrom[2 * i] == from ? 2 * i : arcFrom[2 * i + 1] == from ? 2 * i + 1 : -1;
    }

    /** The arc object of an index (the fabric's link, from the numbered end). */
    public Arc arc(int a) {
        return arcs[a];
    }

    public int arcCount() {
        return arcs.length;
    }

    public int from(int a) {
        return arcFrom[a];
    }

    public int to(int a) {
        return arcTo[a];
    }

    public boolean isNic(int n) {
        return nic[n];
    }

    /** The switch's uN id (-1 for a NIC). */
    public int usid(int n) {
        return usid[n];
    }

    /** The uA function for leaving the arc's from switch over it, or 0 when it needs none. */
    public int uaFunction(int a) {
        return uaOfArc[a];
    }

    /** True when a NIC is linked to this switch (it has decap functions). */
    public boolean hasNics(int n) {
        return hasNics[n];
    }

    /** A NIC's home arc (NIC to switch). */
    public int homeArc(int nicNode) {
        return homeArc[nicNode];
    }

    /** The plan's block groups (shared array: do not write). */
    public int[] blockGroups() {
        return blockGroups;
    }

    /**
     * {@link ForwardingWalk#walkCarriers(FabricPlan, String, String, List, String)} for the carriers
     * {@link Usid#carriers} makes of {@code usids} (their split into carriers does not change a walk:
     * NEXT-CSID refills from the SRH, so the walk reads one uSID list).
     *
     * @param dst the destination NIC, or -1 for the switch-level route (the four-argument form)
     * @param out receives the arcs; at least {@link #MAX_ARCS} long
     * @return the number of arcs, or a negative code
     */
    public int walkCarriers(int src, int dst, int[] usids, String tenant, int[] out) {
        return walkCarriers(src, dst, usids, tenant, out, null);
    }

    /**
     * As {@link #walkCarriers(int, int, int[], String, int[])}, told the path the caller expects
     * (null for none): where the packet is routed to a neighbour that the expected next arc is the
     * only link to, that arc is the route and the memo is not read. Same answer, fewer memory reads.
     */
    public int walkCarriers(int src, int dst, int[] usids, String tenant, int[] out, int[] expected) {
        if (!isNicNode(src) || dst != -1 && !isNicNode(dst) || tenant == null || !plan.hasTenant(tenant)
                || usids == null || usids.length == 0) {
            return BAD_INPUT;
        }
        for (int u : usids) {
            if (u < 1 || u > 0xFFFF) {
                return BAD_INPUT;
            }
        }
        int n = 0;
        int first = firstArc(src, usids[0]);
        out[n++] = first;
        int at = arcTo[first];
        int pos = 0;
        boolean consumedOwn = false;
        while (true) {
            if (n > ForwardingWalk.HOP_LIMIT) {
                return LOOP;
            }
            if (pos >= usids.length) {
                return DEAD_END;
            }
            int u = usids[pos];
            if (u == usid[at]) {
                pos++;
                consumedOwn = true;
                continue;
            }
            if (u >= Usid.LIB_START) {
                if (!consumedOwn) {
                    return DEAD_END;
                }
                pos++;
                int ua = uaArc(at, u);
                if (ua >= 0) {
                    out[n++] = ua;
                    at = arcTo[ua];
                    consumedOwn = false;
                    continue;
                }
                String t = decapTenant(at, u);
                if (t == null || !t.equals(tenant) || pos < usids.length) {
                    return DEAD_END;
                }
                if (dst != -1) {
                    int last = deliveryArc(at, dst);
                    if (last < 0) {
                        return DEAD_END;
                    }
                    out[n++] = last;
                }
                return n;
            }
            consumedOwn = false;
            int target = switchByUsid[u];
            if (target < 0) {
                return DEAD_END;
            }
            int next = -1;
            if (expected != null && n < expected.length) {
                int e = expected[n];
                next = arcFrom[e] == at && arcTo[e] == target && soleLink[e] ? e : -1;
            }
            if (next < 0) {
                int route = route(at, target);
                next = (route >>> ARC_SHIFT) - 1;
                if (next < 0) {
                    return (route & NO_ROUTE) != 0 ? DEAD_END : AMBIGUOUS;
                }
            }
            out[n++] = next;
            at = arcTo[next];
        }
    }

    /**
     * {@link ForwardingWalk#walkEv}: the route of an EV-routed packet.
     *
     * @param out receives the arcs; at least {@link #MAX_ARCS} long
     * @return the number of arcs, or a negative code
     */
    public int walkEv(int src, int dst, int ev, String tenant, int[] out) {
        return walkEv(src, dst, ev, tenant, out, null);
    }

    /**
     * As {@link #walkEv(int, int, int, String, int[])}, told the path the caller expects (null for
     * none): after the EV stages, where the expected next arc is the only link to the destination's
     * switch, it is the one minimal next hop and the memo is not read. Same answer, fewer reads.
     */
    public int walkEv(int src, int dst, int ev, String tenant, int[] out, int[] expected) {
        if (!isNicNode(src)) {
            return BAD_INPUT;
        }
        return walkEvFrom(homeArc[src], dst, ev, tenant, out, expected);
    }

    /**
     * {@link ForwardingWalk#walkEv(io.weft.plan.FabricPlan, String, String, int, String, String)}: as
     * {@link #walkEv(int, int, int, String, int[], int[])}, leaving the source NIC by its arc
     * {@code first} (another plane's port), towards the destination's {@link #deliverySwitch}.
     */
    public int walkEvFrom(int first, int dst, int ev, String tenant, int[] out, int[] expected) {
        if (first < 0 || first >= arcTo.length || !isNicNode(dst)) {
            return BAD_INPUT;
        }
        return walkEvFrom(first, dst, deliverySwitch(dst, arcTo[first]), ev, tenant, out, expected);
    }

    /**
     * As {@link #walkEvFrom(int, int, int, String, int[], int[])}, told the destination's
     * {@link #deliverySwitch} from {@code first}'s switch (the encoder has it already).
     */
    public int walkEvFrom(int first, int dst, int dstSwitch, int ev, String tenant, int[] out, int[] expected) {
        if (first < 0 || first >= arcTo.length || !isNicNode(arcFrom[first]) || !isUplink(arcFrom[first], first)
                || !isNicNode(dst) || tenant == null || !plan.hasTenant(tenant) || ev <= 0 || ev > 0xFFFF
                || arcFrom[first] == dst) {
            return BAD_INPUT;
        }
        int n = 0;
        out[n++] = first;
        int at = arcTo[first];
        if (dstSwitch < 0) {
            return DEAD_END;
        }
        for (int stage = 1; ; stage++) {
            if (n > ForwardingWalk.HOP_LIMIT) {
                return LOOP;
            }
            int last = deliveryArc(at, dst);
            if (last >= 0) {
                out[n++] = last;
                return n;
            }
            int next = -1;
            if (stage > 2 && expected != null && n < expected.length) {
                int e = expected[n];
                next = arcFrom[e] == at && arcTo[e] == dstSwitch && soleLink[e] ? e : -1;
            }
            next = next >= 0 ? next : evNext(at, stage, dstSwitch, ev);
            if (next < 0) {
                return next;
            }
            out[n++] = next;
            at = arcTo[next];
        }
    }

    /**
     * {@link io.weft.plan.ev.EvRouting#options} at stage 1 or 2: what the stage's EV byte indexes at
     * switch {@code at} for a packet to {@code dstSwitch}; null when EV routing has no answer there.
     * The array is shared: do not write.
     */
    public int[] evOptions(int at, int stage, int dstSwitch) {
        if (stage != 1 && stage != 2) {
            throw new IllegalArgumentException("stage: " + stage + " (EV bytes choose at stage 1 and 2)");
        }
        int route = route(at, dstSwitch);
        if ((route & NO_ROUTE) != 0) {
            return null;
        }
        if ((route & (stage == 1 ? COVERS1 : COVERS2)) != 0) {
            // Covered next hops are members, so the table is not empty.
            return stage == 1 ? evTable1[at] : evTable2[at];
        }
        return (route & SAME_NEIGHBOUR) != 0 ? hops(at, dstSwitch).arcs : null;
    }

    /** The arc an EV-routed packet takes at {@code at} (see {@link io.weft.plan.ev.EvRouting}), or a code. */
    private int evNext(int at, int stage, int dstSwitch, int ev) {
        int route = route(at, dstSwitch);
        if ((route & NO_ROUTE) != 0) {
            return DEAD_END;
        }
        if (stage == 1 || stage == 2) {
            int evByte = stage == 1 ? Ev.ev1(ev) : Ev.ev2(ev);
            int[] options = (route & (stage == 1 ? COVERS1 : COVERS2)) != 0 ? stage == 1 ? evTable1[at] : evTable2[at]
                    : (route & SAME_NEIGHBOUR) != 0 ? hops(at, dstSwitch).arcs : null;
            return options == null ? AMBIGUOUS : options[Ev.index(evByte, options.length)];
        }
        int next = (route >>> ARC_SHIFT) - 1;
        return next < 0 ? AMBIGUOUS : next;
    }

    /** The {@link WalkException.Kind} of a negative code. */
    public static WalkException.Kind kind(int code) {
        switch (code) {
            case DEAD_END:
                return WalkException.Kind.DEAD_END;
            case LOOP:
                return WalkException.Kind.LOOP;
            case AMBIGUOUS:
                return WalkException.Kind.AMBIGUOUS;
            case BAD_INPUT:
                return WalkException.Kind.BAD_INPUT;
            default:
                throw new IllegalArgumentException("not a walk refusal code: " + code);
        }
    }

    /** The rank of {@code arc} among the NIC's ports in fabric order (0 = home), or -1 when not one. */
    public int portRank(int nicNode, int arc) {
        int[] ups = nicUplinks[nicNode];
        for (int i = 0; i < ups.length; i++) {
            if (ups[i] == arc) {
                return i;
            }
        }
        return -1;
    }

    /** True when {@code arc} leaves NIC {@code nicNode} towards a switch (one of its ports). */
    public boolean isUplink(int nicNode, int arc) {
        return portRank(nicNode, arc) >= 0;
    }

    /**
     * {@link io.weft.plan.FabricPlan#deliverySwitch}: the switch that hands {@code dst} a packet
     * routed by its address from switch {@code at}; -1 when none is reachable. The NIC's other
     * switches are kept in switch order, as the plan's rule reads them.
     */
    public int deliverySwitch(int dst, int at) {
        int home = arcTo[homeArc[dst]];
        if (home == at || (route(at, home) & NO_ROUTE) == 0) {
            return home;
        }
        int[] pairs = nicDownlinks[dst];
        if (pairs != null) {
            for (int k = 0; k < pairs.length; k += 2) {
                if (pairs[k] == at || (route(at, pairs[k]) & NO_ROUTE) == 0) {
                    return pairs[k];
                }
            }
        }
        return -1;
    }

    private boolean isNicNode(int n) {
        return n >= 0 && n < nic.length && nic[n] && homeArc[n] >= 0;
    }

    /** A multi-homed NIC sends on the link to the switch whose uN comes first, else on its home link. */
    private int firstArc(int src, int firstUsid) {
        int home = homeArc[src];
        if (usid[arcTo[home]] != firstUsid) {
            for (int a : nicUplinks[src]) {
                if (usid[arcTo[a]] == firstUsid) {
                    return a;
                }
            }
        }
        return home;
    }

    private int uaArc(int at, int function) {
        int[] byFunction = uaArcByFunction[at];
        if (byFunction == null) {
            return -1;
        }
        int i = function - uaBase[at];
        return i >= 0 && i < byFunction.length ? byFunction[i] : -1;
    }

    private String decapTenant(int at, int function) {
        int i = function - FabricPlan.DECAP_BASE;
        return hasNics[at] && i >= 0 && i < tenantByDecap.length ? tenantByDecap[i] : null;
    }

    /** The switch's link to the NIC: its home link when that ends here, else the plan's first link. */
    private int deliveryArc(int at, int dst) {
        int home = homeArc[dst];
        if (arcTo[home] == at) {
            return home ^ 1;
        }
        int[] pairs = nicDownlinks[dst];
        if (pairs != null) {
            for (int k = 0; k < pairs.length; k += 2) {
                if (pairs[k] == at) {
                    return pairs[k + 1];
                }
            }
        }
        return -1;
    }

    private int route(int from, int to) {
        int t = switchRank[to];
        int[] row = routeTo[t];
        if (row == null) {
            row = new int[routeTo.length];
            routeTo[t] = row;
        }
        int f = switchRank[from];
        int route = row[f];
        if (route == 0) {
            Hops h = hops(from, to);
            route = KNOWN | (h.covers1 ? COVERS1 : 0) | (h.covers2 ? COVERS2 : 0)
                    | (h.sameNeighbour ? SAME_NEIGHBOUR : 0) | (h.arcs.length == 0 ? NO_ROUTE : 0)
                    | (h.unique + 1) << ARC_SHIFT;
            row[f] = route;
        }
        return route;
    }

    private Hops hops(int from, int to) {
        int t = switchRank[to];
        Hops[] row = hopsTo.get(t);
        if (row == null) {
            hopsTo.compareAndSet(t, null, new Hops[hopsTo.length()]);
            row = hopsTo.get(t);
        }
        int f = switchRank[from];
        Hops h = row[f];
        if (h == null) {
            String fromId = plan.fabric().nodes().get(from).id();
            String toId = plan.fabric().nodes().get(to).id();
            h = new Hops(arcIndices(plan.nextHops(fromId, toId)), arcTo,
                    plan.evTableCoversNextHops(fromId, 1, toId), plan.evTableCoversNextHops(fromId, 2, toId));
            row[f] = h;
        }
        return h;
    }

    private int[] arcIndices(List<Arc> list) {
        int[] out = new int[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = arc(list.get(i));
            if (out[i] < 0) {
                throw new IllegalStateException("plan arc " + list.get(i) + " is not an arc of fabric "
                        + plan.fabric().id());
            }
        }
        return out;
    }

    private int arcOf(String linkId, int from) {
        Integer i = linkIndex.get(linkId);
        if (i == null) {
            return -1;
        }
        return arcFrom[2 * i] == from ? 2 * i : arcFrom[2 * i + 1] == from ? 2 * i + 1 : -1;
    }
}
