package io.weft.plan.intent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.Arc;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;
import io.weft.plan.FabricPlan;
import io.weft.plan.Ipv6;
import io.weft.plan.ev.EvRouting;
import io.weft.plan.walk.WalkException;

/**
 * One switch's intent as the replace operations of a gNMI SetRequest (JSON payloads; the
 * transport comes later): {"target": switch, "replace": [{"origin", "path", "value"}, ...]}.
 *
 * <ul>
 *   <li>origin {@code sonic-db}: {@code SRV6_MY_LOCATORS} (one locator "weft") and
 *       {@code SRV6_MY_SIDS} (uN, uA per parallel link, uDT46 per tenant), SONiC CONFIG_DB shape
 *       (all values strings, as in config_db.json). OpenConfig has no SRv6 model.</li>
 *   <li>origin {@code openconfig}: every port (enabled, IPv6 link-local), Loopback0; the DEFAULT
 *       instance with static routes to every other locator over all shortest paths (ECMP, one
 *       indexed next hop per member); one L3VRF per tenant carrying the EV routes.</li>
 * </ul>
 *
 * <p>EV routes in a tenant VRF: per destination NIC prefix, protocol STATIC "EV-STAGE1" (matched
 * for hop limit 64), "EV-STAGE2" (hop limit 63) and "MINIMAL" (otherwise), the next-hop index
 * being the member index the EV byte selects ({@link EvRouting}). The hop-limit classifier itself
 * is a device policy OpenConfig cannot express; the agent applying the intent installs it.
 * Replace operations are per interface and per network instance so that applying them never
 * wipes configuration Weft does not own (management ports, other instances).
 */
public final class DeviceIntent {
    public static final String LOCATOR_NAME = "weft";
    static final String SONIC_ORIGIN = "sonic-db";
    static final String OC_ORIGIN = "openconfig";

    private DeviceIntent() {
    }

    public static ObjectNode render(FabricPlan plan, String switchId) {
        plan.nodeId(switchId);
        ObjectNode root = FabricJson.mapper().createObjectNode();
        root.put("target", switchId);
        ArrayNode ops = root.putArray("replace");
        for (ObjectNode op : plainOps(plan, switchId)) {
            ops.add(op);
        }
        ops.add(op(OC_ORIGIN, DEFAULT_INSTANCE_PATH, defaultInstance(plan, switchId)));
        VrfRoutes vrf = vrfRoutes(plan, switchId);
        for (String t : plan.tenants()) {
            ops.add(op(OC_ORIGIN, instancePath(plan.vrfName(t)), tenantInstance(plan, t, vrf)));
        }
        return root;
    }

    static final String DEFAULT_INSTANCE_PATH = instancePath("DEFAULT");
    static final String STATIC = "STATIC";
    /** The DEFAULT instance's one protocol. */
    static final String UNDERLAY_PROTOCOL = "STATIC";
    /** The tenant VRFs' protocols, in the order a switch matches them. */
    static final List<String> VRF_PROTOCOLS = List.of("LOCAL", "EV-STAGE1", "EV-STAGE2", "MINIMAL");

    static String instancePath(String name) {
        return "/network-instances/network-instance[name=" + name + "]";
    }

    /** Every op but the network instances: locators, SIDs, Loopback0 and the ports. */
    static List<ObjectNode> plainOps(FabricPlan plan, String switchId) {
        List<ObjectNode> ops = new ArrayList<>();
        ops.add(op(SONIC_ORIGIN, "/CONFIG_DB/localhost/SRV6_MY_LOCATORS", locators(plan, switchId)));
        ops.add(op(SONIC_ORIGIN, "/CONFIG_DB/localhost/SRV6_MY_SIDS", sids(plan, switchId)));
        ops.add(op(OC_ORIGIN, "/interfaces/interface[name=Loopback0]",
                iface("Loopback0", plan.loopback(switchId), 128)));
        for (Link l : plan.fabric().linksOf(switchId)) {
            String port = l.endOf(switchId).port();
            ops.add(op(OC_ORIGIN, "/interfaces/interface[name=" + port + "]",
                    iface(port, plan.linkLocal(l.id(), switchId), 64)));
        }
        return ops;
    }

    static ObjectNode op(String origin, String path, ObjectNode value) {
        ObjectNode o = FabricJson.mapper().createObjectNode();
        o.put("origin", origin);
        o.put("path", path);
        o.set("value", value);
        return o;
    }

    private static ObjectNode locators(FabricPlan plan, String sw) {
        ObjectNode v = FabricJson.mapper().createObjectNode();
        String locator = plan.locator(sw);
        v.putObject(LOCATOR_NAME)
                .put("prefix", locator.substring(0, locator.indexOf('/')))
                .put("block_len", "32").put("node_len", "16").put("func_len", "16").put("arg_len", "0")
                .put("vrf", "default");
        return v;
    }

