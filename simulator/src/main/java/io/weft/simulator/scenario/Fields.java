package io.weft.simulator.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

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

    /** A key given twice is an error too: the later one would silently win. */
    static final ObjectMapper MAPPER = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

    /** A file's text; a missing or unreadable file is one line naming it. */
    static String readFile(Path file) throws ScenarioException {
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ScenarioException(file + ": no such file");
        } catch (IOException e) {
            throw new ScenarioException(file + ": cannot read: " + e.getMessage());
        }
    }

    /**
     * The top-level object of a versioned file (a scenario, an incident script): valid JSON, only
     * {@code known} fields, and {@code schemaVersion} the one this reader knows.
     */
    static Fields topLevel(String text, Set<String> known, int schemaVersion) throws ScenarioException {
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ScenarioException("not valid JSON at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage());
        }
        Fields top = object(root, "", known);
        long version = top.integer("schemaVersion", -1);
        if (version != schemaVersion) {
            throw new ScenarioException("schemaVersion: " + (top.has("schemaVersion") ? version + " is not supported"
                    : "missing (required)") + "; this reader knows version " + schemaVersion);
        }
        return top;
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
