package io.weft.telemetry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@link GnmicEventParser}'s first tier: reads the bytes of a plainly valid gnmic event record
 * straight into {@link InterfaceSample}s with no JSON library. A value key (a long gNMI path) is
 * matched by a hash taken while its bytes are scanned and one probe of a {@link ByteKeyCache}; its
 * leaf is worked out once per distinct key. Switch and interface names come from a cache of the same
 * kind, so the same String instances (hash codes already computed) reach the fabric lookup.
 *
 * <p>It accepts a strict subset of JSON: ASCII only, no escape sequences, nesting at most
 * {@value #MAX_DEPTH} deep, and the same event rules as {@link GnmicEventFastPath} (a duplicate of a
 * key that matters, a counter that is not an integer or a string of at most 20 digits below 2^64, a
 * missing field: not decided here). Everything else returns null and goes to the next tier, so a
 * record this scanner answers is one the tree parser answers identically (held by tests over the
 * shared vectors, edge records and mutated records). Thread-safe.
 */
final class GnmicEventScanner {
    static final int MAX_DEPTH = 16;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;
    private static final long SPACES = 0x2020202020202020L;
    private static final long UINT64_MAX_DIV_10 = Long.divideUnsigned(-1L, 10); // 1844674407370955161
    private static final Object OPER_STATUS = new Object();
    private static final Object IGNORED = new Object();
    private static final byte[] TIMESTAMP = ascii("timestamp");
    private static final byte[] TAGS = ascii("tags");
    private static final byte[] VALUES = ascii("values");
    private static final byte[] TARGET = ascii("target");
    private static final byte[] SOURCE = ascii("source");
    private static final byte[] INTERFACE_NAME = ascii("interface_name");
    private static final byte[] INTERFACE_ID = ascii("interface_interface-id");
    private static final byte[] QUEUE_NAME = ascii("queue_name");
    /** Value key → Counter, OPER_STATUS or IGNORED. */
    private static final ByteKeyCache<Object> KINDS = new ByteKeyCache<>(4096);
    /** Tag value → the String (switch, interface and queue names recur in every round). */
    private static final ByteKeyCache<String> TEXTS = new ByteKeyCache<>(1 << 16);
    /** Raw oper-status value → upper case without module prefix. */
    private static final ByteKeyCache<String> STATUSES = new ByteKeyCache<>(256);

    /** Not decided here; thrown without a stack trace, caught in {@link #tryParse}. */
    private static final class Bail extends RuntimeException {
        private static final Bail INSTANCE = new Bail();

        private Bail() {
            super("not a plain record", null, false, false);
        }
    }

    private final byte[] b;
    private int i;
    // The last string scanned: bytes [sFrom, sTo) of b, their ByteKeyCache hash.
    private int sFrom;
    private int sTo;
    private int sHash;
    /** The last integer read by {@link #integer}, unsigned. */
    private long number;

    private GnmicEventScanner(byte[] b) {
        this.b = b;
    }

    /** The record's samples, or null when a later tier must decide. */
    static List<InterfaceSample> tryParse(byte[] value) {
        if (value == null) {
            return null;
        }
        try {
            return new GnmicEventScanner(value).record();
        } catch (Bail | ArrayIndexOutOfBoundsException e) {
            return null; // out of bounds: the record ended inside a value
        }
    }

    private List<InterfaceSample> record() {
        ws();
        List<InterfaceSample> out;
        byte c = peek();
        if (c == '[') {
            i++;
            ws();
            out = new ArrayList<>();
            if (peek() == ']') {
                i++;
            } else {
                while (true) {
                    ws();
                    out.add(event());
                    ws();
                    byte d = next();
                    if (d == ']') {
                        break;
                    }
                    if (d != ',') {
                        throw Bail.INSTANCE;
                    }
                }
            }
        } else {
            out = List.of(event());
        }
        ws();
        if (i != b.length) {
            throw Bail.INSTANCE; // trailing tokens: the tree parser words the error
        }
        return out;
    }

