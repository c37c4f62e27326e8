package io.weft.telemetry;

import static io.weft.telemetry.TelemetryFormatException.Code.BAD_COUNTER;
import static io.weft.telemetry.TelemetryFormatException.Code.NOT_EVENT;
import static io.weft.telemetry.TelemetryFormatException.Code.NOT_JSON;
import static io.weft.telemetry.TelemetryFormatException.Code.NO_INTERFACE;
import static io.weft.telemetry.TelemetryFormatException.Code.NO_TARGET;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Turns the value of a {@code weft.telemetry.interfaces} record (gnmic's kafka output, format
 * {@code event}) into {@link InterfaceSample}s, one per event, as specified by
 * contracts/vectors/gnmic-events.json:
 * <ul>
 *   <li>a record is one event object or an array of them; an empty array gives no samples;</li>
 *   <li>target = {@code tags.target}, else {@code tags.source}; interface = {@code tags.interface_name},
 *       else {@code tags["interface_interface-id"]} (qos paths); queue = {@code tags.queue_name};</li>
 *   <li>a value's leaf is the last element of its path, without {@code origin:} or module prefix,
 *       so {@code openconfig:/openconfig-interfaces:interfaces/.../openconfig-interfaces:in-octets}
 *       is {@code in-octets}; known counters are read, {@code oper-status} too, the rest ignored;</li>
 *   <li>counters are JSON integers or decimal strings in 0..2^64-1 (gnmic sends uint64 as strings).</li>
 * </ul>
 * A record is all or nothing: one bad event rejects it whole, so that a dead-lettered record can be
 * replayed after a fix without duplicating the samples that were good. Thread-safe.
 */
public final class GnmicEventParser {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final Pattern DIGITS = Pattern.compile("[0-9]+");
    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final String OPER_STATUS = "oper-status";

    /** Parses one record value; never returns null. */
    public List<InterfaceSample> parse(String recordValue) throws TelemetryFormatException {
        JsonNode root;
        try {
            root = recordValue == null ? null : MAPPER.readTree(recordValue);
        } catch (JsonProcessingException e) {
            throw new TelemetryFormatException(NOT_JSON, "record is not JSON: " + e.getOriginalMessage());
        }
        return samples(root);
    }

    /**
     * Parses one record value as Kafka delivers it (UTF-8 bytes, null for a tombstone), without first
     * decoding it to a String. Plainly valid records are read without a JSON tree: by a byte scanner
     * ({@link GnmicEventScanner}; ASCII, no escapes), else token by token ({@link GnmicEventFastPath});
     * the rest (and every error) go through the tree, as {@link #parse(String)}.
     */
    public List<InterfaceSample> parseUtf8(byte[] recordValue) throws TelemetryFormatException {
        List<InterfaceSample> fast = GnmicEventScanner.tryParse(recordValue);
        if (fast == null) {
            fast = GnmicEventFastPath.tryParse(recordValue); // escapes, non-ASCII names, deep nesting
        }
        if (fast != null) {
            return fast;
        }
        JsonNode root;
        try {
            root = recordValue == null ? null : MAPPER.readTree(recordValue);
        } catch (JsonProcessingException e) {
            throw new TelemetryFormatException(NOT_JSON, "record is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new TelemetryFormatException(NOT_JSON, "record is not JSON: " + e.getMessage());
        }
        return samples(root);
    }

    private static List<InterfaceSample> samples(JsonNode root) throws TelemetryFormatException {
        if (root == null || root.isMissingNode()) {
            throw new TelemetryFormatException(NOT_JSON, "record is empty");
        }
        if (root.isArray()) {
            List<InterfaceSample> out = new ArrayList<>(root.size());
            for (int i = 0; i < root.size(); i++) {
                out.add(event(root.get(i), i));
            }
            return out;
        }
        return List.of(event(root, -1));
    }

    /** The JSON path of event {@code index} (-1: the record is a single event), built only for errors. */
    private static String at(int index) {
        return index < 0 ? "$" : "$[" + index + "]";
    }

    private static InterfaceSample event(JsonNode e, int index) throws TelemetryFormatException {
        try {
            return event(e);
        } catch (TelemetryFormatException x) {
            // Paths in messages are relative to the event ("$..."): prefix them with the event's place.
            throw new TelemetryFormatException(x.code(), at(index) + x.getMessage().substring(1));
        }
    }

    private static InterfaceSample event(JsonNode e) throws TelemetryFormatException {
        String at = "$";
        if (!e.isObject()) {
            throw new TelemetryFormatException(NOT_EVENT,
                    at + ": must be a gnmic event object, got " + e.getNodeType());
        }
        JsonNode tags = e.get("tags");
        JsonNode values = e.get("values");
        if (tags == null || !tags.isObject()) {
            throw new TelemetryFormatException(NOT_EVENT, at + ".tags: required, must be an object");
        }
        if (values == null || !values.isObject()) {
            throw new TelemetryFormatException(NOT_EVENT, at + ".values: required, must be an object");
        }
        long timestampNs = timestamp(e.get("timestamp"), at + ".timestamp");
        String target = firstTag(tags, "target", "source");
        if (target == null) {
            throw new TelemetryFormatException(NO_TARGET, at + ".tags: no target or source tag");
        }
        String iface = firstTag(tags, "interface_name", "interface_interface-id");
        if (iface == null) {
            throw new TelemetryFormatException(NO_INTERFACE,
                    at + ".tags: no interface_name or interface_interface-id tag");
        }
        String queue = firstTag(tags, "queue_name");
        Map<Counter, Long> counters = new EnumMap<>(Counter.class);
        String operStatus = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = values.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> v = it.next();
            String leaf = leaf(v.getKey());
            Counter c = Counter.fromLeaf(leaf);
            if (c != null) {
                counters.put(c, uint64(v.getValue(), at, v.getKey()));
            } else if (leaf.equals(OPER_STATUS) && v.getValue().isTextual()) {
                operStatus = withoutPrefix(v.getValue().asText()).toUpperCase(Locale.ROOT);
            }
        }
        return new InterfaceSample(target, iface, queue, timestampNs, counters, operStatus);
    }

