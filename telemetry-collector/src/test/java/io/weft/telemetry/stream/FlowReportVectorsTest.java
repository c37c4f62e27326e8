package io.weft.telemetry.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weft.contracts.Contracts;
import io.weft.telemetry.config.DetectionProperties;
import org.junit.jupiter.api.Test;

/**
 * contracts/vectors/flow-reports.json through the collector's topology: every valid report (which
 * the nic-agent writes and scheduler-api accepts) is counted and never dead-lettered, even with fields
 * the collector does not read (the agent's {@code rejected} entries); every invalid one is
 * dead-lettered naming the vector's field.
 */
class FlowReportVectorsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void validReportsAreCountedAndInvalidOnesDeadLetteredAtTheirField() throws Exception {
        JsonNode vectors = MAPPER.readTree(Contracts.read("vectors/flow-reports.json"));
        List<String> wanted = new ArrayList<>();
        int valid = 0;
        try (TopologyFixture t = new TopologyFixture(DetectionProperties.DEFAULTS)) {
            for (JsonNode c : vectors.get("cases")) {
                t.flows.pipeInput("nic1", c.get("report").toString().getBytes(StandardCharsets.UTF_8));
                if (c.get("valid").asBoolean()) {
                    valid++;
                } else {
                    wanted.add("$." + c.get("field").asText() + ": ");
                }
            }
            List<JsonNode> dead = t.deadLetters();
            assertThat(dead).hasSize(wanted.size());
            for (int i = 0; i < dead.size(); i++) {
                assertThat(dead.get(i).get("detail").asText()).startsWith(wanted.get(i));
            }
            assertThat(t.counters.get("flows.reports")).isEqualTo(vectors.get("cases").size());
        }
        assertThat(valid).isGreaterThan(0);
        assertThat(wanted).isNotEmpty();
        assertThat(vectors.get("cases").toString()).contains("\"rejected\"");
    }
}