    private InterfaceSample event() {
        expect('{');
        EventDraft e = new EventDraft();
        ws();
        if (peek() == '}') {
            throw Bail.INSTANCE; // no tags: an error the tree words
        }
        while (true) {
            key();
            if (is(TIMESTAMP)) {
                // Not a timestamp this scanner reads, or a duplicate (the tree keeps the last): the tree decides.
                if (!integer(19) || !e.timestamp(number)) {
                    throw Bail.INSTANCE;
                }
            } else if (is(TAGS)) {
                if (!e.tags()) {
                    throw Bail.INSTANCE;
                }
                expect('{');
                ws();
                if (peek() == '}') {
                    i++;
                } else {
                    while (true) {
                        key();
                        int bit = is(TARGET) ? EventDraft.TARGET : is(SOURCE) ? EventDraft.SOURCE
                                : is(INTERFACE_NAME) ? EventDraft.INTERFACE_NAME
                                : is(INTERFACE_ID) ? EventDraft.INTERFACE_ID
                                : is(QUEUE_NAME) ? EventDraft.QUEUE_NAME : 0;
                        if (!e.tag(bit)) {
                            throw Bail.INSTANCE;
                        }
                        if (bit != 0 && peek() == '"') {
                            string();
                            if (sTo > sFrom) {
                                e.tagText(bit, text());
                            }
                        } else {
                            skipValue(1); // a non-string tag is ignored, as by the tree parser
                        }
                        if (endOfMember()) {
                            break;
                        }
                    }
                }
            } else if (is(VALUES)) {
                if (!e.values()) {
                    throw Bail.INSTANCE;
                }
                expect('{');
                ws();
                if (peek() == '}') {
                    i++;
                } else {
                    while (true) {
                        key();
                        Object kind = kind();
                        if (kind instanceof Counter c) {
                            if (!integer(20) || !e.counter(c, number)) {
                                throw Bail.INSTANCE; // maybe a valid odd counter, maybe an error: the tree decides
                            }
                        } else if (kind == OPER_STATUS) {
                            if (!e.claimOperStatus()) {
                                throw Bail.INSTANCE;
                            }
                            if (peek() == '"') {
                                string();
                                e.operStatus(status());
                            } else {
                                skipValue(1);
                            }
                        } else {
                            skipValue(1);
                        }
                        if (endOfMember()) {
                            break;
                        }
                    }
                }
            } else {
                skipValue(1);
            }
            if (endOfMember()) {
                break;
            }
        }
        InterfaceSample sample = e.sample();
        if (sample == null) {
            throw Bail.INSTANCE;
        }
        return sample;
    }

    /** A member's key and its colon: the key is left in sFrom/sTo/sHash, the position at the value. */
    private void key() {
        ws();
        if (peek() != '"') {
            throw Bail.INSTANCE;
        }
        string();
        ws();
        expect(':');
        ws();
    }

    /** After a member's value: true at the object's end, false after a comma. */
    private boolean endOfMember() {
        ws();
        byte c = next();
        if (c == '}') {
            return true;
        }
        if (c != ',') {
            throw Bail.INSTANCE;
        }
        return false;
    }

    private boolean is(byte[] name) {
        return sTo - sFrom == name.length && Arrays.equals(b, sFrom, sTo, name, 0, name.length);
    }

    /**
     * Scans a string at '"' into sFrom/sTo/sHash; ASCII without escapes or control characters only.
     * Eight bytes at a time while none of them is special (gNMI path keys are long): a word passes when
     * it has no quote, no backslash, no byte below 0x20 and none above 0x7f (the usual SWAR "has a zero
     * byte" tests; they may flag a clean byte only above a special one, and a flagged word is then
     * read byte by byte).
     */
    private void string() {
        i++;
        int from = i;
        int limit = b.length - 8;
        while (i <= limit) {
            long w = (long) LONGS.get(b, i);
            long special = hasZero(w ^ QUOTES) | hasZero(w ^ BACKSLASHES) | ((w - SPACES) & ~w) | w;
            if ((special & HIGH_BITS) != 0) {
                break;
            }
            i += 8;
        }
        byte c;
        while ((c = b[i]) != '"') {
            if (c < 0x20 || c == '\\') { // a negative byte is non-ASCII
                throw Bail.INSTANCE;
            }
            i++;
        }
        sFrom = from;
        sTo = i;
        sHash = ByteKeyCache.hash(b, from, i);
        i++;
    }

    private static long hasZero(long x) {
        return (x - ONES) & ~x;
    }

    private String text() {
        String s = TEXTS.get(b, sFrom, sTo, sHash);
        if (s == null) {
            s = new String(b, sFrom, sTo - sFrom, StandardCharsets.US_ASCII);
            TEXTS.put(b, sFrom, sTo, sHash, s);
        }
        return s;
    }

