package io.weft.contracts;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.StreamWriteFeature;

/** The generator factory of {@link TopicValue#bytes}. */
final class JsonOutput {
    /**
     * Schubfach instead of Double.toString for rates and ratios: same values, shortest form;
     * Double.toString was a fifth of the collector's output cost.
     */
    static final JsonFactory FACTORY = factory();

    private JsonOutput() {
    }

    private static JsonFactory factory() {
        JsonFactoryBuilder b = new JsonFactoryBuilder();
        try {
            b.enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER);
        } catch (NoSuchFieldError olderJackson) {
            // ONOS 2.7 provides Jackson 2.11, older than the fast writer (2.14): same JSON, slower.
        }
        return b.build();
    }
}
