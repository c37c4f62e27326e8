package io.weft.contracts;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.core.io.NumberOutput;

/**
 * A minimal UTF-8 JSON object writer for the one record written per link-direction sample
 * ({@link LinkLoad}, in the collector): creating a Jackson generator per record (buffer recycler, I/O
 * context, flush) cost as much as writing the record. Writes exactly what {@link TopicValue#bytes}
 * writes through a Jackson generator for the same calls (a test holds the two byte-equal): compact,
 * doubles in Jackson's shortest (Schubfach) form, non-finite doubles quoted as Jackson does, strings
 * other than plain ASCII quoted by Jackson itself. Not thread-safe; one per record. Needs Jackson
 * 2.14 or later (NumberOutput's fast double writer): the collector has it; the ONOS app, on ONOS's
 * Jackson 2.11, never writes link loads.
 */
final class JsonBytes {
    private byte[] buf = new byte[320];
    private int len;
    private boolean first = true;

    /** A field name, pre-encoded once: {@code "name":} as bytes. */
    static byte[] name(String field) {
        return ("\"" + new String(JsonStringEncoder.getInstance().quoteAsString(field)) + "\":")
                .getBytes(StandardCharsets.UTF_8);
    }

    JsonBytes start() {
        put((byte) '{');
        return this;
    }

    byte[] end() {
        put((byte) '}');
        return Arrays.copyOf(buf, len);
    }

    JsonBytes field(byte[] name, String value) {
        name(name);
        if (value == null) {
            raw("null");
            return this;
        }
        if (plain(value)) {
            ensure(value.length() + 2);
            buf[len++] = '"';
            for (int i = 0; i < value.length(); i++) {
                buf[len++] = (byte) value.charAt(i);
            }
            buf[len++] = '"';
        } else {
            // Rare (ids are ASCII): let Jackson quote it, so escapes and surrogates come out as it writes them.
            byte[] quoted = TopicValue.bytes(g -> g.writeString(value));
            ensure(quoted.length);
            System.arraycopy(quoted, 0, buf, len, quoted.length);
            len += quoted.length;
        }
        return this;
    }

    JsonBytes field(byte[] name, long value) {
        name(name);
        raw(Long.toString(value));
        return this;
    }

    JsonBytes field(byte[] name, boolean value) {
        name(name);
        raw(value ? "true" : "false");
        return this;
    }

    /** A number as Jackson's writeNumber(double) writes it (non-finite values quoted). */
    JsonBytes number(byte[] name, double value) {
        name(name);
        if (Double.isFinite(value)) {
            raw(NumberOutput.toString(value, true));
        } else {
            raw("\"" + value + "\"");
        }
        return this;
    }

    /** A number; NaN as null (the contracts' "unknown"), other non-finite values quoted as Jackson does. */
    JsonBytes numberOrNull(byte[] name, double value) {
        name(name);
        if (Double.isNaN(value)) {
            raw("null");
        } else if (Double.isInfinite(value)) {
            raw("\"" + value + "\"");
        } else {
            raw(NumberOutput.toString(value, true));
        }
        return this;
    }

    private void name(byte[] name) {
        if (!first) {
            put((byte) ',');
        }
        first = false;
        ensure(name.length);
        System.arraycopy(name, 0, buf, len, name.length);
        len += name.length;
    }

    /** Printable ASCII without quote or backslash: copied byte for byte. */
    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private void raw(String ascii) {
        ensure(ascii.length());
        for (int i = 0; i < ascii.length(); i++) {
            buf[len++] = (byte) ascii.charAt(i);
        }
    }

    private void put(byte b) {
        ensure(1);
        buf[len++] = b;
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }
}
