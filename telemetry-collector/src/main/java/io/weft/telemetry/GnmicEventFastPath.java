package io.weft.telemetry;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * {@link GnmicEventParser}'s common case without a JSON tree: a record of plainly valid events is read
 * token by token straight into {@link InterfaceSample}s (building the tree was a quarter of the
 * collector's per-event cost). Anything else — bad JSON, a duplicate key, a missing field, a counter
 * that is not a small non-negative integer or digit string — returns null, and the tree parser then
 * reads the record and decides, so results and error messages are the tree parser's by construction.
 * Thread-safe.
 */
final class GnmicEventFastPath {
    /**
     * Duplicate keys that matter (timestamp, tags, values, the tags read, a counter or oper-status
     * twice) bail out: the tree keeps the last value, which this reader does not try to mimic. They
     * are tracked by hand: Jackson's strict duplicate detection keeps a hash set per object.
     */
    private static final JsonFactory FACTORY = new JsonFactory();
    /** Value key (a gNMI path, the same few per deployment) → Counter, OPER_STATUS or IGNORED. */
    private static final Map<String, Object> LEAVES = new ConcurrentHashMap<>();
    private static final int MAX_LEAVES = 4096; // keys are attacker-controlled: bound the cache
    private static final Object OPER_STATUS = new Object();
    private static final Object IGNORED = new Object();

    private GnmicEventFastPath() {
    }

    /** The record's samples, or null when the tree parser must decide. */
    static List<InterfaceSample> tryParse(byte[] value) {
        if (value == null) {
            return null;
        }
        try (JsonParser p = FACTORY.createParser(value)) {
            JsonToken t = p.nextToken();
            List<InterfaceSample> out;
            if (t == JsonToken.START_ARRAY) {
                out = new ArrayList<>();
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    InterfaceSample s = t == JsonToken.START_OBJECT ? event(p) : null;
                    if (s == null) {
                        return null;
                    }
                    out.add(s);
                }
            } else if (t == JsonToken.START_OBJECT) {
                InterfaceSample s = event(p);
                if (s == null) {
                    return null;
                }
                out = List.of(s);
            } else {
                return null;
            }
            return p.nextToken() == null ? out : null; // trailing tokens: the tree parser words the error
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** One event object, the parser on its START_OBJECT; null when the tree parser must decide. */
    private static InterfaceSample event(JsonParser p) throws IOException {
        EventDraft e = new EventDraft();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "timestamp" -> {
                    if (!e.timestamp(unsigned(p, v))) {
                        return null;
                    }
                }
                case "tags" -> {
                    if (v != JsonToken.START_OBJECT || !e.tags()) {
                        return null;
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        int bit = switch (p.currentName()) {
                            case "target" -> EventDraft.TARGET;
                            case "source" -> EventDraft.SOURCE;
                            case "interface_name" -> EventDraft.INTERFACE_NAME;
                            case "interface_interface-id" -> EventDraft.INTERFACE_ID;
                            case "queue_name" -> EventDraft.QUEUE_NAME;
                            default -> 0;
                        };
                        if (!e.tag(bit)) {
                            return null;
                        }
                        if (p.nextToken() != JsonToken.VALUE_STRING) {
                            p.skipChildren(); // a non-string tag is ignored, as by the tree parser
                            continue;
                        }
                        e.tagText(bit, p.getText());
                    }
                }
                case "values" -> {
                    if (v != JsonToken.START_OBJECT || !e.values()) {
                        return null;
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        Object kind = kind(p.currentName());
                        JsonToken cv = p.nextToken();
                        if (kind instanceof Counter c) {
                            long n = unsigned(p, cv);
                            if (n < 0 || !e.counter(c, n)) {
                                return null; // maybe a valid big counter, maybe an error: the tree decides
                            }
                        } else if (kind == OPER_STATUS) {
                            if (!e.claimOperStatus()) {
                                return null;
                            }
                            if (cv == JsonToken.VALUE_STRING) {
                                String s = p.getText();
                                e.operStatus(s.substring(s.lastIndexOf(':') + 1).toUpperCase(Locale.ROOT));
                            } else {
                                p.skipChildren();
                            }
                        } else {
                            p.skipChildren();
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
        return e.sample();
    }

    /**
     * A JSON integer that fits a non-negative long, or a string of 1..19 digits (below 2^64) read as
     * unsigned; -1 for anything else (including valid counters of 2^63 and up, left to the tree parser).
     */
    private static long unsigned(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_NUMBER_INT) {
            JsonParser.NumberType type = p.getNumberType();
            if (type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG) {
                long n = p.getLongValue();
                return n >= 0 ? n : -1;
            }
            return -1;
        }
        if (v == JsonToken.VALUE_STRING) {
            String s = p.getText();
            if (s.isEmpty() || s.length() > 19) {
                return -1;
            }
            for (int k = 0; k < s.length(); k++) {
                char c = s.charAt(k);
                if (c < '0' || c > '9') {
                    return -1;
                }
            }
            long n = Long.parseUnsignedLong(s);
            return n >= 0 ? n : -1;
        }
        return -1;
    }

    private static Object kind(String key) {
        Object k = LEAVES.get(key);
        if (k == null) {
            String leaf = GnmicEventParser.leaf(key);
            Counter c = Counter.fromLeaf(leaf);
            k = c != null ? c : leaf.equals("oper-status") ? OPER_STATUS : IGNORED;
            if (LEAVES.size() < MAX_LEAVES) {
                LEAVES.put(key, k);
            }
        }
        return k;
    }
}