    private static ObjectNode sids(FabricPlan plan, String sw) {
        ObjectNode v = FabricJson.mapper().createObjectNode();
        v.putObject(LOCATOR_NAME + "|" + plan.locator(sw)).put("action", "uN").put("decap_dscp_mode", "pipe");
        for (Map.Entry<String, Integer> e : plan.uaFunctions(sw).entrySet()) {
            Link l = plan.fabric().link(e.getKey());
            v.putObject(LOCATOR_NAME + "|" + plan.functionSid(sw, e.getValue()))
                    .put("action", "uA")
                    .put("interface", l.endOf(sw).port())
                    .put("adj", plan.linkLocal(l.id(), l.otherEnd(sw).node()))
                    .put("decap_dscp_mode", "pipe");
        }
        if (plan.hasNics(sw)) {
            for (String t : plan.tenants()) {
                v.putObject(LOCATOR_NAME + "|" + plan.functionSid(sw, plan.decapFunction(sw, t)))
                        .put("action", "uDT46")
                        .put("decap_vrf", plan.vrfName(t))
                        .put("decap_dscp_mode", "pipe");
            }
        }
        return v;
    }

    private static ObjectNode iface(String name, String address, int prefixLength) {
        ObjectNode v = FabricJson.mapper().createObjectNode();
        v.put("name", name);
        v.putObject("config").put("name", name).put("enabled", true);
        ObjectNode sub = v.putObject("subinterfaces").putArray("subinterface").addObject();
        sub.put("index", 0);
        sub.putObject("config").put("index", 0).put("enabled", true);
        ObjectNode ipv6 = sub.putObject("ipv6");
        ipv6.putObject("config").put("enabled", true);
        ObjectNode addr = ipv6.putObject("addresses").putArray("address").addObject();
        addr.put("ip", address);
        addr.putObject("config").put("ip", address).put("prefix-length", prefixLength)
                .put("type", address.startsWith("fe80:") ? "LINK_LOCAL_UNICAST" : "GLOBAL_UNICAST");
        return v;
    }

    private static ObjectNode defaultInstance(FabricPlan plan, String sw) {
        ObjectNode v = instance("DEFAULT", "DEFAULT_INSTANCE");
        ArrayNode routes = staticProtocol(v, UNDERLAY_PROTOCOL);
        for (String other : plan.switches()) {
            List<Arc> hops = underlayRoute(plan, sw, other);
            if (!hops.isEmpty()) {
                route(plan, routes, plan.locator(other), hops);
            }
        }
        return v;
    }

    /** The DEFAULT instance's next hops towards another switch's locator; empty: no route. */
    static List<Arc> underlayRoute(FabricPlan plan, String sw, String other) {
        return other.equals(sw) ? List.of() : plan.nextHops(sw, other);
    }

    /** Routes shared by every tenant VRF of one switch: computed once per render, not per tenant. */
    static final class VrfRoutes {
        final Map<String, List<Arc>> local = new LinkedHashMap<>();
        final Map<String, List<Arc>> stage1 = new LinkedHashMap<>();
        final Map<String, List<Arc>> stage2 = new LinkedHashMap<>();
        final Map<String, List<Arc>> minimal = new LinkedHashMap<>();

        /** The routes of a protocol of {@link #VRF_PROTOCOLS}. */
        Map<String, List<Arc>> of(String protocol) {
            switch (protocol) {
                case "LOCAL": return local;
                case "EV-STAGE1": return stage1;
                case "EV-STAGE2": return stage2;
                case "MINIMAL": return minimal;
                default: throw new IllegalArgumentException("protocol: " + protocol);
            }
        }
    }

    static VrfRoutes vrfRoutes(FabricPlan plan, String sw) {
        VrfRoutes r = new VrfRoutes();
        localRoutes(plan, sw, r);
        for (Map.Entry<String, List<String>> e : destinations(plan).entrySet()) {
            vrfRoutesTowards(plan, sw, e.getKey(), e.getValue(), r);
        }
        return r;
    }

    /** One host route per NIC linked here, over its first link (a NIC's parallel links are not ECMP'd). */
    static void localRoutes(FabricPlan plan, String sw, VrfRoutes r) {
        for (Link l : plan.fabric().linksOf(sw)) {
            String peer = l.otherEnd(sw).node();
            if (!plan.fabric().node(peer).role().isSwitch() && !r.local.containsKey(plan.nicAddress(peer) + "/128")) {
                r.local.put(plan.nicAddress(peer) + "/128", List.of(new Arc(l, sw)));
            }
        }
    }

    /** The EV and MINIMAL routes of one switch towards the NIC prefixes of one destination switch. */
    static void vrfRoutesTowards(FabricPlan plan, String sw, String dstSwitch, List<String> prefixes, VrfRoutes r) {
        if (dstSwitch.equals(sw) || plan.distance(sw, dstSwitch) < 0) {
            return;
        }
        List<Arc> s1 = pinned(plan, sw, 1, dstSwitch);
        List<Arc> s2 = pinned(plan, sw, 2, dstSwitch);
        List<Arc> min = plan.nextHops(sw, dstSwitch);
        for (String prefix : prefixes) {
            if (s1 != null) {
                r.stage1.put(prefix, s1);
            }
            if (s2 != null) {
                r.stage2.put(prefix, s2);
            }
            r.minimal.put(prefix, min);
        }
    }

