package io.weft.contracts;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;

/**
 * A value Weft writes to one of its topics, with the record key the catalogue (contracts/topics.json)
 * fixes for it. Writers stream the contract JSON (compact, fields in schema order, 64-bit integers as
 * decimal strings, unknown ratios as null).
 */
public interface TopicValue {
    /** The record key of this value on its topic. */
    String key();

    /** Writes the contract JSON object. */
    void write(JsonGenerator g) throws IOException;

    /** The contract JSON as UTF-8 bytes. */
    default byte[] toJsonBytes() {
        return bytes(this::write);
    }

    /** The contract JSON as text. */
    default String toJson() {
        return new String(toJsonBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Something that writes one JSON value. */
    @FunctionalInterface
    interface Writer {
        void write(JsonGenerator g) throws IOException;
    }

    /**
     * Writes one value with the contracts' generator: Schubfach instead of Double.toString for
     * rates and ratios (same values, shortest form; Double.toString was a fifth of the collector's
     * output cost).
     */
    static byte[] bytes(Writer w) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(384);
        try (JsonGenerator g = JsonOutput.FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            w.write(g);
        } catch (IOException e) {
            throw new IllegalStateException("JSON could not be written: " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    /** A ratio or rate, or null when unknown (NaN). */
    static void numberOrNull(JsonGenerator g, SerializedString field, double v) throws IOException {
        g.writeFieldName(field);
        if (Double.isNaN(v)) {
            g.writeNull();
        } else {
            g.writeNumber(v);
        }
    }
}
