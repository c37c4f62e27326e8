package io.weft.plan;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.contracts.LinkState;
import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricFormatException;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;

/**
 * The fabric snapshot published on {@code weft.fabric} and served as {@code GET /fabric}:
 * topology + plan + link states (contracts/schemas/fabric-plan.schema.json, contracts/plan.md).
 *
 * <p>The "plan" object carries every allocated value (ids, functions, addresses, EV table member
 * order), not just inputs, so {@link #planFromTree} rebuilds the exact plan without re-running
 * the allocation: a consumer and the controller can never disagree on a SID.
 */
public final class SnapshotJson {
    public static final int SCHEMA_VERSION = 1;
    private SnapshotJson() {
    }

    public static ObjectNode toTree(FabricPlan plan, Map<String, LinkState> linkStates, long version) {
        return toTree(plan, linkStates, version, Instant.now());
    }

    /**
     * @param linkStates link id to its state; links not named are up
     */
    public static ObjectNode toTree(FabricPlan plan, Map<String, LinkState> linkStates, long version,
                                    Instant generatedAt) {
        Fabric f = plan.fabric();
        Map<String, LinkState> states = linkStates == null ? Map.of() : linkStates;
        for (Map.Entry<String, LinkState> e : states.entrySet()) {
            if (f.link(e.getKey()) == null) {
                throw new IllegalArgumentException("linkStates: unknown link \"" + e.getKey() + "\"");
            }
            if (e.getValue() == null) {
                throw new IllegalArgumentException("linkStates." + e.getKey() + ": no state");
            }
        }
        ObjectNode root = FabricJson.mapper().createObjectNode();
        root.put("schemaVersion", SCHEMA_VERSION);
        root.put("fabricId", f.id());
        root.put("version", version);
        root.put("generatedAt", generatedAt.toString());
        root.set("fabric", FabricJson.toTree(f));
        root.set("plan", planTree(plan));
        ObjectNode ls = root.putObject("linkStates");
        for (Link l : f.links()) {
            ls.put(l.id(), states.getOrDefault(l.id(), LinkState.UP).json());
        }
        return root;
    }

    /** The "plan" object alone. */
    public static ObjectNode planTree(FabricPlan plan) {
        ObjectNode p = FabricJson.mapper().createObjectNode();
        p.put("block", plan.block());
        ArrayNode tenants = p.putArray("tenants");
        for (String t : plan.tenants()) {
            tenants.addObject().put("name", t).put("index", plan.tenantIndex(t)).put("vrf", plan.vrfName(t))
                    .put("table", plan.vrfTable(t)).put("decapFunction", FabricPlan.DECAP_BASE + plan.tenantIndex(t));
        }
        ArrayNode switches = p.putArray("switches");
        for (String s : plan.switches()) {
            ObjectNode o = switches.addObject();
            o.put("id", s);
            o.put("nodeId", plan.nodeId(s));
            o.put("locator", plan.locator(s));
            o.put("loopback", plan.loopback(s));
            if (plan.nicPrefix(s) != null) {
                o.put("nicPrefix", plan.nicPrefix(s));
            }
            if (plan.hasNics(s)) {
                ArrayNode decap = o.putArray("decap");
                for (String t : plan.tenants()) {
                    int fn = plan.decapFunction(s, t);
                    decap.addObject().put("tenant", t).put("function", fn).put("sid", plan.functionSid(s, fn));
                }
            }
            if (!plan.uaFunctions(s).isEmpty()) {
                ArrayNode ua = o.putArray("ua");
                for (Map.Entry<String, Integer> e : plan.uaFunctions(s).entrySet()) {
                    ua.addObject().put("link", e.getKey()).put("function", e.getValue())
                            .put("sid", plan.functionSid(s, e.getValue()));
                }
            }
            ObjectNode ev = o.putObject("ev");
            arcs(ev.putArray("stage1"), plan.evTable(s, 1));
            arcs(ev.putArray("stage2"), plan.evTable(s, 2));
        }
        ArrayNode nics = p.putArray("nics");
        for (String n : plan.nics()) {
            nics.addObject().put("id", n).put("address", plan.nicAddress(n))
                    .put("attachment", plan.attachment(n).key());
        }
        return p;
    }