    private static ObjectNode tenantInstance(FabricPlan plan, String tenant, VrfRoutes r) {
        ObjectNode v = instance(plan.vrfName(tenant), "L3VRF");
        ((ObjectNode) v.get("config")).put("description", "tenant " + tenant + ", table " + plan.vrfTable(tenant));
        for (String protocol : VRF_PROTOCOLS) {
            addAll(plan, staticProtocol(v, protocol), r.of(protocol));
        }
        return v;
    }

    private static void addAll(FabricPlan plan, ArrayNode routes, Map<String, List<Arc>> byPrefix) {
        byPrefix.forEach((prefix, hops) -> route(plan, routes, prefix, hops));
    }

    /**
     * Destinations per plan, computed once rather than per switch (every NIC's address is parsed to
     * find them: a fifth of rendering a k=16 switch). Weak keys: a plan's entry goes with the plan.
     */
    private static final Map<FabricPlan, Map<String, List<String>>> DESTINATIONS =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    /** Home switch to the prefixes that reach its NICs: its /64, plus /128s for explicit addresses outside it. */
    static Map<String, List<String>> destinations(FabricPlan plan) {
        return DESTINATIONS.computeIfAbsent(plan, DeviceIntent::findDestinations);
    }

    private static Map<String, List<String>> findDestinations(FabricPlan plan) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String s : plan.switches()) {
            if (plan.nicPrefix(s) != null) {
                out.computeIfAbsent(s, k -> new ArrayList<>()).add(plan.nicPrefix(s));
            }
        }
        for (String nic : plan.nics()) {
            String home = plan.attachment(nic).to();
            if (!Ipv6.contains(plan.nicPrefix(home), plan.nicAddress(nic))) {
                out.get(home).add(plan.nicAddress(nic) + "/128");
            }
            // A NIC with a port on another plane (which cannot reach its home): that plane routes
            // the NIC's address to its leaf there, so EV-routed packets sent out that plane's port
            // arrive. One leaf per plane: the one FabricPlan.deliverySwitch names.
            for (Arc a : plan.fabric().arcsFrom(nic)) {
                String sw = a.to();
                String route = plan.nicAddress(nic) + "/128";
                if (!sw.equals(home) && plan.hasNics(sw) && sw.equals(plan.deliverySwitch(nic, sw))) {
                    List<String> routes = out.computeIfAbsent(sw, k -> new ArrayList<>());
                    if (!routes.contains(route)) {
                        routes.add(route);
                    }
                }
            }
        }
        return out;
    }

    /** The members the stage's EV byte indexes, or null where it does not choose (MINIMAL applies). */
    private static List<Arc> pinned(FabricPlan plan, String sw, int stage, String dstSwitch) {
        try {
            List<Arc> options = EvRouting.options(plan, sw, stage, dstSwitch, 0);
            // A single option is the minimal route itself: MINIMAL already carries it.
            return options.size() > 1 ? options : null;
        } catch (WalkException e) {
            return null;
        }
    }

    private static ObjectNode instance(String name, String type) {
        ObjectNode v = FabricJson.mapper().createObjectNode();
        v.put("name", name);
        v.putObject("config").put("name", name).put("type", type).put("enabled", true);
        v.putObject("protocols").putArray("protocol");
        return v;
    }

    private static ArrayNode staticProtocol(ObjectNode instance, String name) {
        ObjectNode p = ((ArrayNode) instance.get("protocols").get("protocol")).addObject();
        p.put("identifier", STATIC);
        p.put("name", name);
        p.putObject("config").put("identifier", STATIC).put("name", name);
        return p.putObject("static-routes").putArray("static");
    }

    private static void route(FabricPlan plan, ArrayNode routes, String prefix, List<Arc> nextHops) {
        routes.add(routeValue(plan, prefix, nextHops));
    }

    /** One entry of a {@code static-routes/static} list: the prefix and its indexed next hops. */
    static ObjectNode routeValue(FabricPlan plan, String prefix, List<Arc> nextHops) {
        ObjectNode r = FabricJson.mapper().createObjectNode();
        r.put("prefix", prefix);
        r.putObject("config").put("prefix", prefix);
        ArrayNode hops = r.putObject("next-hops").putArray("next-hop");
        for (int i = 0; i < nextHops.size(); i++) {
            Arc a = nextHops.get(i);
            ObjectNode h = hops.addObject();
            h.put("index", String.valueOf(i));
            h.putObject("config").put("index", String.valueOf(i))
                    .put("next-hop", plan.linkLocal(a.link().id(), a.to()));
            h.putObject("interface-ref").putObject("config").put("interface", a.fromPort()).put("subinterface", 0);
        }
        return r;
    }
}
