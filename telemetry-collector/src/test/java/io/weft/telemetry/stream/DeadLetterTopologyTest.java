package io.weft.telemetry.stream;

import static io.weft.telemetry.stream.TopologyFixture.LINE_OCTETS_PER_S;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.telemetry.config.DetectionProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Malformed telemetry goes to the dead-letter topic with its reason; the stream carries on. */
class DeadLetterTopologyTest {
    private TopologyFixture t;

    @BeforeEach
    void start() {
        t = new TopologyFixture(DetectionProperties.DEFAULTS);
        t.publishFabric(1);
    }

    @AfterEach
    void stop() {
        t.close();
    }

    @Test
    void badRecordsAreDeadLetteredWithTheirCodeAndTheStreamContinues() {
        t.outOctets(1, 0);
        t.send("leaf1", "{not json");
        t.send("leaf1", "[{\"timestamp\":1,\"tags\":{\"interface_name\":\"eth1\"},\"values\":{}}]");
        t.send("leaf1", TopologyFixture.event("leaf1", "eth1", 1_500_000_000L, "out-octets", "-5"));
        t.interfaces.pipeInput("leaf1", new byte[] {(byte) 0xff, (byte) 0xfe, 0x00});
        t.outOctets(2, LINE_OCTETS_PER_S / 2);

        List<JsonNode> dead = t.deadLetters();
        assertThat(dead).extracting(d -> d.get("error").asText())
                .containsExactly("not-json", "no-target", "bad-counter", "not-json");
        for (JsonNode d : dead) {
            assertThat(Schemas.errors("schemas/deadletter.schema.json", d)).isEmpty();
            assertThat(d.get("sourceTopic").asText()).isEqualTo("weft.telemetry.interfaces");
            assertThat(d.get("key").asText()).isEqualTo("leaf1");
        }
        assertThat(dead.get(0).get("record").asText()).isEqualTo("{not json");
        assertThat(dead.get(2).get("detail").asText()).contains("out-octets");
        assertThat(dead).extracting(d -> d.get("offset").asLong()).containsExactly(1L, 2L, 3L, 4L);
        // The good sample after the bad ones still gives a rate.
        assertThat(t.linkLoads()).singleElement()
                .satisfies(l -> assertThat(l.get("utilisation").asDouble()).isEqualTo(0.5));
        assertThat(t.counters.get("deadletter.not-json")).isEqualTo(2);
        assertThat(t.counters.get("deadletter.bad-counter")).isEqualTo(1);
    }

    @Test
    void flowReportsAreCheckedAndCounted() {
        String good = "{\"schemaVersion\":1,\"nic\":\"nic1\",\"timestampNs\":\"5\",\"flows\":[{\"flowId\":\"f1\","
                + "\"dstNic\":\"nic3\",\"ev\":49153,\"bytes\":\"100\",\"rateGbps\":10.5,\"ecnMarked\":\"0\","
                + "\"cnpCount\":\"0\",\"drops\":\"0\"}]}";
        t.flows.pipeInput("nic1", good.getBytes(StandardCharsets.UTF_8));
        t.flows.pipeInput("nic1", good.replace("\"ev\":49153", "\"ev\":70000").getBytes(StandardCharsets.UTF_8));
        t.flows.pipeInput("nic1", good.replace("\"bytes\":\"100\"", "\"bytes\":100").getBytes(StandardCharsets.UTF_8));
        List<JsonNode> dead = t.deadLetters();
        assertThat(dead).extracting(d -> d.get("error").asText() + " " + d.get("detail").asText())
                .containsExactly("flow-report-invalid $.flows[0].ev: must be an integer in 0..65535 (got 70000)",
                        "flow-report-invalid $.flows[0].bytes: must be an unsigned 64-bit integer as a decimal string"
                                + " (got 100)");
        assertThat(Schemas.errors("schemas/deadletter.schema.json", dead.get(0))).isEmpty();
        assertThat(t.counters.get("flows.reports")).isEqualTo(3);
        assertThat(t.counters.get("flows.flows")).isEqualTo(1);
    }
}
