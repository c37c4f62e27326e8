package io.weft.telemetry.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weft.contracts.Contracts;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The valid cases of contracts/vectors/flow-reports.json, which the nic-agent writes and scheduler-api
 * accepts, pass the collector's consumer check too: a field the contract allows (e.g. the agent's
 * {@code rejected} entries) must never send a report to the dead-letter topic.
 */
class FlowReportVectorsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> everyValidReportPasses() throws Exception {
        JsonNode vectors = MAPPER.readTree(Contracts.read("vectors/flow-reports.json"));
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : vectors.get("cases")) {
            if (c.path("valid").asBoolean()) {
                JsonNode report = c.get("report");
                tests.add(DynamicTest.dynamicTest(c.get("name").asText(),
                        () -> assertThat(FlowReportCheck.check(report)).isEqualTo(report.get("flows").size())));
            }
        }
        assertThat(tests).isNotEmpty();
        assertThat(vectors.get("cases").toString()).contains("\"rejected\"");
        return tests.stream();
    }
}
