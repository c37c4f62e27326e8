package io.weft.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.fabric.Role;
import io.weft.plan.srv6.Usid;

/**
 * Computes a {@link FabricPlan} from a fabric and, optionally, the previous plan.
 *
 * <p>Every allocation is deterministic and stable: explicit values in the fabric file win, then
 * the previous plan's value for the same node (or link, tenant, NIC), then the lowest free value
 * walking new items in a fixed order. Removing switches never renumbers the others, so re-planning
 * after a topology change leaves every surviving SID, table id and address where it was.
 *
 * <ul>
 *   <li>uN ids: 0x0001-0xDFFF, new switches by tier (leaf, router, spine, superspine), then file order.</li>
 *   <li>uDT46: 0xE000 + tenant index, on every leaf/router with NICs; VRF table 100 + tenant index.</li>
 *   <li>uA: 0xE100 + k per switch, only for links in a parallel group towards one neighbour.</li>
 *   <li>NIC prefix per leaf/router with NICs: fd00:ef7:&lt;uN&gt;::/64 (from the ULA pool fd00:ef7::/32);
 *       NIC addresses ::1, ::2, ... in it; switch loopbacks fd00:ef8::&lt;uN&gt; (pool fd00:ef8::/64).</li>
 *   <li>EV tables: leaf stage 1 = arcs to spines; spine stage 2 = arcs to superspines; router stages
 *       1 and 2 = arcs to routers. Members ordered by neighbour id then link id.</li>
 * </ul>
 */
public final class Planner {
    public static final int MAX_NODE_ID = Usid.LIB_START - 1;
    public static final String NIC_POOL = "fd00:ef7::/32";
    public static final String LOOPBACK_POOL = "fd00:ef8::/64";

    /** Published member order of EV tables and ECMP next hops: neighbour id, then link id. */
    static final Comparator<Arc> ARC_ORDER = Comparator.comparing(Arc::to).thenComparing(a -> a.link().id());

    private static final List<Role> TIER_ORDER = List.of(Role.LEAF, Role.ROUTER, Role.SPINE, Role.SUPERSPINE);

    private Planner() {
    }

    public static FabricPlan plan(Fabric fabric, FabricPlan previous) throws PlanException {
        checkStructure(fabric);
        try {
            Usid.block(fabric.srv6Block());
        } catch (EncodingException e) {
            throw new PlanException("srv6.block: " + e.getMessage());
        }
        Map<String, Integer> nodeIds = nodeIds(fabric, previous);
        Map<String, Integer> tenants = tenantIndexes(fabric, previous);
        Map<String, Arc> attachments = attachments(fabric);
        Map<String, Map<String, Integer>> ua = uaFunctions(fabric, previous);
        Set<String> attachSwitches = new HashSet<>();
        attachments.values().forEach(a -> attachSwitches.add(a.to()));
        Map<String, String> loopbacks = loopbacks(fabric, previous, nodeIds);
        Map<String, String> prefixes = nicPrefixes(fabric, previous, nodeIds, attachSwitches);
        Map<String, String> addresses = nicAddresses(fabric, previous, attachments, prefixes, loopbacks);
        Map<String, List<Arc>> ev1 = new LinkedHashMap<>();
        Map<String, List<Arc>> ev2 = new LinkedHashMap<>();
        evTables(fabric, ev1, ev2);
        return new FabricPlan(fabric, fabric.srv6Block(), nodeIds, tenants, ua, prefixes, addresses, loopbacks,
                ev1, ev2, attachments);
    }

    /** The minimum the plan needs; the full checks live in FabricValidator. */
    private static void checkStructure(Fabric fabric) throws PlanException {
        Set<String> ids = new HashSet<>();
        for (Node n : fabric.nodes()) {
            if (!ids.add(n.id())) {
                throw new PlanException("node " + n.id() + ": duplicate node id");
            }
        }
        Set<String> linkIds = new HashSet<>();
        for (Link l : fabric.links()) {
            if (!linkIds.add(l.id())) {
                throw new PlanException("link " + l.id() + ": duplicate link id");
            }
            for (String end : List.of(l.a().node(), l.b().node())) {
                if (fabric.node(end) == null) {
                    throw new PlanException("link " + l.id() + ": unknown node " + end);
                }
            }
        }
    }

