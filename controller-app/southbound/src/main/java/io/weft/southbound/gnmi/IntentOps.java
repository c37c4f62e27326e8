package io.weft.southbound.gnmi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.gnmi.proto.Path;
import io.weft.plan.intent.IntentChanges;

/**
 * Reads what {@code DeviceIntent.render(plan, switchId)} produces,
 * {@code {"target": sw, "replace": [{"origin", "path", "value"}, ...]}}, into ops keyed by their
 * canonical path. Rejects a malformed intent naming the field, before anything reaches a switch.
 */
public final class IntentOps {
    private IntentOps() {
    }

    /** @throws IllegalArgumentException a field is missing or a path cannot be parsed (message names it) */
    public static Map<String, IntentOp> read(String switchId, JsonNode intent) {
        if (intent == null || !intent.isObject()) {
            throw new IllegalArgumentException("intent of " + switchId + ": must be a JSON object");
        }
        String target = intent.path("target").asText("");
        if (!target.equals(switchId)) {
            throw new IllegalArgumentException("intent of " + switchId + ": target is '" + target + "'");
        }
        JsonNode replace = intent.path("replace");
        if (!replace.isArray()) {
            throw new IllegalArgumentException("intent of " + switchId + ": replace must be an array");
        }
        Map<String, IntentOp> ops = new LinkedHashMap<>();
        for (int i = 0; i < replace.size(); i++) {
            String where = "intent of " + switchId + ": replace[" + i + "]";
            IntentOp op = readOp(replace.get(i), where);
            if (ops.put(op.key(), op) != null) {
                throw new IllegalArgumentException(where + ".path: " + op.key() + " appears twice");
            }
        }
        return Collections.unmodifiableMap(ops);
    }

    /** One {@code {"origin","path","value"}} op; {@code where} names it in errors. */
    static IntentOp readOp(JsonNode op, String where) {
        if (!op.path("path").isTextual() || !op.path("origin").isTextual()) {
            throw new IllegalArgumentException(where + ": origin and path must be strings");
        }
        if (!op.has("value")) {
            throw new IllegalArgumentException(where + ".value: missing");
        }
        Path path = path(op, where);
        String key = GnmiPaths.format(path);
        CanonicalJson.Canonical value = CanonicalJson.canonical(op.get("value"));
        return new IntentOp(key, path, CanonicalJson.digest(value.bytes), value.bytes, value.routes);
    }

    private static Path path(JsonNode op, String where) {
        try {
            return GnmiPaths.parse(op.get("origin").asText(), op.get("path").asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + "." + e.getMessage(), e);
        }
    }

    /**
     * The ops of {@code base} (an intent as read, or as the provisioner keeps it once confirmed) with a
     * route-level change applied: whole ops replaced or deleted, and the changed routes of instances
     * folded into their route index with their JSON alone (no digest; see {@link IntentOp#sameValue}).
     *
     * @return null when the change does not fit {@code base} (an instance it names is absent or has no
     *         route index): the caller reads the whole intent instead
     */
    public static Map<String, IntentOp> apply(String switchId, Map<String, IntentOp> base,
            IntentChanges.SwitchChange change) {
        Map<String, IntentOp> ops = new LinkedHashMap<>(base);
        List<ObjectNode> replace = change.replace();
        for (int i = 0; i < replace.size(); i++) {
            IntentOp op = readOp(replace.get(i), "change of " + switchId + ": replace[" + i + "]");
            ops.put(op.key(), op);
        }
        List<ObjectNode> delete = change.delete();
        for (int i = 0; i < delete.size(); i++) {
            ops.remove(GnmiPaths.format(path(delete.get(i), "change of " + switchId + ": delete[" + i + "]")));
        }
        // Routes grouped by instance: one new index per instance.
        Map<String, List<IntentChanges.RouteChange>> byInstance = new LinkedHashMap<>();
        for (IntentChanges.RouteChange r : change.routes()) {
            String key = GnmiPaths.format(GnmiPaths.parse(r.origin(), r.instancePath()));
            byInstance.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
        }
        for (Map.Entry<String, List<IntentChanges.RouteChange>> e : byInstance.entrySet()) {
            IntentOp was = ops.get(e.getKey());
            if (was == null || was.routes() == null) {
                return null;
            }
            Map<String, Long> hashes = new LinkedHashMap<>();
            Map<String, byte[]> json = new HashMap<>();
            Set<String> removed = new HashSet<>();
            for (IntentChanges.RouteChange r : e.getValue()) {
                String id = RouteIndex.id(r.protocolIdentifier(), r.protocolName(), r.prefix());
                if (r.value() == null) {
                    removed.add(id);
                } else {
                    byte[] b = CanonicalJson.bytes(r.value());
                    hashes.put(id, CanonicalJson.hash64(b, 0, b.length));
                    json.put(id, b);
                }
            }
            ops.put(e.getKey(), new IntentOp(was.key(), was.path(), null, null,
                    was.routes().with(hashes, removed), json));
        }
        return Collections.unmodifiableMap(ops);
    }
}