    /** The leaf of a gNMI path string: its last element without origin or module prefix. */
    static String leaf(String path) {
        return withoutPrefix(path.substring(path.lastIndexOf('/') + 1));
    }

    private static String withoutPrefix(String s) {
        return s.substring(s.lastIndexOf(':') + 1);
    }

    /** The first of these tags that is a non-empty string, or null. */
    private static String firstTag(JsonNode tags, String... names) {
        for (String n : names) {
            JsonNode t = tags.get(n);
            if (t != null && t.isTextual() && !t.asText().isEmpty()) {
                return t.asText();
            }
        }
        return null;
    }

    private static long timestamp(JsonNode t, String at) throws TelemetryFormatException {
        if (t != null && t.isIntegralNumber() && t.canConvertToLong() && t.asLong() >= 0) {
            return t.asLong();
        }
        if (t != null && t.isTextual() && DIGITS.matcher(t.asText()).matches() && t.asText().length() <= 19) {
            // 19 digits can exceed Long.MAX_VALUE (9.2e18): parse as unsigned, then range-check.
            long v = Long.parseUnsignedLong(t.asText());
            if (v >= 0) {
                return v;
            }
        }
        throw new TelemetryFormatException(NOT_EVENT, at + ": required, ns since the epoch as an integer (got "
                + (t == null ? "nothing" : t.toString()) + ")");
    }

    /** A counter value as an unsigned 64-bit integer held in a long. */
    private static long uint64(JsonNode v, String at, String key) throws TelemetryFormatException {
        // Fast paths first (this runs for every counter of every sample): a long-sized JSON integer,
        // or a string of at most 19 digits (< 10^19 < 2^64). BigInteger only for the rest.
        if (v.isIntegralNumber() && v.canConvertToLong() && v.asLong() >= 0) {
            return v.asLong();
        }
        if (v.isTextual()) {
            String t = v.asText();
            if (!t.isEmpty() && t.length() <= 19 && allDigits(t)) {
                return Long.parseUnsignedLong(t);
            }
        }
        BigInteger n = null;
        if (v.isIntegralNumber()) {
            n = v.bigIntegerValue();
        } else if (v.isTextual() && DIGITS.matcher(v.asText()).matches()) {
            n = new BigInteger(v.asText());
        }
        if (n == null || n.signum() < 0 || n.compareTo(UINT64_MAX) > 0) {
            // The field path is built only here: building it for every counter cost more than parsing it.
            throw new TelemetryFormatException(BAD_COUNTER, at + ".values[\"" + key + "\"]: " + v
                    + " is not a counter (0..2^64-1)");
        }
        return n.longValue(); // the low 64 bits: the unsigned value
    }

    private static boolean allDigits(String t) {
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