    private static Map<String, Integer> nodeIds(Fabric fabric, FabricPlan previous) throws PlanException {
        Map<Integer, String> owner = new HashMap<>();
        Map<String, Integer> ids = new HashMap<>();
        for (Node n : fabric.nodes()) {
            if (!n.role().isSwitch() || n.srv6NodeId() == null) {
                continue;
            }
            int id = n.srv6NodeId();
            if (id < 1 || id > MAX_NODE_ID) {
                throw new PlanException("node " + n.id() + ": srv6NodeId " + id + " (0x" + Integer.toHexString(id)
                        + ") is outside the uN range 0x0001-0xdfff" + (id >= Usid.LIB_START && id <= 0xFFFF
                        ? " (0xe000-0xffff are local functions)" : ""));
            }
            String other = owner.putIfAbsent(id, n.id());
            if (other != null) {
                throw new PlanException("srv6NodeId " + id + " is claimed by both " + other + " and " + n.id());
            }
            ids.put(n.id(), id);
        }
        if (previous != null) {
            for (Node n : fabric.nodes()) {
                if (!n.role().isSwitch() || ids.containsKey(n.id())) {
                    continue;
                }
                Integer old = previous.nodeIds().get(n.id());
                if (old != null && !owner.containsKey(old)) {
                    owner.put(old, n.id());
                    ids.put(n.id(), old);
                }
            }
        }
        int next = 1;
        for (Node n : switchesByTier(fabric)) {
            if (ids.containsKey(n.id())) {
                continue;
            }
            while (owner.containsKey(next)) {
                next++;
            }
            if (next > MAX_NODE_ID) {
                throw new PlanException("node " + n.id() + ": no free uN id left (0x0001-0xdfff all used)");
            }
            owner.put(next, n.id());
            ids.put(n.id(), next);
        }
        Map<String, Integer> ordered = new LinkedHashMap<>();
        for (Node n : fabric.nodes()) {
            if (n.role().isSwitch()) {
                ordered.put(n.id(), ids.get(n.id()));
            }
        }
        return ordered;
    }

    private static List<Node> switchesByTier(Fabric fabric) {
        List<Node> out = new ArrayList<>();
        for (Role r : TIER_ORDER) {
            out.addAll(fabric.nodesWithRole(r));
        }
        return out;
    }

    private static Map<String, Integer> tenantIndexes(Fabric fabric, FabricPlan previous) throws PlanException {
        Map<String, Integer> idx = new LinkedHashMap<>();
        Set<Integer> used = new HashSet<>();
        Set<String> seen = new HashSet<>();
        for (String t : fabric.tenants()) {
            if (!seen.add(t)) {
                throw new PlanException("tenants: \"" + t + "\" is listed twice");
            }
            if (previous != null && previous.hasTenant(t)) {
                int i = previous.tenantIndex(t);
                idx.put(t, i);
                used.add(i);
            }
        }
        int next = 0;
        for (String t : fabric.tenants()) {
            if (idx.containsKey(t)) {
                continue;
            }
            while (used.contains(next)) {
                next++;
            }
            if (next >= FabricPlan.MAX_TENANTS) {
                throw new PlanException("tenants: \"" + t + "\" exceeds the " + FabricPlan.MAX_TENANTS
                        + " tenant decap functions (0xe000-0xe0ff)");
            }
            used.add(next);
            idx.put(t, next);
        }
        Map<String, Integer> ordered = new LinkedHashMap<>();
        fabric.tenants().forEach(t -> ordered.put(t, idx.get(t)));
        return ordered;
    }

    private static Map<String, Arc> attachments(Fabric fabric) throws PlanException {
        Map<String, Arc> out = new LinkedHashMap<>();
        for (Node n : fabric.nodes()) {
            if (n.role() != Role.NIC) {
                continue;
            }
            Arc home = null;
            for (Arc a : fabric.arcsFrom(n.id())) {
                if (fabric.node(a.to()).role().isSwitch()) {
                    home = a;
                    break;
                }
            }
            if (home == null) {
                throw new PlanException("node " + n.id() + ": NIC is not linked to any switch");
            }
            out.put(n.id(), home);
        }
        return out;
    }

