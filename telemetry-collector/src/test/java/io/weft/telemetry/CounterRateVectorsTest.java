package io.weft.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weft.contracts.Contracts;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every case of contracts/vectors/counter-rates.json. */
class CounterRateVectorsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> everyVectorCase() throws Exception {
        JsonNode vectors = MAPPER.readTree(Contracts.read("vectors/counter-rates.json"));
        assertThat(vectors.get("version").asInt()).isEqualTo(1);
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : vectors.get("cases")) {
            tests.add(DynamicTest.dynamicTest(c.get("name").asText(), () -> check(c)));
        }
        assertThat(tests).hasSizeGreaterThan(8);
        return tests.stream();
    }

    private static void check(JsonNode c) {
        CounterRate rate = new CounterRate(c.get("capacityGbps").asDouble());
        JsonNode samples = c.get("samples");
        JsonNode results = c.get("results");
        for (int i = 0; i < samples.size(); i++) {
            long t = Long.parseLong(samples.get(i).get("t").asText());
            long v = Long.parseUnsignedLong(samples.get(i).get("v").asText());
            CounterRate.Result r = rate.update(t, v);
            JsonNode want = results.get(i);
            String at = "sample " + i;
            assertThat(r.kind().jsonName()).as(at).isEqualTo(want.get("kind").asText());
            if (want.get("deltaOctets").isNull()) {
                assertThat(r.deltaDecimal()).as(at).isNull();
                assertThat(r.rateGbps()).as(at).isNaN();
            } else {
                assertThat(r.deltaDecimal()).as(at).isEqualTo(want.get("deltaOctets").asText());
                double rateGbps = want.get("rateGbps").asDouble();
                if (rateGbps == 0) {
                    assertThat(r.rateGbps()).as(at).isZero();
                } else {
                    assertThat(r.rateGbps()).as(at).isCloseTo(rateGbps, withinPercentage(1e-7));
                }
            }
        }
    }

    @Test
    void aResetBecomesTheNewBaseline() {
        CounterRate rate = new CounterRate(400);
        rate.update(1_000_000_000L, 5_000_000_000L);
        assertThat(rate.update(2_000_000_000L, 10).kind()).isEqualTo(CounterRate.Kind.RESET);
        CounterRate.Result next = rate.update(3_000_000_000L, 10 + 125_000_000L);
        assertThat(next.kind()).isEqualTo(CounterRate.Kind.OK);
        assertThat(next.rateGbps()).isEqualTo(1.0);
    }

    @Test
    void unsignedDeltasAboveInt64AreRatedCorrectly() {
        // A wrap from 100 to 5 is a delta of 2^64 - 95, above Long.MAX_VALUE; only a very long gap
        // (here 400 000 000 s) makes that a believable rate (369 Gbit/s, under 1.5 x 400).
        CounterRate rate = new CounterRate(400);
        rate.update(0, 100);
        long dt = 400_000_000_000_000_000L;
        CounterRate.Result r = rate.update(dt, 5);
        assertThat(r.kind()).isEqualTo(CounterRate.Kind.WRAP);
        assertThat(r.deltaDecimal()).isEqualTo("18446744073709551521");
        assertThat(r.rateGbps()).isCloseTo(18446744073709551521.0 * 8 / dt, withinPercentage(1e-9));
        assertThat(r.rateGbps()).isGreaterThan(0);
    }

    @Test
    void capacityMustBePositive() {
        assertThatThrownBy(() -> new CounterRate(0)).hasMessageStartingWith("capacityGbps:");
        assertThatThrownBy(() -> new CounterRate(Double.NaN)).hasMessageStartingWith("capacityGbps:");
    }
}
