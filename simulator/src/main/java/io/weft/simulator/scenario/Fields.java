package io.weft.simulator.scenario;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Strict typed access to one JSON object of the scenario, with the field path that every error
 * message starts with (e.g. {@code flows[3].routing.ev}). Unknown fields are errors: a misspelt
 * optional field would otherwise be silently ignored and run a different scenario.
 */
final class Fields {
    private final JsonNode node;
    private final String path;

    private Fields(JsonNode node, String path) {
        this.node = node;
        this.path = path;
    }

    /** The object at {@code path}, rejecting any field not in {@code known}. */
    static Fields object(JsonNode node, String path, Set<String> known) throws ScenarioException {
        if (node == null || !node.isObject()) {
            throw new ScenarioException(label(path) + ": must be an object");
        }
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String n = names.next();
            if (!known.contains(n)) {
                throw new ScenarioException(join(path, n) + ": unknown field (known: "
                        + String.join(", ", new java.util.TreeSet<>(known)) + ")");
            }
        }
        return new Fields(node, path);
    }

    String path(String field) {
        return join(path, field);
    }

    boolean has(String field) {
        return node.has(field) && !node.get(field).isNull();
    }

    JsonNode raw(String field) {
        return node.get(field);
    }

    String string(String field) throws ScenarioException {
        JsonNode v = require(field);
        if (!v.isTextual() || v.asText().isEmpty()) {
            throw new ScenarioException(path(field) + ": must be a non-empty string");
        }
        return v.asText();
    }

    String string(String field, String dflt) throws ScenarioException {
        return has(field) ? string(field) : dflt;
    }

    double number(String field) throws ScenarioException {
        JsonNode v = require(field);
        if (!v.isNumber() || !Double.isFinite(v.asDouble())) {
            throw new ScenarioException(path(field) + ": must be a finite number");
        }
        return v.asDouble();
    }

    double number(String field, double dflt) throws ScenarioException {
        return has(field) ? number(field) : dflt;
    }

    /** A number that must be > 0 (or >= 0 when {@code zeroOk}). */
    double positive(String field, boolean zeroOk, double dflt) throws ScenarioException {
        if (!has(field)) {
            return dflt;
        }
        double d = number(field);
        if (zeroOk ? d < 0 : d <= 0) {
            throw new ScenarioException(path(field) + ": " + d + " must be " + (zeroOk ? ">= 0" : "> 0"));
        }
        return d;
    }

    long integer(String field, long dflt) throws ScenarioException {
        if (!has(field)) {
            return dflt;
        }
        JsonNode v = node.get(field);
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new ScenarioException(path(field) + ": must be an integer");
        }
        return v.asLong();
    }

    int integer(String field, int min, int max) throws ScenarioException {
        JsonNode v = require(field);
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < min || v.asInt() > max) {
            throw new ScenarioException(path(field) + ": must be an integer in " + min + ".." + max);
        }
        return v.asInt();
    }

    List<String> strings(String field) throws ScenarioException {
        JsonNode v = require(field);
        if (!v.isArray() || v.isEmpty()) {
            throw new ScenarioException(path(field) + ": must be a non-empty array of strings");
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            if (!v.get(i).isTextual()) {
                throw new ScenarioException(path(field) + "[" + i + "]: must be a string");
            }
            out.add(v.get(i).asText());
        }
        return out;
    }

    /** The array at {@code field} (empty when absent and not required). */
    JsonNode array(String field, boolean required) throws ScenarioException {
        if (!has(field)) {
            if (required) {
                throw new ScenarioException(path(field) + ": missing (required)");
            }
            return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        }
        JsonNode v = node.get(field);
        if (!v.isArray()) {
            throw new ScenarioException(path(field) + ": must be an array");
        }
        return v;
    }

    private JsonNode require(String field) throws ScenarioException {
        if (!has(field)) {
            throw new ScenarioException(path(field) + ": missing (required)");
        }
        return node.get(field);
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    private static String label(String path) {
        return path.isEmpty() ? "the scenario" : path;
    }
}
