package io.weft.telemetry.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.telemetry.config.DetectionProperties;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The per-flow view kept from weft.telemetry.flows reports. */
class FlowViewTopologyTest {
    private TopologyFixture t;

    @BeforeEach
    void start() {
        t = new TopologyFixture(DetectionProperties.DEFAULTS);
    }

    @AfterEach
    void stop() {
        t.close();
    }

    private void report(String nic, long seconds, String... flows) {
        String r = "{\"schemaVersion\":1,\"nic\":\"" + nic + "\",\"timestampNs\":\"" + seconds * 1_000_000_000L
                + "\",\"flows\":[" + String.join(",", flows) + "]}";
        t.flows.pipeInput(nic, r.getBytes(StandardCharsets.UTF_8));
    }

    private static String flow(String id, String evOrCarrier, long ecnMarked) {
        return "{\"flowId\":\"" + id + "\",\"jobId\":\"job-1\",\"dstNic\":\"nic3\"," + evOrCarrier
                + ",\"bytes\":\"1000\",\"rateGbps\":12.5,\"ecnMarked\":\"" + ecnMarked
                + "\",\"cnpCount\":\"0\",\"rttUs\":7.5,\"drops\":\"0\"}";
    }

    private List<JsonNode> viewsOf(String nic) throws Exception {
        KeyValueStore<String, String> store = t.driver.getKeyValueStore(TelemetryTopology.FLOWS_STORE);
        List<JsonNode> out = new ArrayList<>();
        try (KeyValueIterator<String, String> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<String, String> kv = it.next();
                if (kv.key.startsWith(nic + " ")) {
                    out.add(Json.MAPPER.readTree(kv.value));
                }
            }
        }
        return out;
    }

    @Test
    void keepsTheLatestReportPerFlowWithMarkRatesAndForgetsFlowsNoLongerReported() throws Exception {
        report("nic1", 10, flow("f1", "\"ev\":49153", 100), flow("f2", "\"carrier\":\"fcbb:bb00:1:11:2::\"", 0));
        List<JsonNode> first = viewsOf("nic1");
        assertThat(first).extracting(v -> v.get("flowId").asText()).containsExactly("f1", "f2");
        assertThat(first.get(0).get("ev").asInt()).isEqualTo(49153);
        assertThat(first.get(0).get("ecnMarkedPerS").isNull()).isTrue();
        assertThat(first.get(1).get("carrier").asText()).isEqualTo("fcbb:bb00:1:11:2::");

        report("nic1", 12, flow("f1", "\"ev\":49153", 700));
        List<JsonNode> second = viewsOf("nic1");
        assertThat(second).singleElement().satisfies(v -> {
            assertThat(v.get("flowId").asText()).isEqualTo("f1");
            assertThat(v.get("ecnMarkedPerS").asDouble()).isCloseTo(300.0, within(1e-9));
            assertThat(v.get("timestampNs").asText()).isEqualTo("12000000000");
        });

        report("nic1", 11, flow("f9", "\"ev\":49154", 0)); // older than what is held: ignored
        assertThat(viewsOf("nic1")).extracting(v -> v.get("flowId").asText()).containsExactly("f1");
        assertThat(t.counters.get("flows.stale-reports")).isEqualTo(1);
        assertThat(t.deadLetters()).isEmpty();
    }

    @Test
    void eachNicHasItsOwnFlows() throws Exception {
        report("nic1", 10, flow("f1", "\"ev\":49153", 0));
        report("nic10", 10, flow("f1", "\"ev\":49160", 0));
        report("nic1", 11);
        assertThat(viewsOf("nic1")).isEmpty();
        assertThat(viewsOf("nic10")).singleElement()
                .satisfies(v -> assertThat(v.get("ev").asInt()).isEqualTo(49160));
    }
}
