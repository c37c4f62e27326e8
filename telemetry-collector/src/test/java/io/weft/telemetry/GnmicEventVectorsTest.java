package io.weft.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weft.contracts.Contracts;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every case of contracts/vectors/gnmic-events.json, the same file the Go and TypeScript sides load. */
class GnmicEventVectorsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final GnmicEventParser parser = new GnmicEventParser();

    @TestFactory
    Stream<DynamicTest> everyVectorCase() throws Exception {
        JsonNode vectors = MAPPER.readTree(Contracts.read("vectors/gnmic-events.json"));
        assertThat(vectors.get("version").asInt()).isEqualTo(1);
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : vectors.get("cases")) {
            tests.add(DynamicTest.dynamicTest(c.get("name").asText(), () -> check(c)));
        }
        assertThat(tests).hasSizeGreaterThan(20);
        return tests.stream();
    }

    /** The bytes path (what the topology uses) answers every vector exactly as the String path. */
    @TestFactory
    Stream<DynamicTest> utf8BytesGiveTheSameAnswers() throws Exception {
        JsonNode vectors = MAPPER.readTree(Contracts.read("vectors/gnmic-events.json"));
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : vectors.get("cases")) {
            String record = c.get("record").asText();
            tests.add(DynamicTest.dynamicTest(c.get("name").asText(), () -> {
                byte[] bytes = record.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                if (c.has("error")) {
                    TelemetryFormatException a = catchThrowableOfType(TelemetryFormatException.class,
                            () -> parser.parse(record));
                    TelemetryFormatException b = catchThrowableOfType(TelemetryFormatException.class,
                            () -> parser.parseUtf8(bytes));
                    assertThat(b).isNotNull();
                    assertThat(b.code()).isEqualTo(a.code());
                    if (a.code() != TelemetryFormatException.Code.NOT_JSON) { // Jackson's locations differ
                        assertThat(b.getMessage()).isEqualTo(a.getMessage());
                    }
                } else {
                    assertThat(parser.parseUtf8(bytes)).isEqualTo(parser.parse(record));
                }
            }));
        }
        return tests.stream();
    }

    /** Records at the edges of the fast path (duplicates, big counters, odd tags) answer as the tree does. */
    @TestFactory
    Stream<DynamicTest> fastPathEdgesGiveTheTreeParsersAnswers() {
        String tags = "\"tags\":{\"target\":\"leaf1\",\"interface_name\":\"eth1\"}";
        String octets = "\"/interfaces/interface/state/counters/out-octets\"";
        List<String> records = List.of(
                "{\"timestamp\":1," + tags + ",\"values\":{" + octets + ":\"18446744073709551615\"}}",
                "{\"timestamp\":1," + tags + ",\"values\":{" + octets + ":18446744073709551615}}",
                "{\"timestamp\":1," + tags + ",\"values\":{" + octets + ":18446744073709551616}}",
                "{\"timestamp\":1," + tags + ",\"values\":{" + octets + ":1.5}}",
                "{\"timestamp\":1," + tags + ",\"values\":{" + octets + ":\"1\"," + octets + ":\"2\"}}",
                "{\"timestamp\":1," + tags + ",\"values\":{\"out-octets\":\"1\"," + octets + ":\"2\"}}",
                "{\"timestamp\":1,\"tags\":{\"target\":\"a\",\"target\":5,\"source\":\"b\","
                        + "\"interface_name\":\"eth1\"},\"values\":{}}",
                "{\"timestamp\":1,\"tags\":{\"target\":\"\",\"source\":\"b\",\"interface_name\":7,"
                        + "\"interface_interface-id\":\"eth2\",\"queue_name\":\"q0\"},\"values\":{}}",
                "{\"timestamp\":1,\"timestamp\":2," + tags + ",\"values\":{}}",
                "{\"timestamp\":\"0001\"," + tags + ",\"values\":{\"x:/a/oper-status\":\"mod:down\","
                        + "\"/a/b\":{\"c\":[1,2,{\"d\":3}]}}}",
                "{\"timestamp\":1," + tags + ",\"values\":{\"oper-status\":5}}",
                "{\"timestamp\":1," + tags + ",\"values\":{\"oper-status\":\"UP\",\"a:oper-status\":5}}",
                "{\"timestamp\":1," + tags + ",\"values\":{\"oper-status\":\"UP\",\"oper-status\":5}}",
                "{\"timestamp\":1," + tags + "," + tags + ",\"values\":{}}",
                "{\"timestamp\":1,\"tags\":{\"target\":\"a\"}," + tags + ",\"values\":{}}",
                "{\"timestamp\":1," + tags + ",\"values\":{},\"values\":{" + octets + ":1}}",
                "[{\"timestamp\":1," + tags + ",\"values\":{}}, 5]",
                "[{\"timestamp\":1," + tags + ",\"values\":{}}] []",
                "[]",
                "{\"timestamp\":-1," + tags + ",\"values\":{}}",
                "{\"timestamp\":1," + tags + ",\"values\":[]}",
                "\"just a string\"");
        List<DynamicTest> tests = new ArrayList<>();
        for (String record : records) {
            tests.add(DynamicTest.dynamicTest(record, () -> sameAnswer(record)));
        }
        return tests.stream();
    }

    @Test
    void anOrdinaryGnmicArrayTakesTheFastPath() {
        String e = "{\"name\":\"if\",\"timestamp\":5,\"tags\":{\"source\":\"leaf1\",\"interface_name\":\"eth1\"},"
                + "\"values\":{\"/interfaces/interface/state/counters/out-octets\":\"7\","
                + "\"/interfaces/interface/state/oper-status\":\"UP\"}}";
        List<InterfaceSample> fast = GnmicEventFastPath.tryParse(("[" + e + "," + e + "]")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(fast).hasSize(2);
        assertThat(fast.get(0).target()).isEqualTo("leaf1");
        assertThat(fast.get(0).counters()).containsEntry(Counter.OUT_OCTETS, 7L);
        assertThat(fast.get(0).operStatus()).isEqualTo("UP");
    }

    private void sameAnswer(String record) throws Exception {
        byte[] bytes = record.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        TelemetryFormatException a = catchThrowableOfType(TelemetryFormatException.class, () -> parser.parse(record));
        if (a != null) {
            TelemetryFormatException b = catchThrowableOfType(TelemetryFormatException.class,
                    () -> parser.parseUtf8(bytes));
            assertThat(b).isNotNull();
            assertThat(b.code()).isEqualTo(a.code());
            if (a.code() != TelemetryFormatException.Code.NOT_JSON) {
                assertThat(b.getMessage()).isEqualTo(a.getMessage());
            }
        } else {
            assertThat(parser.parseUtf8(bytes)).isEqualTo(parser.parse(record));
        }
    }

    private void check(JsonNode c) throws Exception {
        String record = c.get("record").asText();
        if (c.has("error")) {
            TelemetryFormatException e = catchThrowableOfType(TelemetryFormatException.class,
                    () -> parser.parse(record));
            assertThat(e).as("expected error " + c.get("error")).isNotNull();
            assertThat(e.code().code()).isEqualTo(c.get("error").asText());
            assertThat(e.getMessage()).doesNotContain("\n");
            return;
        }
        List<InterfaceSample> samples = parser.parse(record);
        JsonNode expected = c.get("samples");
        assertThat(samples).hasSize(expected.size());
        for (int i = 0; i < samples.size(); i++) {
            InterfaceSample s = samples.get(i);
            JsonNode x = expected.get(i);
            assertThat(s.target()).isEqualTo(x.get("target").asText());
            assertThat(s.interfaceName()).isEqualTo(x.get("interface").asText());
            assertThat(s.queue()).isEqualTo(x.get("queue").isNull() ? null : x.get("queue").asText());
            assertThat(Long.toUnsignedString(s.timestampNs())).isEqualTo(x.get("timestampNs").asText());
            assertThat(s.operStatus()).isEqualTo(x.get("operStatus").isNull() ? null : x.get("operStatus").asText());
            Map<String, String> counters = new LinkedHashMap<>();
            s.counters().forEach((k, v) -> counters.put(k.leaf(), Long.toUnsignedString(v)));
            Map<String, String> want = new LinkedHashMap<>();
            x.get("counters").fields().forEachRemaining(f -> want.put(f.getKey(), f.getValue().asText()));
            assertThat(counters).isEqualTo(want);
        }
    }

    @Test
    void uint64CountersKeepAllSixtyFourBits() throws Exception {
        InterfaceSample s = parser.parse("{\"timestamp\":1,\"tags\":{\"target\":\"leaf1\",\"interface_name\":\"eth1\"},"
                + "\"values\":{\"/interfaces/interface/state/counters/in-octets\":18446744073709551615,"
                + "\"/interfaces/interface/state/counters/out-octets\":\"9223372036854775808\"}}").get(0);
        assertThat(s.counters().get(Counter.IN_OCTETS)).isEqualTo(-1L);
        assertThat(s.counterDecimal(Counter.IN_OCTETS)).isEqualTo("18446744073709551615");
        assertThat(s.counterDecimal(Counter.OUT_OCTETS)).isEqualTo("9223372036854775808");
        assertThat(s.counterDecimal(Counter.IN_PKTS)).isNull();
    }

    @Test
    void errorsNameTheFieldAtFault() {
        TelemetryFormatException e = catchThrowableOfType(TelemetryFormatException.class, () -> parser.parse(
                "[{\"timestamp\":1,\"tags\":{\"target\":\"l\",\"interface_name\":\"e\"},\"values\":{}},"
                        + "{\"timestamp\":1,\"tags\":{\"target\":\"l\",\"interface_name\":\"e\"},"
                        + "\"values\":{\"/interfaces/interface/state/counters/in-octets\":-5}}]"));
        assertThat(e.code()).isEqualTo(TelemetryFormatException.Code.BAD_COUNTER);
        assertThat(e.getMessage()).startsWith("$[1].values[\"/interfaces/interface/state/counters/in-octets\"]: -5");
    }

    @Test
    void trailingGarbageAndEmptyRecordsAreNotJson() {
        assertThatThrownBy(() -> parser.parse("{} {}")).isInstanceOfSatisfying(TelemetryFormatException.class,
                e -> assertThat(e.code()).isEqualTo(TelemetryFormatException.Code.NOT_JSON));
        assertThatThrownBy(() -> parser.parse("")).isInstanceOfSatisfying(TelemetryFormatException.class,
                e -> assertThat(e.code()).isEqualTo(TelemetryFormatException.Code.NOT_JSON));
        assertThatThrownBy(() -> parser.parse(null)).isInstanceOfSatisfying(TelemetryFormatException.class,
                e -> assertThat(e.code()).isEqualTo(TelemetryFormatException.Code.NOT_JSON));
    }

    @Test
    void timestampsBeyondInt64AreRejected() {
        assertThatThrownBy(() -> parser.parse("{\"timestamp\":\"9999999999999999999\","
                + "\"tags\":{\"target\":\"l\",\"interface_name\":\"e\"},\"values\":{}}"))
                .isInstanceOfSatisfying(TelemetryFormatException.class,
                        e -> assertThat(e.code()).isEqualTo(TelemetryFormatException.Code.NOT_EVENT));
    }

    @Test
    void leafIgnoresOriginAndModulePrefixes() {
        assertThat(GnmicEventParser.leaf(
                "openconfig:/openconfig-interfaces:interfaces/openconfig-interfaces:in-octets")).isEqualTo("in-octets");
        assertThat(GnmicEventParser.leaf("in-pkts")).isEqualTo("in-pkts");
    }
}
