package io.weft.simulator.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IncidentScriptReaderTest {

    @Test
    void theDefaultIncidentIsTheAnnouncedOne() {
        IncidentScript s = IncidentScriptReader.defaultScript();
        assertThat(s.steps()).extracting(IncidentScript.Step::action).containsExactly(IncidentScript.Action.JOB,
                IncidentScript.Action.JOB, IncidentScript.Action.DEGRADE, IncidentScript.Action.FAIL);
        assertThat(s.steps()).extracting(IncidentScript.Step::atS).containsExactly(0.0, 1.0, 5.0, 10.0);
        assertThat(s.steps().get(2).link()).isEqualTo(IncidentScript.AUTO);
        assertThat(s.steps().get(1).job().path("endpoints").path("spread").asInt()).isEqualTo(2);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{}|schemaVersion: missing (required)",
        "{\"schemaVersion\":2,\"steps\":[]}|schemaVersion: 2 is not supported",
        "{\"schemaVersion\":1}|steps: missing (required)",
        "{\"schemaVersion\":1,\"steps\":[],\"extra\":1}|extra: unknown field",
        "{\"schemaVersion\":1,\"settleS\":0,\"steps\":[]}|settleS: 0.0 must be > 0",
        "{\"schemaVersion\":1,\"steps\":[{\"action\":\"fail\"}]}|steps[0].atS: missing (required)",
        "{\"schemaVersion\":1,\"steps\":[{\"atS\":1,\"action\":\"melt\"}]}|steps[0].action: \"melt\" is not one of",
        "{\"schemaVersion\":1,\"steps\":[{\"atS\":5,\"action\":\"fail\"},{\"atS\":1,\"action\":\"fail\"}]}|"
                + "steps[1].atS: 1.0 is before",
        "{\"schemaVersion\":1,\"steps\":[{\"atS\":1,\"action\":\"job\"}]}|steps[0].job: must be an object",
        "{\"schemaVersion\":1,\"steps\":[{\"atS\":1,\"action\":\"job\",\"job\":{\"endpoints\":{\"spread\":1}}}]}|"
                + "steps[0].job.endpoints.spread: must be an integer in 2..100000",
        "{\"schemaVersion\":1,\"steps\":[{\"atS\":1,\"action\":\"job\",\"job\":{\"endpoints\":{\"all\":1}}}]}|"
                + "steps[0].job.endpoints.all: unknown field",
        "{\"schemaVersion\":1,\"steps\":[{\"atS\":1,\"action\":\"fail\",\"gbps\":3}]}|steps[0].gbps: not used by this "
                + "action",
        "{\"schemaVersion\":1,\"steps\":[{\"atS\":1,\"action\":\"degrade\",\"gbps\":-3}]}|steps[0].gbps: -3.0 must be "
                + "> 0",
        "{\"schemaVersion\":1,\"steps\":[{\"atS\":1,\"action\":\"degrade\",\"from\":\"leaf1\"}]}|steps[0].from: only "
                + "with a named link",
        "{\"schemaVersion\":1,\"steps\":[{\"atS\":1,\"action\":\"throttle\",\"link\":\"l\",\"factor\":2}]}|"
                + "steps[0].factor: 2.0 is not in [0, 1]",
        "{\"schemaVersion\":1,\"steps\":[{\"atS\":1,\"action\":\"restore\"}]}|steps[0].link: missing (required)",
        "{\"schemaVersion\":1,\"steps\":[{\"atS\":1,\"action\":\"fail\",\"link\":\"a\",\"link\":\"b\"}]}|"
                + "not valid JSON",
    })
    void aBadFileIsOneLineNamingTheField(String json, String start, @TempDir Path dir) throws Exception {
        Path f = dir.resolve("incident.json");
        Files.writeString(f, json);
        assertThatThrownBy(() -> IncidentScriptReader.read(f))
                .isInstanceOf(ScenarioException.class)
                .hasMessageStartingWith(f + ": " + start)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
