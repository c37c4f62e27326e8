package io.weft.telemetry.stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The one Jackson 2 mapper of the stream package and the JSON conventions of contracts/topics.md. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    /** A ratio or rate, or null when unknown (NaN). */
    static void putNumber(ObjectNode o, String field, double v) {
        if (Double.isNaN(v)) {
            o.putNull(field);
        } else {
            o.put(field, v);
        }
    }

    static String write(JsonNode n) {
        try {
            return MAPPER.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("JSON could not be written: " + e.getOriginalMessage(), e);
        }
    }
}
