package io.weft.southbound.gnmi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

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
            JsonNode op = replace.get(i);
            String where = "intent of " + switchId + ": replace[" + i + "]";
            if (!op.path("path").isTextual() || !op.path("origin").isTextual()) {
                throw new IllegalArgumentException(where + ": origin and path must be strings");
            }
            if (!op.has("value")) {
                throw new IllegalArgumentException(where + ".value: missing");
            }
            com.github.gnmi.proto.Path path;
            try {
                path = GnmiPaths.parse(op.get("origin").asText(), op.get("path").asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + "." + e.getMessage(), e);
            }
            String key = GnmiPaths.format(path);
            CanonicalJson.Canonical value = CanonicalJson.canonical(op.get("value"));
            String digest = CanonicalJson.digest(value.bytes);
            if (ops.put(key, new IntentOp(key, path, digest, value.bytes, value.routes)) != null) {
                throw new IllegalArgumentException(where + ".path: " + key + " appears twice");
            }
        }
        return Collections.unmodifiableMap(ops);
    }
}
