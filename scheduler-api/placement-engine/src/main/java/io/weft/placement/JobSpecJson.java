package io.weft.placement;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Strict reader of job files (scheduler-api/placement-engine/README.md): unknown fields and wrong types are errors
 * naming the field, e.g. {@code flows[2].demandGbps: must be a number}.
 */
public final class JobSpecJson {
    private static final Set<String> JOB_FIELDS = Set.of("name", "tenant", "pattern", "endpoints", "demandGbps",
            "qpSlices", "concurrentPeers", "order", "flows");
    private static final Set<String> FLOW_FIELDS = Set.of("src", "dst", "demandGbps");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JobSpecJson() {
    }

    public static JobSpec parse(String text) throws PlacementException {
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new PlacementException("$", "not valid JSON: " + e.getOriginalMessage());
        }
        return fromTree(root);
    }

    public static JobSpec fromTree(JsonNode root) throws PlacementException {
        if (root == null || !root.isObject()) {
            throw new PlacementException("$", "must be a JSON object");
        }
        known(root, JOB_FIELDS, "");
        List<String> endpoints = new ArrayList<>();
        JsonNode eps = root.get("endpoints");
        if (eps != null && !eps.isNull()) {
            if (!eps.isArray()) {
                throw new PlacementException("endpoints", "must be an array of NIC ids");
            }
            for (int i = 0; i < eps.size(); i++) {
                if (!eps.get(i).isTextual()) {
                    throw new PlacementException("endpoints[" + i + "]", "must be a string");
                }
                endpoints.add(eps.get(i).asText());
            }
        }
        List<JobSpec.FlowSpec> flows = new ArrayList<>();
        JsonNode fl = root.get("flows");
        if (fl != null && !fl.isNull()) {
            if (!fl.isArray()) {
                throw new PlacementException("flows", "must be an array");
            }
            for (int i = 0; i < fl.size(); i++) {
                JsonNode f = fl.get(i);
                String at = "flows[" + i + "]";
                if (!f.isObject()) {
                    throw new PlacementException(at, "must be an object");
                }
                known(f, FLOW_FIELDS, at + ".");
                flows.add(new JobSpec.FlowSpec(string(f, "src", at + ".", true), string(f, "dst", at + ".", true),
                        number(f, "demandGbps", at + ".", 0)));
            }
        }
        return new JobSpec(string(root, "name", "", true), string(root, "tenant", "", false),
                string(root, "pattern", "", true), endpoints, number(root, "demandGbps", "", 0),
                integer(root, "qpSlices", 1), integer(root, "concurrentPeers", 0), string(root, "order", "", false),
                flows);
    }

    private static void known(JsonNode obj, Set<String> fields, String prefix) throws PlacementException {
        for (Iterator<String> it = obj.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!fields.contains(k)) {
                throw new PlacementException(prefix + k, "unknown field");
            }
        }
    }

    private static String string(JsonNode obj, String name, String prefix, boolean required)
            throws PlacementException {
        JsonNode v = obj.get(name);
        if (v == null || v.isNull()) {
            if (required) {
                throw new PlacementException(prefix + name, "is required");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw new PlacementException(prefix + name, "must be a string");
        }
        return v.asText();
    }

    private static double number(JsonNode obj, String name, String prefix, double dflt) throws PlacementException {
        JsonNode v = obj.get(name);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isNumber()) {
            throw new PlacementException(prefix + name, "must be a number");
        }
        return v.asDouble();
    }

    private static int integer(JsonNode obj, String name, int dflt) throws PlacementException {
        JsonNode v = obj.get(name);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new PlacementException(name, "must be an integer");
        }
        return v.asInt();
    }
}
