package io.weft.plan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.fabric.Role;
import io.weft.plan.srv6.Usid;
import io.weft.plan.walk.CompiledWalk;

/**
 * What the switches of one fabric are told: SRv6 node ids, locators and functions, tenant VRFs,
 * EV tables, addresses and the underlay. Immutable and thread-safe; built by {@link Planner} or
 * rebuilt from a snapshot by {@link SnapshotJson#planFromTree}. Both paths go through the same
 * constructor, so a consumer that rebuilds the plan from the Kafka snapshot gets the same SIDs
 * and tables as the controller.
 *
 * <p>Underlay distances (hop counts between switches over switch-to-switch links) are computed
 * lazily, one BFS per target switch, and cached.
 */
public final class FabricPlan {
    /** Table id of the first tenant VRF; tenant i uses 100 + i. */
    public static final int VRF_TABLE_BASE = 100;
    /** First uDT46 decap function: tenant i decapsulates with 0xE000 + i. */
    public static final int DECAP_BASE = 0xE000;
    /** First uA function: 0xE100 + k, k allocated per node. */
    public static final int UA_BASE = 0xE100;
    public static final int MAX_TENANTS = UA_BASE - DECAP_BASE;
    /** Longest device VRF name: Linux interface names hold 15 characters. */
    public static final int MAX_VRF_NAME = 15;

    private final Fabric fabric;
    private final String block;
    private final int[] blockGroups;
    private final Map<String, Integer> nodeIds;
    private final Map<Integer, String> switchByNodeId = new LinkedHashMap<>();
    private final Map<String, Integer> tenantIndex;
    private final Map<String, Map<String, Integer>> uaFunctions;
    private final Map<String, String> nicPrefixes;
    private final Map<String, String> nicAddresses;
    private final Map<String, String> loopbacks;
    private final Map<String, List<Arc>> evStage1;
    private final Map<String, List<Arc>> evStage2;
    private final Map<String, Arc> attachments;
    private final Map<String, java.util.Set<Arc>> evMembers1 = new LinkedHashMap<>();
    private final Map<String, java.util.Set<Arc>> evMembers2 = new LinkedHashMap<>();
    private final Map<String, List<String>> nicsBySwitch = new LinkedHashMap<>();
    private final Map<String, List<String>> linkedNics = new LinkedHashMap<>();
    private final Map<String, Map<String, Link>> nicLinks = new LinkedHashMap<>();

    private final List<String> switchIds = new ArrayList<>();
    private final Map<String, Integer> switchIndex = new LinkedHashMap<>();
    /** {@link #evReachesEveryPort}, computed on first use. */
    private volatile Boolean evEveryPort;
    private final List<List<Arc>> switchArcs = new ArrayList<>();
    /** Per switch index, the switch index each of its switchArcs leads to (hot path of nextHops). */
    private final int[][] arcTargets;
    private final AtomicReferenceArray<int[]> distanceTo;
    /**
     * nextHops answers (and EV table coverage), per target switch index then from switch index,
     * filled as asked: the walk proof of every encoded path asks the same few pairs again and again.
     * An entry is immutable (final fields), so a racy write of one is safe to read from any thread.
     */
    private final AtomicReferenceArray<Hops[]> hopsTo;
    /** The walk's tables in integers, compiled on first use (two racing threads may both build one). */
    private volatile CompiledWalk compiledWalk;

    /** One pair's next hops, and whether the from switch's stage-1 / stage-2 EV table covers them. */
    private static final class Hops {
        final List<Arc> arcs;
        final boolean covers1;
        final boolean covers2;

        Hops(List<Arc> arcs, boolean covers1, boolean covers2) {
            this.arcs = arcs;
            this.covers1 = covers1;
            this.covers2 = covers2;
        }
    }

