package io.weft.fabric;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads and writes fabric files (contracts/fabric.schema.json, schemaVersion 1).
 *
 * <p>Reading is strict: unknown fields, wrong types and missing required fields are errors that
 * name the JSON path, so a typo never silently becomes a default. Writing is deterministic (field
 * order fixed, file order of nodes and links kept) so generated files diff cleanly.
 */
public final class FabricJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT);

    private static final Set<String> TOP_FIELDS = Set.of(
            "$schema", "schemaVersion", "id", "name", "family", "srv6", "tenants", "params", "nodes", "links");
    private static final Set<String> SRV6_FIELDS = Set.of("block");
    private static final Set<String> NODE_FIELDS = Set.of(
            "id", "name", "role", "pod", "group", "plane", "rail", "server", "srv6NodeId", "address", "gnmi");
    private static final Set<String> GNMI_FIELDS = Set.of(
            "address", "port", "tls", "caFile", "certFile", "keyFile", "usernameEnv", "passwordEnv");
    private static final Set<String> LINK_FIELDS = Set.of("id", "a", "b", "capacityGbps", "latencyNs");
    private static final Set<String> END_FIELDS = Set.of("node", "port");

    private FabricJson() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static Fabric read(Path file) throws FabricFormatException {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new FabricFormatException(file + ": no such file");
        } catch (IOException e) {
            throw new FabricFormatException(file + ": cannot read: " + e.getMessage());
        }
        return parse(text);
    }

    public static Fabric parse(String text) throws FabricFormatException {
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            String why = e.getOriginalMessage();
            // Jackson appends the start marker's location (with a "Source: REDACTED" note): noise
            // in a one-line error that already names the line and column.
            int cut = why.indexOf(" (start marker at");
            if (cut >= 0) {
                why = why.substring(0, cut);
            }
            throw new FabricFormatException("not valid JSON at line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ": " + why);
        }
        if (root == null || root.isMissingNode()) {
            throw new FabricFormatException("empty file");
        }
        return fromTree(root);
    }

    public static Fabric fromTree(JsonNode root) throws FabricFormatException {
        requireObject(root, "$");
        onlyFields(root, "$", TOP_FIELDS);
        int version = requiredInt(root, "$", "schemaVersion");
        if (version != Fabric.SCHEMA_VERSION) {
            throw new FabricFormatException("$.schemaVersion: " + version + " is not supported (expected "
                    + Fabric.SCHEMA_VERSION + ")");
        }
        String id = requiredString(root, "$", "id");
        String name = optionalString(root, "$", "name");
        String family = optionalString(root, "$", "family");
        String block = null;
        if (root.has("srv6")) {
            JsonNode s = root.get("srv6");
            requireObject(s, "$.srv6");
            onlyFields(s, "$.srv6", SRV6_FIELDS);
            block = requiredString(s, "$.srv6", "block");
        }
        List<String> tenants = new ArrayList<>();
        if (root.has("tenants")) {
            JsonNode t = root.get("tenants");
            if (!t.isArray()) {
                throw new FabricFormatException("$.tenants: must be an array of tenant names");
            }
            for (int i = 0; i < t.size(); i++) {
                if (!t.get(i).isTextual()) {
                    throw new FabricFormatException("$.tenants[" + i + "]: must be a string");
                }
                tenants.add(t.get(i).asText());
            }
        }
        Map<String, Object> params = new LinkedHashMap<>();
        if (root.has("params")) {
            requireObject(root.get("params"), "$.params");
            params = MAPPER.convertValue(root.get("params"), LinkedHashMap.class);
        }
        List<Node> nodes = new ArrayList<>();
        JsonNode ns = requiredArray(root, "$", "nodes");
        for (int i = 0; i < ns.size(); i++) {
            nodes.add(node(ns.get(i), "$.nodes[" + i + "]"));
        }
        List<Link> links = new ArrayList<>();
        JsonNode ls = requiredArray(root, "$", "links");
        for (int i = 0; i < ls.size(); i++) {
            links.add(link(ls.get(i), "$.links[" + i + "]"));
        }
        return new Fabric(id, name, family, block, tenants, nodes, links, params);
    }

    private static Node node(JsonNode n, String at) throws FabricFormatException {
        requireObject(n, at);
        onlyFields(n, at, NODE_FIELDS);
        String id = requiredString(n, at, "id");
        String roleName = requiredString(n, at, "role");
        Role role = Role.fromJson(roleName);
        if (role == null) {
            throw new FabricFormatException(at + ".role: unknown role \"" + roleName
                    + "\" (expected nic, leaf, spine, superspine or router)");
        }
        return Node.builder(id, role)
                .name(optionalString(n, at, "name"))
                .pod(optionalInt(n, at, "pod"))
                .group(optionalInt(n, at, "group"))
                .plane(optionalInt(n, at, "plane"))
                .rail(optionalInt(n, at, "rail"))
                .server(optionalString(n, at, "server"))
                .srv6NodeId(optionalInt(n, at, "srv6NodeId"))
                .address(optionalString(n, at, "address"))
                .gnmi(gnmi(n.get("gnmi"), at + ".gnmi"))
                .build();
    }

    private static GnmiEndpoint gnmi(JsonNode g, String at) throws FabricFormatException {
        if (g == null || g.isNull()) {
            return null;
        }
        requireObject(g, at);
        onlyFields(g, at, GNMI_FIELDS);
        Integer port = optionalInt(g, at, "port");
        JsonNode tls = g.get("tls");
        if (tls != null && !tls.isBoolean()) {
            throw new FabricFormatException(at + ".tls: must be true or false");
        }
        return new GnmiEndpoint(requiredString(g, at, "address"), port == null ? GnmiEndpoint.DEFAULT_PORT : port,
                tls != null && tls.booleanValue(), optionalString(g, at, "caFile"), optionalString(g, at, "certFile"),
                optionalString(g, at, "keyFile"), optionalString(g, at, "usernameEnv"),
                optionalString(g, at, "passwordEnv"));
    }

    private static Link link(JsonNode l, String at) throws FabricFormatException {
        requireObject(l, at);
        onlyFields(l, at, LINK_FIELDS);
        String id = requiredString(l, at, "id");
        Endpoint a = end(l, at, "a");
        Endpoint b = end(l, at, "b");
        JsonNode cap = l.get("capacityGbps");
        if (cap == null) {
            throw new FabricFormatException(at + ".capacityGbps: required");
        }
        if (!cap.isNumber()) {
            throw new FabricFormatException(at + ".capacityGbps: must be a number (Gbit/s)");
        }
        long latency = 0;
        if (l.has("latencyNs")) {
            JsonNode lat = l.get("latencyNs");
            if (!lat.isIntegralNumber()) {
                throw new FabricFormatException(at + ".latencyNs: must be an integer (ns)");
            }
            latency = lat.asLong();
        }
        return new Link(id, a, b, cap.asDouble(), latency);
    }

    private static Endpoint end(JsonNode l, String at, String field) throws FabricFormatException {
        JsonNode e = l.get(field);
        String here = at + "." + field;
        if (e == null) {
            throw new FabricFormatException(here + ": required");
        }
        requireObject(e, here);
        onlyFields(e, here, END_FIELDS);
        return new Endpoint(requiredString(e, here, "node"), requiredString(e, here, "port"));
    }

    private static void requireObject(JsonNode n, String at) throws FabricFormatException {
        if (!n.isObject()) {
            throw new FabricFormatException(at + ": must be an object");
        }
    }

    private static void onlyFields(JsonNode n, String at, Set<String> allowed) throws FabricFormatException {
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw new FabricFormatException(at + "." + f + ": unknown field");
            }
        }
    }

    private static String requiredString(JsonNode n, String at, String field) throws FabricFormatException {
        String s = optionalString(n, at, field);
        if (s == null) {
            throw new FabricFormatException(at + "." + field + ": required");
        }
        if (s.isEmpty()) {
            throw new FabricFormatException(at + "." + field + ": must not be empty");
        }
        return s;
    }

    private static String optionalString(JsonNode n, String at, String field) throws FabricFormatException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new FabricFormatException(at + "." + field + ": must be a string");
        }
        return v.asText();
    }

    private static int requiredInt(JsonNode n, String at, String field) throws FabricFormatException {
        Integer i = optionalInt(n, at, field);
        if (i == null) {
            throw new FabricFormatException(at + "." + field + ": required");
        }
        return i;
    }

    private static Integer optionalInt(JsonNode n, String at, String field) throws FabricFormatException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new FabricFormatException(at + "." + field + ": must be an integer");
        }
        return v.asInt();
    }

    private static JsonNode requiredArray(JsonNode n, String at, String field) throws FabricFormatException {
        JsonNode v = n.get(field);
        if (v == null) {
            throw new FabricFormatException(at + "." + field + ": required");
        }
        if (!v.isArray()) {
            throw new FabricFormatException(at + "." + field + ": must be an array");
        }
        return v;
    }

    private static void gnmiTree(ObjectNode o, GnmiEndpoint g) {
        o.put("address", g.address());
        o.put("port", g.port());
        o.put("tls", g.tls());
        String[][] files = {{"caFile", g.caFile()}, {"certFile", g.certFile()}, {"keyFile", g.keyFile()},
            {"usernameEnv", g.usernameEnv()}, {"passwordEnv", g.passwordEnv()}};
        for (String[] f : files) {
            if (f[1] != null) {
                o.put(f[0], f[1]);
            }
        }
    }

    /** The fabric as a JSON tree, fields in schema order, optional fields only when set. */
    public static ObjectNode toTree(Fabric f) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schemaVersion", Fabric.SCHEMA_VERSION);
        root.put("id", f.id());
        root.put("name", f.name());
        root.put("family", f.family());
        root.putObject("srv6").put("block", f.srv6Block());
        ArrayNode tenants = root.putArray("tenants");
        f.tenants().forEach(tenants::add);
        if (!f.params().isEmpty()) {
            root.set("params", MAPPER.valueToTree(f.params()));
        }
        ArrayNode nodes = root.putArray("nodes");
        for (Node n : f.nodes()) {
            ObjectNode o = nodes.addObject();
            o.put("id", n.id());
            if (!n.name().equals(n.id())) {
                o.put("name", n.name());
            }
            o.put("role", n.role().jsonName());
            putIfSet(o, "pod", n.pod());
            putIfSet(o, "group", n.group());
            putIfSet(o, "plane", n.plane());
            putIfSet(o, "rail", n.rail());
            if (n.server() != null) {
                o.put("server", n.server());
            }
            putIfSet(o, "srv6NodeId", n.srv6NodeId());
            if (n.address() != null) {
                o.put("address", n.address());
            }
            if (n.gnmi() != null) {
                gnmiTree(o.putObject("gnmi"), n.gnmi());
            }
        }
        ArrayNode links = root.putArray("links");
        for (Link l : f.links()) {
            ObjectNode o = links.addObject();
            o.put("id", l.id());
            o.putObject("a").put("node", l.a().node()).put("port", l.a().port());
            o.putObject("b").put("node", l.b().node()).put("port", l.b().port());
            if (l.capacityGbps() == Math.rint(l.capacityGbps())) {
                o.put("capacityGbps", (long) l.capacityGbps());
            } else {
                o.put("capacityGbps", l.capacityGbps());
            }
            o.put("latencyNs", l.latencyNs());
        }
        return root;
    }

    public static String write(Fabric f) {
        try {
            return MAPPER.writeValueAsString(toTree(f)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("fabric could not be serialised", e);
        }
    }

    private static void putIfSet(ObjectNode o, String field, Integer v) {
        if (v != null) {
            o.put(field, v);
        }
    }
}
