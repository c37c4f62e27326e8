package io.weft.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/** LinkLoad's generator-free bytes are exactly what Jackson's generator writes for it. */
class LinkLoadJsonTest {
    @Test
    void sameBytesAsTheJacksonGeneratorForOrdinaryAndOddValues() {
        List<LinkLoad> loads = List.of(
                new LinkLoad("ls-2x2", "leaf1-spine1", "spine1", 1_700_000_000_123_456_789L, 123.456, 400, 0.30864,
                        Double.NaN, Double.NaN, "UP", false),
                new LinkLoad("ls-2x2", "leaf1-spine1", "leaf1", -1L, 0.0, 400, 0.0, 0.0, 1.0, null, true),
                new LinkLoad("f\"ab\\ric", "link\u0001\n\t", "nöde-ü-€-😀", 5, 1e-9, 1e21, 1.0 / 3, 0.1 + 0.2,
                        2.5e-7, "DOWN", true),
                new LinkLoad("f", "l", "n", 0, Double.POSITIVE_INFINITY, 0, Double.NaN, Double.NEGATIVE_INFINITY,
                        4.9e-324, "LOWER_LAYER_DOWN", false));
        for (LinkLoad l : loads) {
            String reference = new String(TopicValue.bytes(l::write), StandardCharsets.UTF_8);
            assertThat(new String(l.toJsonBytes(), StandardCharsets.UTF_8)).isEqualTo(reference);
        }
    }
}