    private static void arcs(ArrayNode out, List<Arc> arcs) {
        arcs.forEach(a -> out.add(a.key()));
    }

    /** Rebuilds the plan of a snapshot exactly as published. */
    public static FabricPlan planFromTree(JsonNode snapshot) throws PlanException {
        obj(snapshot, "$");
        int version = field(snapshot, "$", "schemaVersion").asInt(-1);
        if (version != SCHEMA_VERSION) {
            throw new PlanException("$.schemaVersion: " + version
                    + " is not supported (expected " + SCHEMA_VERSION + ")");
        }
        Fabric fabric;
        try {
            fabric = FabricJson.fromTree(field(snapshot, "$", "fabric"));
        } catch (FabricFormatException e) {
            String m = e.getMessage();
            throw new PlanException(m.startsWith("$") ? "$.fabric" + m.substring(1) : "$.fabric: " + m);
        }
        return planFromTree(fabric, field(snapshot, "$", "plan"));
    }

    /** Rebuilds a plan from its "plan" object and the fabric it belongs to. */
    public static FabricPlan planFromTree(Fabric fabric, JsonNode plan) throws PlanException {
        String at = "$.plan";
        obj(plan, at);
        String block = text(plan, at, "block");
        Map<String, Integer> tenants = new LinkedHashMap<>();
        JsonNode ts = array(plan, at, "tenants");
        for (int i = 0; i < ts.size(); i++) {
            String here = at + ".tenants[" + i + "]";
            tenants.put(text(ts.get(i), here, "name"), integer(ts.get(i), here, "index"));
        }
        for (String t : fabric.tenants()) {
            if (!tenants.containsKey(t)) {
                throw new PlanException(at + ".tenants: fabric tenant \"" + t + "\" is missing");
            }
        }
        Map<String, Integer> nodeIds = new LinkedHashMap<>();
        Map<String, String> loopbacks = new LinkedHashMap<>();
        Map<String, String> prefixes = new LinkedHashMap<>();
        Map<String, Map<String, Integer>> ua = new LinkedHashMap<>();
        Map<String, List<Arc>> ev1 = new LinkedHashMap<>();
        Map<String, List<Arc>> ev2 = new LinkedHashMap<>();
        JsonNode ss = array(plan, at, "switches");
        for (int i = 0; i < ss.size(); i++) {
            String here = at + ".switches[" + i + "]";
            JsonNode s = ss.get(i);
            String id = text(s, here, "id");
            if (fabric.node(id) == null || !fabric.node(id).role().isSwitch()) {
                throw new PlanException(here + ".id: \"" + id + "\" is not a switch of fabric " + fabric.id());
            }
            nodeIds.put(id, integer(s, here, "nodeId"));
            loopbacks.put(id, text(s, here, "loopback"));
            if (s.has("nicPrefix")) {
                prefixes.put(id, text(s, here, "nicPrefix"));
            }
            if (s.has("ua")) {
                Map<String, Integer> fn = new LinkedHashMap<>();
                JsonNode us = array(s, here, "ua");
                for (int k = 0; k < us.size(); k++) {
                    String uh = here + ".ua[" + k + "]";
                    String link = text(us.get(k), uh, "link");
                    if (fabric.link(link) == null) {
                        throw new PlanException(uh + ".link: unknown link \"" + link + "\"");
                    }
                    fn.put(link, integer(us.get(k), uh, "function"));
                }
                ua.put(id, fn);
            }
            JsonNode ev = field(s, here, "ev");
            List<Arc> t1 = arcList(fabric, array(ev, here + ".ev", "stage1"), here + ".ev.stage1");
            List<Arc> t2 = arcList(fabric, array(ev, here + ".ev", "stage2"), here + ".ev.stage2");
            if (!t1.isEmpty()) {
                ev1.put(id, t1);
            }
            if (!t2.isEmpty()) {
                ev2.put(id, t2);
            }
        }
        Map<String, String> addresses = new LinkedHashMap<>();
        Map<String, Arc> attachments = new LinkedHashMap<>();
        JsonNode ns = array(plan, at, "nics");
        for (int i = 0; i < ns.size(); i++) {
            String here = at + ".nics[" + i + "]";
            String id = text(ns.get(i), here, "id");
            addresses.put(id, text(ns.get(i), here, "address"));
            attachments.put(id, arc(fabric, text(ns.get(i), here, "attachment"), here + ".attachment"));
        }
        for (var n : fabric.nodes()) {
            boolean isSwitch = n.role().isSwitch();
            if (isSwitch && !nodeIds.containsKey(n.id()) || !isSwitch && !attachments.containsKey(n.id())) {
                throw new PlanException(at + ": no entry for " + n.role().jsonName() + " " + n.id());
            }
        }
        return new FabricPlan(fabric, block, nodeIds, tenants, ua, prefixes, addresses, loopbacks, ev1, ev2,
                attachments);
    }