    /** Everything is copied; callers (Planner, SnapshotJson) have validated the content. */
    FabricPlan(Fabric fabric, String block, Map<String, Integer> nodeIds, Map<String, Integer> tenantIndex,
               Map<String, Map<String, Integer>> uaFunctions, Map<String, String> nicPrefixes,
               Map<String, String> nicAddresses, Map<String, String> loopbacks,
               Map<String, List<Arc>> evStage1, Map<String, List<Arc>> evStage2, Map<String, Arc> attachments)
            throws PlanException {
        this.fabric = fabric;
        this.block = Usid.canonicalBlock(block);
        this.blockGroups = Usid.block(block);
        this.nodeIds = frozen(nodeIds);
        this.tenantIndex = frozen(tenantIndex);
        Map<String, Map<String, Integer>> ua = new LinkedHashMap<>();
        uaFunctions.forEach((k, v) -> ua.put(k, frozen(v)));
        this.uaFunctions = Collections.unmodifiableMap(ua);
        this.nicPrefixes = frozen(nicPrefixes);
        this.nicAddresses = frozen(nicAddresses);
        this.loopbacks = frozen(loopbacks);
        Map<String, List<Arc>> e1 = new LinkedHashMap<>();
        evStage1.forEach((k, v) -> e1.put(k, List.copyOf(v)));
        this.evStage1 = Collections.unmodifiableMap(e1);
        Map<String, List<Arc>> e2 = new LinkedHashMap<>();
        evStage2.forEach((k, v) -> e2.put(k, List.copyOf(v)));
        this.evStage2 = Collections.unmodifiableMap(e2);
        this.attachments = frozen(attachments);
        this.evStage1.forEach((k, v) -> evMembers1.put(k, new java.util.HashSet<>(v)));
        this.evStage2.forEach((k, v) -> evMembers2.put(k, new java.util.HashSet<>(v)));
        for (Map.Entry<String, Integer> e : this.nodeIds.entrySet()) {
            switchByNodeId.put(e.getValue(), e.getKey());
        }
        for (Map.Entry<String, Arc> e : this.attachments.entrySet()) {
            nicsBySwitch.computeIfAbsent(e.getValue().to(), k -> new ArrayList<>()).add(e.getKey());
        }
        for (Link l : fabric.links()) {
            Node a = fabric.node(l.a().node());
            Node b = fabric.node(l.b().node());
            if (a != null && b != null && a.role().isSwitch() != b.role().isSwitch()) {
                Node sw = a.role().isSwitch() ? a : b;
                Node nic = a.role().isSwitch() ? b : a;
                Map<String, Link> byNic = nicLinks.computeIfAbsent(sw.id(), k -> new LinkedHashMap<>());
                if (byNic.putIfAbsent(nic.id(), l) == null) {
                    linkedNics.computeIfAbsent(sw.id(), k -> new ArrayList<>()).add(nic.id());
                }
            }
        }
        for (Node n : fabric.nodes()) {
            if (n.role().isSwitch()) {
                switchIndex.put(n.id(), switchIds.size());
                switchIds.add(n.id());
            }
        }
        for (String s : switchIds) {
            List<Arc> arcs = new ArrayList<>();
            for (Arc a : fabric.arcsFrom(s)) {
                Node to = fabric.node(a.to());
                if (to != null && to.role().isSwitch() && !a.to().equals(s)) {
                    arcs.add(a);
                }
            }
            arcs.sort(Planner.ARC_ORDER);
            switchArcs.add(Collections.unmodifiableList(arcs));
        }
        this.arcTargets = new int[switchIds.size()][];
        for (int i = 0; i < switchIds.size(); i++) {
            List<Arc> arcs = switchArcs.get(i);
            arcTargets[i] = new int[arcs.size()];
            for (int k = 0; k < arcs.size(); k++) {
                arcTargets[i][k] = switchIndex.get(arcs.get(k).to());
            }
        }
        this.distanceTo = new AtomicReferenceArray<>(switchIds.size());
        this.hopsTo = new AtomicReferenceArray<>(switchIds.size());
    }

