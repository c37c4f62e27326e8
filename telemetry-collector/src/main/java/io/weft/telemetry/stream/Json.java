package io.weft.telemetry.stream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The one Jackson 2 mapper of the stream package and the JSON conventions of contracts/topics.md. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    /** Something that writes one JSON value. */
    @FunctionalInterface
    interface Writer {
        void write(JsonGenerator g) throws IOException;
    }

    static byte[] bytes(Writer w) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(384);
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(out, JsonEncoding.UTF8)) {
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

    /** A ratio or rate, or null when unknown (NaN). */
    static void number(JsonGenerator g, String field, double v) throws IOException {
        if (Double.isNaN(v)) {
            g.writeNullField(field);
        } else {
            g.writeNumberField(field, v);
        }
    }
}
