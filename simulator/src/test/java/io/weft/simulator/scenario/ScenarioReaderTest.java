package io.weft.simulator.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import io.weft.fabric.FabricJson;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.simulator.FlowResult;
import io.weft.simulator.Simulation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ScenarioReaderTest {
    /** Two flows into leaf2-nic1 (25 GB and 50 GB): done at 1.0 s and 1.5 s (SimulationFixturesTest). */
    static final String GOOD = """
            {"schemaVersion": 1, "fabric": "fabric.json", "ecmpSeed": 4,
             "flows": [
               {"id": "a", "src": "leaf1-nic1", "dst": "leaf2-nic1", "sizeBytes": 25e9,
                "routing": {"mode": "ecmp", "srcPort": 49152}},
               {"id": "b", "src": "leaf1-nic2", "dst": "leaf2-nic1", "sizeBytes": 50e9,
                "routing": {"mode": "ev", "ev": 49408}}
             ],
             "events": [{"atS": 5, "link": "leaf1-spine1", "action": "throttle", "factor": 0.5}]}
            """;

    @TempDir
    Path dir;

    @BeforeEach
    void writeFabric() throws Exception {
        Files.writeString(dir.resolve("fabric.json"),
                FabricJson.write(LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 2, 2))));
    }

    @Test
    void aGoodScenarioRunsToTheHandComputedCompletionTimes() throws Exception {
        Files.writeString(dir.resolve("s.json"), GOOD);
        Scenario s = ScenarioReader.read(dir.resolve("s.json"));
        assertThat(s.flows()).hasSize(2);
        assertThat(s.events()).hasSize(1);
        Simulation sim = s.simulation();
        sim.run();
        assertThat(sim.result("a").finishS()).isCloseTo(1.0, within(1e-9));
        assertThat(sim.result("b").finishS()).isCloseTo(1.5, within(1e-9));
        assertThat(sim.result("b").state()).isEqualTo(FlowResult.State.DONE);
    }

    static Stream<Arguments> badFiles() {
        return Stream.of(
                Arguments.of("{\"schemaVersion\": 1, \"fabric\": \"fabric.json\", \"flows\": [], \"flow\": []}",
                        "flow: unknown field"),
                Arguments.of("{\"fabric\": \"fabric.json\", \"flows\": []}", "schemaVersion: missing"),
                Arguments.of("{\"schemaVersion\": 2, \"fabric\": \"fabric.json\", \"flows\": []}",
                        "schemaVersion: 2 is not supported"),
                Arguments.of("{\"schemaVersion\": 1, \"fabric\": \"nope.json\", \"flows\": []}", "fabric: "),
                Arguments.of("{\"schemaVersion\": 1, \"flows\": []}", "fabric: give exactly one"),
                Arguments.of("{\"schemaVersion\": 1, \"fabric\": \"fabric.json\"}", "flows: missing"),
                Arguments.of(GOOD.replace("\"sizeBytes\": 25e9", "\"sizeBytes\": -1"),
                        "flows[0].sizeBytes: -1.0 must be > 0"),
                Arguments.of(GOOD.replace("\"sizeBytes\": 25e9", "\"sizeByte\": 25e9"),
                        "flows[0].sizeByte: unknown field"),
                Arguments.of(GOOD.replace("\"leaf1-nic2\"", "\"leaf1-nic7\""),
                        "flows[1].src: \"leaf1-nic7\" is not a NIC"),
                Arguments.of(GOOD.replace("\"id\": \"b\"", "\"id\": \"a\""),
                        "flows[1].id: \"a\" is used by an earlier flow"),
                Arguments.of(GOOD.replace("\"mode\": \"ev\"", "\"mode\": \"spray\""),
                        "flows[1].routing.mode: \"spray\" is not one of"),
                Arguments.of(GOOD.replace("\"ev\": 49408", "\"ev\": 70000"),
                        "flows[1].routing.ev: must be an integer in 1..65535"),
                Arguments.of(GOOD.replace("\"ev\": 49408", "\"srcPort\": 49408"),
                        "flows[1].routing.srcPort: not used here"),
                Arguments.of(GOOD.replace("{\"mode\": \"ecmp\", \"srcPort\": 49152}",
                        "{\"mode\": \"srv6\", \"carriers\": [\"fcbb:bb00:63:e000::\"]}"),
                                "flows[0].routing.carriers: flow \"a\" does not walk"),
                Arguments.of(GOOD.replace("\"leaf1-spine1\"", "\"leaf1-spine9\""),
                        "events[0].link: no link \"leaf1-spine9\""),
                Arguments.of(GOOD.replace("\"factor\": 0.5", "\"factor\": 1.5"),
                        "events[0].factor: 1.5 is not in [0, 1]"),
                Arguments.of(GOOD.replace("\"action\": \"throttle\"", "\"action\": \"cut\""),
                        "events[0].action: \"cut\" is not one of"),
                Arguments.of(GOOD.replace("\"atS\": 5", "\"atS\": \"5\""), "events[0].atS: must be a finite number"),
                Arguments.of("{\"schemaVersion\": 1,", "not valid JSON at line 1"));
    }

    @ParameterizedTest
    @MethodSource("badFiles")
    void aBadFileGetsOneLineNamingTheField(String text, String expected) throws Exception {
        Path f = dir.resolve("bad.json");
        Files.writeString(f, text);
        assertThatThrownBy(() -> ScenarioReader.read(f))
                .isInstanceOf(ScenarioException.class)
                .hasMessageStartingWith(f + ": " + expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void theCliPrintsOneLineAndExitsTwoOnABadFileAndATableOnAGoodOne() throws Exception {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, GOOD.replace("\"leaf1-nic2\"", "\"leaf1-nic7\""));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = io.weft.simulator.cli.SimulateCliAccess.run(new String[] {bad.toString()}, out, err);
        assertThat(code).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8).strip()).doesNotContain("\n")
                .startsWith(bad + ": flows[1].src:");

        Path good = dir.resolve("good.json");
        Files.writeString(good, GOOD);
        out.reset();
        code = io.weft.simulator.cli.SimulateCliAccess.run(new String[] {good.toString(), "--json"}, out, err);
        assertThat(code).isZero();
        var tree = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        assertThat(tree.get("flows").get(1).get("fctS").asDouble()).isCloseTo(1.5, within(1e-9));
        assertThat(tree.get("flows").get(1).get("route").get(0).asText()).isEqualTo("leaf1-nic2");
    }
}