    private static Map<String, Map<String, Integer>> uaFunctions(Fabric fabric, FabricPlan previous)
            throws PlanException {
        Map<String, Map<String, Integer>> out = new LinkedHashMap<>();
        for (Node n : fabric.nodes()) {
            if (!n.role().isSwitch()) {
                continue;
            }
            Map<String, List<Link>> byNeighbour = new LinkedHashMap<>();
            for (Arc a : fabric.arcsFrom(n.id())) {
                if (fabric.node(a.to()).role().isSwitch() && !a.to().equals(n.id())) {
                    byNeighbour.computeIfAbsent(a.to(), k -> new ArrayList<>()).add(a.link());
                }
            }
            List<Link> parallel = new ArrayList<>();
            byNeighbour.values().stream().filter(g -> g.size() > 1).forEach(parallel::addAll);
            if (parallel.isEmpty()) {
                continue;
            }
            Map<String, Integer> old = previous == null ? Map.of() : previous.uaFunctions(n.id());
            Map<String, Integer> fn = new HashMap<>();
            Set<Integer> used = new HashSet<>();
            for (Link l : parallel) {
                Integer f = old.get(l.id());
                if (f != null && used.add(f)) {
                    fn.put(l.id(), f);
                }
            }
            int next = FabricPlan.UA_BASE;
            for (Link l : parallel) {
                if (fn.containsKey(l.id())) {
                    continue;
                }
                while (used.contains(next)) {
                    next++;
                }
                if (next > 0xFFFF) {
                    throw new PlanException("node " + n.id() + ": more parallel links than uA functions");
                }
                used.add(next);
                fn.put(l.id(), next);
            }
            Map<String, Integer> ordered = new TreeMap<>(fn);
            out.put(n.id(), ordered);
        }
        return out;
    }

    private static Map<String, String> loopbacks(Fabric fabric, FabricPlan previous, Map<String, Integer> nodeIds)
            throws PlanException {
        Map<String, String> out = new LinkedHashMap<>();
        Map<String, String> owner = new HashMap<>();
        // Explicit addresses (switches and NICs) are reserved first so no assignment can take them.
        for (Node n : fabric.nodes()) {
            if (n.address() == null) {
                continue;
            }
            String a = canonicalAddress(n);
            String other = owner.putIfAbsent(a, n.id());
            if (other != null) {
                throw new PlanException("address " + a + " is claimed by both " + other + " and " + n.id());
            }
        }
        for (Node n : fabric.nodes()) {
            if (!n.role().isSwitch()) {
                continue;
            }
            String a = n.address() != null ? canonicalAddress(n) : null;
            if (a == null && previous != null && previous.loopbacks().containsKey(n.id())) {
                String old = previous.loopbacks().get(n.id());
                if (!owner.containsKey(old)) {
                    a = old;
                }
            }
            if (a == null) {
                a = Ipv6.format(new int[] {0xfd00, 0xef8, 0, 0, 0, 0, 0, nodeIds.get(n.id())});
                for (int k = 1; owner.containsKey(a) && !owner.get(a).equals(n.id()); k++) {
                    a = Ipv6.format(new int[] {0xfd00, 0xef8, 0, 0, 0, 0, k, nodeIds.get(n.id())});
                }
            }
            owner.put(a, n.id());
            out.put(n.id(), a);
        }
        return out;
    }

    private static String canonicalAddress(Node n) throws PlanException {
        try {
            return Ipv6.canonical(n.address());
        } catch (IllegalArgumentException e) {
            throw new PlanException("node " + n.id() + ": address " + e.getMessage());
        }
    }