    /** Link states of a snapshot (every link of its fabric). */
    public static Map<String, LinkState> linkStatesFromTree(JsonNode snapshot) throws PlanException {
        JsonNode ls = field(snapshot, "$", "linkStates");
        obj(ls, "$.linkStates");
        Map<String, LinkState> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = ls.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            try {
                out.put(e.getKey(), LinkState.fromJson("$.linkStates." + e.getKey(),
                        e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString()));
            } catch (IllegalArgumentException bad) {
                throw new PlanException("$.linkStates." + e.getKey() + ": must be up, down or drained");
            }
        }
        return out;
    }

    private static List<Arc> arcList(Fabric fabric, JsonNode keys, String at) throws PlanException {
        List<Arc> out = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            out.add(arc(fabric, keys.get(i).asText(), at + "[" + i + "]"));
        }
        return out;
    }

    /** Parses an arc key "linkId>toNode" (link ids may contain '>', node ids may not). */
    private static Arc arc(Fabric fabric, String key, String at) throws PlanException {
        int gt = key.lastIndexOf('>');
        Link l = gt < 0 ? null : fabric.link(key.substring(0, gt));
        String to = gt < 0 ? null : key.substring(gt + 1);
        if (l == null || !l.touches(to)) {
            throw new PlanException(at + ": \"" + key + "\" is not an arc (linkId>toNode) of fabric " + fabric.id());
        }
        return new Arc(l, l.otherEnd(to).node());
    }

    private static void obj(JsonNode n, String at) throws PlanException {
        if (n == null || !n.isObject()) {
            throw new PlanException(at + ": must be an object");
        }
    }

    private static JsonNode field(JsonNode n, String at, String name) throws PlanException {
        JsonNode v = n.get(name);
        if (v == null || v.isNull()) {
            throw new PlanException(at + "." + name + ": required");
        }
        return v;
    }

    private static String text(JsonNode n, String at, String name) throws PlanException {
        JsonNode v = field(n, at, name);
        if (!v.isTextual()) {
            throw new PlanException(at + "." + name + ": must be a string");
        }
        return v.asText();
    }

    private static int integer(JsonNode n, String at, String name) throws PlanException {
        JsonNode v = field(n, at, name);
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new PlanException(at + "." + name + ": must be an integer");
        }
        return v.asInt();
    }

    private static JsonNode array(JsonNode n, String at, String name) throws PlanException {
        JsonNode v = field(n, at, name);
        if (!v.isArray()) {
            throw new PlanException(at + "." + name + ": must be an array");
        }
        return v;
    }
}