    private static <K, V> Map<K, V> frozen(Map<K, V> m) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }

    public Fabric fabric() {
        return fabric;
    }

    /** The uSID block in canonical form, e.g. "fcbb:bb00::/32". */
    public String block() {
        return block;
    }

    /** The block's two 16-bit groups. */
    public int[] blockGroups() {
        return blockGroups.clone();
    }

    /** Switch ids in fabric file order (NICs excluded). */
    public List<String> switches() {
        return Collections.unmodifiableList(switchIds);
    }

    /** The 16-bit uN id of a switch; IllegalArgumentException for NICs and unknown nodes. */
    public int nodeId(String switchId) {
        Integer id = nodeIds.get(switchId);
        if (id == null) {
            throw new IllegalArgumentException("no switch \"" + switchId + "\" in fabric " + fabric.id());
        }
        return id;
    }

    /** All uN ids, switch id to id, in fabric file order. */
    public Map<String, Integer> nodeIds() {
        return nodeIds;
    }

    /** The switch owning a uN id, or null. */
    public String switchWithNodeId(int nodeId) {
        return switchByNodeId.get(nodeId);
    }

    /** The /48 locator of a switch: block + uN id, e.g. "fcbb:bb00:12::/48". */
    public String locator(String switchId) {
        return Usid.address(blockGroups, nodeId(switchId)) + "/48";
    }

    /** A SID of a switch's local function: locator + function as a /64 ("fcbb:bb00:2:e000::/64"). */
    public String functionSid(String switchId, int function) {
        return Usid.address(blockGroups, nodeId(switchId), function) + "/64";
    }

    /** Tenant names in fabric order. */
    public List<String> tenants() {
        return fabric.tenants();
    }

    /** The stable index of a tenant (drives its VRF table and decap function). */
    public int tenantIndex(String tenant) {
        Integer i = tenantIndex.get(tenant);
        if (i == null) {
            throw new IllegalArgumentException("unknown tenant \"" + tenant + "\" (fabric " + fabric.id()
                    + " has " + tenants() + ")");
        }
        return i;
    }

    /** True when the fabric has this tenant. */
    public boolean hasTenant(String tenant) {
        return tenantIndex.containsKey(tenant);
    }

    /** Routing table id of a tenant's VRF on every switch with NICs: 100 + tenant index. */
    public int vrfTable(String tenant) {
        return VRF_TABLE_BASE + tenantIndex(tenant);
    }

    /**
     * The VRF name on devices: "Vrf-" + tenant (SONiC requires the "Vrf" prefix). A VRF is a Linux
     * netdev on SONiC, so names are capped at 15 characters (IFNAMSIZ - 1); a longer one becomes
     * "Vrf" + table id, which is as stable as the tenant index.
     */
    public String vrfName(String tenant) {
        String name = "Vrf-" + tenant;
        return name.length() <= MAX_VRF_NAME ? name : "Vrf" + vrfTable(tenant);
    }

    /**
     * uDT46 function of a leaf (or router) with NICs for a tenant: 0xE000 + tenant index. Every
     * switch linked to a NIC has one, also where the NIC's home is another switch (multi-plane).
     */
    public int decapFunction(String leafId, String tenant) {
        if (!hasNics(leafId)) {
            throw new IllegalArgumentException("switch \"" + leafId + "\" has no NICs, so no decap function");
        }
        return DECAP_BASE + tenantIndex(tenant);
    }

    /** The uA function of {@code switchId} for leaving over {@code linkId}, or null when none is needed. */
    public Integer uaFunction(String switchId, String linkId) {
        Map<String, Integer> m = uaFunctions.get(switchId);
        return m == null ? null : m.get(linkId);
    }

    /** uA functions of one switch: link id to function, empty when it has no parallel links. */
    public Map<String, Integer> uaFunctions(String switchId) {
        Map<String, Integer> m = uaFunctions.get(switchId);
        return m == null ? Map.of() : m;
    }

    /** Members of a switch's EV table for stage 1 or 2, in published order; empty if none. */
    public List<Arc> evTable(String switchId, int stage) {
        if (stage != 1 && stage != 2) {
            throw new IllegalArgumentException("stage: " + stage + " (EV tables exist for stage 1 and 2)");
        }
        List<Arc> t = (stage == 1 ? evStage1 : evStage2).get(switchId);
        return t == null ? List.of() : t;
    }

    /** True when every arc is a member of the switch's EV table for the stage (and the table is not empty). */
    public boolean evTableCovers(String switchId, int stage, List<Arc> arcs) {
        java.util.Set<Arc> members = (stage == 1 ? evMembers1 : stage == 2 ? evMembers2
                : Map.<String, java.util.Set<Arc>>of())
                .get(switchId);
        if (members == null) {
            return false;
        }
        for (Arc a : arcs) {
            if (!members.contains(a)) {
                return false;
            }
        }
        return true;
    }

    /** The NIC's address (explicit in the fabric file, else assigned from its leaf's prefix). */
    public String nicAddress(String nicId) {
        String a = nicAddresses.get(nicId);
        if (a == null) {
            throw new IllegalArgumentException("no NIC \"" + nicId + "\" in fabric " + fabric.id());
        }
        return a;
    }

    /** The /64 NIC prefix of a leaf or router with NICs, or null when it has none. */
    public String nicPrefix(String leafId) {
        return nicPrefixes.get(leafId);
    }

    /** The /128 loopback address of a switch (without the length). */
    public String loopback(String switchId) {
        String a = loopbacks.get(switchId);
        if (a == null) {
            throw new IllegalArgumentException("no switch \"" + switchId + "\" in fabric " + fabric.id());
        }
        return a;
    }

    /** The NIC's home arc (NIC to its leaf or router): the NIC's first link to a switch in file order. */
    public Arc attachment(String nicId) {
        Arc a = attachments.get(nicId);
        if (a == null) {
            throw new IllegalArgumentException("no NIC \"" + nicId + "\" in fabric " + fabric.id());
        }
        return a;
    }

    /** NIC ids in fabric order. */
    public List<String> nics() {
        return new ArrayList<>(attachments.keySet());
    }

    /** True when at least one NIC is linked to this switch (its home or not). */
    public boolean hasNics(String switchId) {
        return linkedNics.containsKey(switchId);
    }

    /** NICs linked to this switch (home or secondary attachment), in link file order. */
    public List<String> linkedNics(String switchId) {
        List<String> l = linkedNics.get(switchId);
        return l == null ? List.of() : Collections.unmodifiableList(l);
    }

    /** The first link (file order) between a switch and a NIC, or null when they are not linked. */
    public Link nicLink(String switchId, String nicId) {
        Map<String, Link> m = nicLinks.get(switchId);
        return m == null ? null : m.get(nicId);
    }

    /** NICs whose home is this switch, in fabric order (empty for none). */
    public List<String> nicsOf(String switchId) {
        List<String> l = nicsBySwitch.get(switchId);
        return l == null ? List.of() : Collections.unmodifiableList(l);
    }

    /**
     * The link-local address of {@code nodeId}'s end of a link. Link-locals only need to be unique
     * on their link, so the a end is always fe80::1 and the b end fe80::2: stable whatever else
     * changes in the fabric.
     */
    public String linkLocal(String linkId, String nodeId) {
        Link l = fabric.link(linkId);
        if (l == null) {
            throw new IllegalArgumentException("no link \"" + linkId + "\"");
        }
        return l.a().node().equals(nodeId) ? "fe80::1" : "fe80::2";
    }

    /**
     * This plan's tables compiled for {@link CompiledWalk} (node and arc numbers instead of ids),
     * built once on first use and shared by every thread.
     */
    public CompiledWalk compiledWalk() {
        CompiledWalk w = compiledWalk;
        if (w == null) {
            w = new CompiledWalk(this);
            compiledWalk = w;
        }
        return w;
    }

    /** Switch-to-switch arcs leaving a switch, ordered by neighbour id then link id. */
    public List<Arc> switchArcs(String switchId) {
        Integer i = switchIndex.get(switchId);
        return i == null ? List.of() : switchArcs.get(i);
    }

    /**
     * The switch that hands {@code nicId} a packet routed by its destination from {@code fromSwitch}:
     * the NIC's home switch when reachable from there, else, of the switches linked to the NIC that
     * are, the first in switch order (the NIC's leaf on another plane of a multi-plane fabric, where
     * the home leaf cannot be reached); null when none is. The switches' routes to the NIC's
     * address ({@code DeviceIntent}) and the EV walk both follow this one rule.
     */
    public String deliverySwitch(String nicId, String fromSwitch) {
        String home = attachment(nicId).to();
        if (home.equals(fromSwitch) || distance(fromSwitch, home) >= 0) {
            return home;
        }
        String best = null;
        for (Arc a : fabric.arcsFrom(nicId)) {
            String s = a.to();
            if (!switchIndex.containsKey(s) || best != null && switchIndex.get(s) >= switchIndex.get(best)) {
                continue;
            }
            if (s.equals(fromSwitch) || distance(fromSwitch, s) >= 0) {
                best = s;
            }
        }
        return best;
    }

    /**
     * True when EV routing reaches every pair of ports a path can join: each port of each NIC is the
     * one its plane delivers to ({@link #deliverySwitch}, over the first link to that switch), as on
     * a fabric whose NICs have one port per plane. False when a NIC has two ports into one plane:
     * packets to it arrive by one of them only, so a job routed by entropy values keeps to home ports.
     */
    public boolean evReachesEveryPort() {
        Boolean v = evEveryPort;
        if (v == null) {
            v = true;
            for (String nic : attachments.keySet()) {
                for (Arc a : fabric.arcsFrom(nic)) {
                    Link first = nicLink(a.to(), nic);
                    if (switchIndex.containsKey(a.to()) && (!a.to().equals(deliverySwitch(nic, a.to()))
                            || first == null || !first.id().equals(a.link().id()))) {
                        v = false;
                    }
                }
            }
            evEveryPort = v;
        }
        return v;
    }

    /** Underlay hop count between two switches, or -1 when unreachable. */
    public int distance(String fromSwitch, String toSwitch) {
        Integer f = switchIndex.get(fromSwitch);
        Integer t = switchIndex.get(toSwitch);
        if (f == null || t == null) {
            throw new IllegalArgumentException("distance between non-switches " + fromSwitch + ", " + toSwitch);
        }
        return distances(t)[f];
    }

    /**
     * The underlay's ECMP next hops from a switch towards another: every switch-to-switch arc on a
     * shortest path (hop count), ordered by neighbour id then link id. Empty when at the target or
     * when the target is unreachable. Unmodifiable, and computed once per pair of switches (memory:
     * at most one reference per pair asked, a few MB for a 1,000-switch fabric).
     */
    public List<Arc> nextHops(String fromSwitch, String toSwitch) {
        return hops(fromSwitch, toSwitch).arcs;
    }

    /**
     * {@code evTableCovers(fromSwitch, stage, nextHops(fromSwitch, toSwitch))}, answered from the
     * same per-pair memo (EV routing asks it at every stage-1 and stage-2 hop of every walk).
     */
    public boolean evTableCoversNextHops(String fromSwitch, int stage, String toSwitch) {
        Hops h = hops(fromSwitch, toSwitch);
        return stage == 1 ? h.covers1 : stage == 2 && h.covers2;
    }

    private Hops hops(String fromSwitch, String toSwitch) {
        Integer f = switchIndex.get(fromSwitch);
        Integer t = switchIndex.get(toSwitch);
        if (f == null || t == null) {
            throw new IllegalArgumentException("next hops between non-switches " + fromSwitch + ", " + toSwitch);
        }
        Hops[] row = hopsTo.get(t);
        if (row == null) {
            hopsTo.compareAndSet(t, null, new Hops[switchIds.size()]);
            row = hopsTo.get(t);
        }
        Hops h = row[f];
        if (h == null) {
            List<Arc> arcs = computeNextHops(f, t);
            h = new Hops(arcs, evTableCovers(fromSwitch, 1, arcs), evTableCovers(fromSwitch, 2, arcs));
            row[f] = h;
        }
        return h;
    }

    private List<Arc> computeNextHops(int f, int t) {
        int[] d = distances(t);
        if (d[f] <= 0) {
            return List.of();
        }
        List<Arc> arcs = switchArcs.get(f);
        int[] targets = arcTargets[f];
        List<Arc> out = new ArrayList<>(targets.length);
        for (int k = 0; k < targets.length; k++) {
            if (d[targets[k]] == d[f] - 1) {
                out.add(arcs.get(k));
            }
        }
        return List.copyOf(out);
    }

    /**
     * True when both plans have the same switches (in the same order) and the same underlay hop
     * count from every switch towards {@code target}. A switch whose own arcs are unchanged then has
     * the same {@link #nextHops} towards it: this is how a re-plan finds the few routes a link
     * change touched without comparing every pair of switches.
     */
    public boolean sameDistancesTo(FabricPlan other, String target) {
        if (!switchIds.equals(other.switchIds)) {
            return false;
        }
        Integer t = switchIndex.get(target);
        if (t == null) {
            throw new IllegalArgumentException("distances towards a non-switch " + target);
        }
        return java.util.Arrays.equals(distances(t), other.distances(t));
    }

    private int[] distances(int target) {
        int[] d = distanceTo.get(target);
        if (d != null) {
            return d;
        }
        d = new int[switchIds.size()];
        java.util.Arrays.fill(d, -1);
        d[target] = 0;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(target);
        while (!queue.isEmpty()) {
            int x = queue.poll();
            for (int y : arcTargets[x]) {
                if (d[y] < 0) {
                    d[y] = d[x] + 1;
                    queue.add(y);
                }
            }
        }
        distanceTo.compareAndSet(target, null, d);
        return distanceTo.get(target);
    }

    /** The node's role, or null when unknown. */
    Role roleOf(String nodeId) {
        Node n = fabric.node(nodeId);
        return n == null ? null : n.role();
    }

    Map<String, Integer> tenantIndexes() {
        return tenantIndex;
    }

    Map<String, String> nicAddresses() {
        return nicAddresses;
    }

    Map<String, String> loopbacks() {
        return loopbacks;
    }

    Map<String, String> nicPrefixes() {
        return nicPrefixes;
    }

    Map<String, Map<String, Integer>> allUaFunctions() {
        return uaFunctions;
    }
}