    private static Map<String, String> nicPrefixes(Fabric fabric, FabricPlan previous, Map<String, Integer> nodeIds,
                                                   Set<String> attachSwitches) {
        Map<String, String> out = new LinkedHashMap<>();
        Set<String> used = new HashSet<>();
        List<String> fresh = new ArrayList<>();
        for (Node n : fabric.nodes()) {
            if (!attachSwitches.contains(n.id())) {
                continue;
            }
            String old = previous == null ? null : previous.nicPrefixes().get(n.id());
            if (old != null && used.add(old)) {
                out.put(n.id(), old);
            } else {
                fresh.add(n.id());
            }
        }
        for (String s : fresh) {
            int id = nodeIds.get(s);
            String p = Ipv6.format(new int[] {0xfd00, 0xef7, id, 0, 0, 0, 0, 0}) + "/64";
            // uN ids stay below 0xe000, so a clash (only after explicit id changes) moves up there.
            for (int k = 0xE000; used.contains(p); k++) {
                p = Ipv6.format(new int[] {0xfd00, 0xef7, k, 0, 0, 0, 0, 0}) + "/64";
            }
            used.add(p);
            out.put(s, p);
        }
        Map<String, String> ordered = new LinkedHashMap<>();
        for (Node n : fabric.nodes()) {
            if (out.containsKey(n.id())) {
                ordered.put(n.id(), out.get(n.id()));
            }
        }
        return ordered;
    }

    private static Map<String, String> nicAddresses(Fabric fabric, FabricPlan previous, Map<String, Arc> attachments,
                                                    Map<String, String> prefixes, Map<String, String> loopbacks)
            throws PlanException {
        Set<String> used = new HashSet<>(loopbacks.values());
        Map<String, String> out = new LinkedHashMap<>();
        for (Node n : fabric.nodes()) {
            if (n.role() == Role.NIC && n.address() != null) {
                String a = canonicalAddress(n);
                out.put(n.id(), a);
                used.add(a);
            }
        }
        for (Node n : fabric.nodes()) {
            if (n.role() != Role.NIC || out.containsKey(n.id()) || previous == null) {
                continue;
            }
            String prefix = prefixes.get(attachments.get(n.id()).to());
            String old = previous.nicAddresses().get(n.id());
            // Only reuse an address that still lies in the NIC's (possibly new) leaf prefix.
            if (old != null && Ipv6.contains(prefix, old) && used.add(old)) {
                out.put(n.id(), old);
            }
        }
        Map<String, Integer> nextHost = new HashMap<>();
        for (Node n : fabric.nodes()) {
            if (n.role() != Role.NIC || out.containsKey(n.id())) {
                continue;
            }
            String prefix = prefixes.get(attachments.get(n.id()).to());
            int[] g = Ipv6.prefixAddress(prefix);
            int host = nextHost.getOrDefault(prefix, 1);
            String a;
            do {
                g[6] = host >>> 16;
                g[7] = host & 0xFFFF;
                a = Ipv6.format(g);
                host++;
            } while (used.contains(a));
            nextHost.put(prefix, host);
            used.add(a);
            out.put(n.id(), a);
        }
        Map<String, String> ordered = new LinkedHashMap<>();
        for (Node n : fabric.nodes()) {
            if (n.role() == Role.NIC) {
                ordered.put(n.id(), out.get(n.id()));
            }
        }
        return ordered;
    }

    private static void evTables(Fabric fabric, Map<String, List<Arc>> ev1, Map<String, List<Arc>> ev2) {
        for (Node n : fabric.nodes()) {
            if (!n.role().isSwitch()) {
                continue;
            }
            switch (n.role()) {
                case LEAF:
                    put(ev1, n.id(), arcsTo(fabric, n.id(), Role.SPINE));
                    break;
                case SPINE:
                    put(ev2, n.id(), arcsTo(fabric, n.id(), Role.SUPERSPINE));
                    break;
                case ROUTER:
                    List<Arc> routers = arcsTo(fabric, n.id(), Role.ROUTER);
                    put(ev1, n.id(), routers);
                    put(ev2, n.id(), routers);
                    break;
                default:
                    break;
            }
        }
    }

    private static void put(Map<String, List<Arc>> m, String id, List<Arc> arcs) {
        if (!arcs.isEmpty()) {
            m.put(id, arcs);
        }
    }

    private static List<Arc> arcsTo(Fabric fabric, String nodeId, Role role) {
        List<Arc> out = new ArrayList<>();
        for (Arc a : fabric.arcsFrom(nodeId)) {
            if (fabric.node(a.to()).role() == role && !a.to().equals(nodeId)) {
                out.add(a);
            }
        }
        out.sort(ARC_ORDER);
        return out;
    }
}