    private String status() {
        String s = STATUSES.get(b, sFrom, sTo, sHash);
        if (s == null) {
            String raw = new String(b, sFrom, sTo - sFrom, StandardCharsets.US_ASCII);
            s = raw.substring(raw.lastIndexOf(':') + 1).toUpperCase(Locale.ROOT);
            STATUSES.put(b, sFrom, sTo, sHash, s);
        }
        return s;
    }

    private Object kind() {
        Object k = KINDS.get(b, sFrom, sTo, sHash);
        if (k == null) {
            String leaf = GnmicEventParser.leaf(new String(b, sFrom, sTo - sFrom, StandardCharsets.US_ASCII));
            Counter c = Counter.fromLeaf(leaf);
            k = c != null ? c : leaf.equals("oper-status") ? OPER_STATUS : IGNORED;
            KINDS.put(b, sFrom, sTo, sHash, k);
        }
        return k;
    }

    /**
     * A JSON integer or a string of 1..maxDigits digits (maxDigits <= 20) whose value is below 2^64,
     * read into {@link #number} as unsigned; false for anything else (fractions, signs, exponents, more
     * digits, bigger values: the tree decides those).
     */
    private boolean integer(int maxDigits) {
        boolean quoted = peek() == '"';
        if (quoted) {
            i++;
        }
        int from = i;
        long n = 0;
        byte c;
        while ((c = b[i]) >= '0' && c <= '9') {
            int digits = i - from;
            if (digits == 19) {
                // A 20th digit: n (below 10^19, unsigned) * 10 + d must stay below 2^64.
                if (Long.compareUnsigned(n, UINT64_MAX_DIV_10) > 0 || n == UINT64_MAX_DIV_10 && c > '5') {
                    return false;
                }
            } else if (digits == 20) {
                return false;
            }
            n = 10 * n + (c - '0');
            i++;
        }
        int digits = i - from;
        if (digits == 0 || digits > maxDigits) {
            return false;
        }
        if (quoted) {
            if (c != '"') {
                return false;
            }
            i++;
        } else if (c == '.' || c == 'e' || c == 'E' || (digits > 1 && b[from] == '0')) {
            return false; // a fraction, or a leading zero JSON does not allow
        }
        number = n;
        return true;
    }

    /** Skips any JSON value this scanner accepts; bails on anything else. */
    private void skipValue(int depth) {
        if (depth > MAX_DEPTH) {
            throw Bail.INSTANCE;
        }
        byte c = peek();
        switch (c) {
            case '"' -> string();
            case '{' -> {
                i++;
                ws();
                if (peek() == '}') {
                    i++;
                    return;
                }
                while (true) {
                    key();
                    skipValue(depth + 1);
                    if (endOfMember()) {
                        return;
                    }
                }
            }
            case '[' -> {
                i++;
                ws();
                if (peek() == ']') {
                    i++;
                    return;
                }
                while (true) {
                    ws();
                    skipValue(depth + 1);
                    ws();
                    byte d = next();
                    if (d == ']') {
                        return;
                    }
                    if (d != ',') {
                        throw Bail.INSTANCE;
                    }
                }
            }
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> number();
        }
    }

    private void literal(String word) {
        for (int k = 0; k < word.length(); k++) {
            if (b[i + k] != word.charAt(k)) {
                throw Bail.INSTANCE;
            }
        }
        i += word.length();
    }

    /** -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? as JSON defines it. */
    private void number() {
        if (b[i] == '-') {
            i++;
        }
        if (b[i] == '0') {
            i++;
        } else if (b[i] >= '1' && b[i] <= '9') {
            digits();
        } else {
            throw Bail.INSTANCE;
        }
        if (i < b.length && b[i] == '.') {
            i++;
            digits();
        }
        if (i < b.length && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (b[i] == '+' || b[i] == '-') {
                i++;
            }
            digits();
        }
    }

    /** One or more digits. */
    private void digits() {
        int from = i;
        while (i < b.length && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        if (i == from) {
            throw Bail.INSTANCE;
        }
    }

    private void ws() {
        while (i < b.length) {
            byte c = b[i];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            i++;
        }
    }

    private byte peek() {
        if (i >= b.length) {
            throw Bail.INSTANCE;
        }
        return b[i];
    }

    private byte next() {
        byte c = peek();
        i++;
        return c;
    }

    private void expect(char c) {
        if (next() != c) {
            throw Bail.INSTANCE;
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
