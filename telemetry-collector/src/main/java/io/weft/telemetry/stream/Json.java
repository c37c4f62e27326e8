package io.weft.telemetry.stream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The one Jackson 2 mapper of the stream package and the JSON conventions of contracts/topics.md. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
    /**
     * Writes the output records (1.6 per gnmic event): Schubfach instead of Double.toString for the
     * rates and ratios (Double.toString was a fifth of the output cost). Same values, shortest form.
     */
    private static final JsonFactory OUTPUT = JsonFactory.builder()
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
            .build();

    private Json() {
    }

    /** Something that writes one JSON value. */
    @FunctionalInterface
    interface Writer {
        void write(JsonGenerator g) throws IOException;
    }

    static byte[] bytes(Writer w) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(384);
        try (JsonGenerator g = OUTPUT.createGenerator(out, JsonEncoding.UTF8)) {
            w.write(g);
        } catch (IOException e) {
            throw new IllegalStateException("JSON could not be written: " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    static ObjectNode tree(byte[] json) {
        try {
            return (ObjectNode) MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("JSON could not be read back: " + e.getMessage(), e);
        }
    }

    /** A field name encoded once (the output writes the same dozen names for every record). */
    static SerializedString name(String field) {
        return new SerializedString(field);
    }

    /** A ratio or rate, or null when unknown (NaN). */
    static void number(JsonGenerator g, SerializedString field, double v) throws IOException {
        g.writeFieldName(field);
        if (Double.isNaN(v)) {
            g.writeNull();
        } else {
            g.writeNumber(v);
        }
    }
}
