package io.weft.contracts;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamWriteFeature;

/** The generator factory of {@link TopicValue#bytes}. */
final class JsonOutput {
    /**
     * Schubfach instead of Double.toString for rates and ratios: same values, shortest form;
     * Double.toString was a fifth of the collector's output cost.
     */
    static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
            .build();

    private JsonOutput() {
    }
}
