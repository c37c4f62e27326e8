package io.weft.contracts;

import java.io.IOException;
import java.math.BigInteger;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Strict reading of one JSON object of a contract: every field the schema names is read through
 * here, and {@link #done()} refuses any other. Each error is a {@link ContractException} naming the
 * field. Hand-written against the schema rather than schema-validated so that it runs on hot paths
 * (a record per sample) and inside ONOS without a validator; the contracts tests hold each type's
 * reader to its schema with the shared vectors.
 */
final class Strict {
    /** fabric.schema.json#/$defs/id. */
    static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    /** flow-report.schema.json#/$defs/uint64 (the range is checked apart). */
    static final Pattern UINT64 = Pattern.compile("0|[1-9][0-9]{0,19}");
    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    /** Integers stay exact (BigInteger/long) and doubles are not widened: a reader sees what was sent. */
    static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final JsonNode node;
    private final String path;
    private final Set<String> known = new LinkedHashSet<>();

    private Strict(JsonNode node, String path) {
        this.node = node;
        this.path = path;
    }

    /** The JSON text as a tree; a syntax error is a ContractException on {@code $}. */
    static JsonNode parse(String json) {
        if (json == null) {
            throw new ContractException("$", "no value (null record)");
        }
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new ContractException("$", "not JSON: " + e.getOriginalMessage());
        }
    }

    /** The JSON bytes as a tree; a syntax error is a ContractException on {@code $}. */
    static JsonNode parse(byte[] json) {
        if (json == null) {
            throw new ContractException("$", "no value (null record)");
        }
        try {
            return MAPPER.readTree(json);
        } catch (IOException e) {
            throw new ContractException("$", "not JSON: " + e.getMessage());
        }
    }

    /** Reads {@code node} as an object at {@code path} ("" for the value itself). */
    static Strict object(JsonNode node, String path) {
        if (node == null || !node.isObject()) {
            throw new ContractException(path.isEmpty() ? "$" : path, "must be a JSON object");
        }
        return new Strict(node, path);
    }

    /**
     * Reads one top-level contract value: a JSON object with {@code "schemaVersion": version} whose
     * other fields {@code fields} reads; a field it did not read is refused (additionalProperties: false).
     * The prologue and epilogue every contract type's reader shares.
     */
    static <T> T value(JsonNode node, int version, Item<T> fields) {
        Strict o = object(node, "");
        o.schemaVersion(version);
        T value = fields.read(o);
        o.done();
        return value;
    }

    String at(String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    private JsonNode required(String field) {
        known.add(field);
        JsonNode v = node.get(field);
        if (v == null) {
            throw new ContractException(at(field), "required");
        }
        return v;
    }

    private JsonNode optional(String field) {
        known.add(field);
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v;
    }

    /** {@code "schemaVersion": 1}. */
    void schemaVersion(int expected) {
        JsonNode v = required("schemaVersion");
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() != expected) {
            throw new ContractException(at("schemaVersion"), "must be " + expected + " (got " + v + ")");
        }
    }

    /** A required string with at least {@code minLength} characters. */
    String string(String field, int minLength) {
        return checkedString(field, required(field), minLength);
    }

    /** A required string that may be null (not reported), with at least {@code minLength} characters otherwise. */
    String nullableString(String field, int minLength) {
        JsonNode v = required(field);
        return v.isNull() ? null : checkedString(field, v, minLength);
    }

    /** An optional string (absent or null gives null) with at least {@code minLength} characters. */
    String optionalString(String field, int minLength) {
        JsonNode v = optional(field);
        return v == null ? null : checkedString(field, v, minLength);
    }

    private String checkedString(String field, JsonNode v, int minLength) {
        if (!v.isTextual()) {
            throw new ContractException(at(field), "must be a string (got " + v.getNodeType() + ")");
        }
        if (v.textValue().length() < minLength) {
            throw new ContractException(at(field), minLength == 1 ? "must not be empty"
                    : "must have at least " + minLength + " characters");
        }
        return v.textValue();
    }

    /** A required identifier (fabric.schema.json#/$defs/id). */
    String id(String field) {
        String s = string(field, 1);
        if (!ID.matcher(s).matches()) {
            throw new ContractException(at(field), "not an identifier (letters, digits, . _ -; at most 128): "
                    + quote(s));
        }
        return s;
    }

    /** A required unsigned 64-bit integer written as a decimal string; returned as an unsigned long. */
    long uint64(String field) {
        JsonNode v = required(field);
        if (!v.isTextual() || !UINT64.matcher(v.textValue()).matches()
                || new BigInteger(v.textValue()).compareTo(UINT64_MAX) > 0) {
            throw new ContractException(at(field), "must be an unsigned 64-bit integer as a decimal string (got "
                    + v + ")");
        }
        return Long.parseUnsignedLong(v.textValue());
    }

    /** A required number in [min, max] (min exclusive when {@code minExclusive}). */
    double number(String field, double min, boolean minExclusive, double max) {
        JsonNode v = required(field);
        if (v.isNull()) {
            throw new ContractException(at(field), "must be a number, not null");
        }
        return checkedNumber(field, v, min, minExclusive, max);
    }

    /** A required number that may be null (unknown), returned as NaN then. */
    double nullableNumber(String field, double min, double max) {
        JsonNode v = required(field);
        return v.isNull() ? Double.NaN : checkedNumber(field, v, min, false, max);
    }

    /** A required ratio in [0, 1] that may be null (unknown), returned as NaN then. */
    double nullableRatio(String field) {
        return nullableNumber(field, 0, 1);
    }

    /** An optional number (absent or null gives NaN). */
    double optionalNumber(String field, double min, double max) {
        JsonNode v = optional(field);
        return v == null ? Double.NaN : checkedNumber(field, v, min, false, max);
    }

    private double checkedNumber(String field, JsonNode v, double min, boolean minExclusive, double max) {
        if (!v.isNumber()) {
            throw new ContractException(at(field), "must be a number (got " + v + ")");
        }
        double d = v.doubleValue();
        if (minExclusive ? !(d > min) : !(d >= min)) {
            throw new ContractException(at(field), "must be " + (minExclusive ? "> " : ">= ") + num(min)
                    + " (got " + v + ")");
        }
        if (d > max) {
            throw new ContractException(at(field), "must be <= " + num(max) + " (got " + v + ")");
        }
        return d;
    }

    /** An optional integer in [min, max]; absent or null gives null. */
    Integer optionalInt(String field, int min, int max) {
        JsonNode v = optional(field);
        if (v == null) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < min || v.intValue() > max) {
            throw new ContractException(at(field), "must be an integer in " + min + ".." + max + " (got " + v + ")");
        }
        return v.intValue();
    }

    boolean bool(String field) {
        JsonNode v = required(field);
        if (!v.isBoolean()) {
            throw new ContractException(at(field), "must be true or false (got " + v + ")");
        }
        return v.booleanValue();
    }

    /** A required RFC 3339 date-time. */
    Instant dateTime(String field) {
        String s = string(field, 1);
        try {
            return OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            throw new ContractException(at(field), "not an RFC 3339 date-time: " + quote(s));
        }
    }

    /** A required array of objects, each read by {@code item} at {@code field[i]}. */
    <T> List<T> objects(String field, Item<T> item) {
        JsonNode v = required(field);
        return items(field, v, item);
    }

    /** An optional array of objects (absent or null gives an empty list). */
    <T> List<T> optionalObjects(String field, Item<T> item) {
        JsonNode v = optional(field);
        return v == null ? List.of() : items(field, v, item);
    }

    private <T> List<T> items(String field, JsonNode v, Item<T> item) {
        if (!v.isArray()) {
            throw new ContractException(at(field), "must be an array");
        }
        List<T> out = new ArrayList<>(v.size());
        for (int i = 0; i < v.size(); i++) {
            String itemPath = at(field) + "[" + i + "]";
            out.add(item.read(object(v.get(i), itemPath)));
        }
        return List.copyOf(out);
    }

    /** True when the object has the field (null included). */
    boolean has(String field) {
        return node.has(field);
    }

    /** Refuses every field not read (additionalProperties: false). */
    void done() {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String n = names.next();
            if (!known.contains(n)) {
                throw new ContractException(at(n), "unknown field");
            }
        }
    }

    /** Reads the fields of one object (a contract value or an array item). */
    interface Item<T> {
        T read(Strict item);
    }

    static String quote(String s) {
        return s == null ? "null" : "\"" + s + "\"";
    }

    private static String num(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }
}
