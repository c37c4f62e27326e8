package io.weft.scheduler.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.weft.contracts.Contracts;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * contracts/vectors/agent-profiles.json on the writer's side: every profile reads into
 * {@link EvProfile} and is written back unchanged (absent members stay absent, none becomes null),
 * the same round trip the nic-agent's Go types make of the same file.
 */
class EvProfileVectorsTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TestFactory
    Stream<DynamicTest> everyProfileRoundTripsThroughTheRecord() {
        JsonNode vectors = JSON.readTree(Contracts.read("vectors/agent-profiles.json"));
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : vectors.get("cases")) {
            JsonNode profile = c.get("profile");
            tests.add(DynamicTest.dynamicTest(c.get("name").asString(), () -> {
                EvProfile p = JSON.treeToValue(profile, EvProfile.class);
                assertThat(JSON.readTree(JSON.writeValueAsString(p))).isEqualTo(profile);
            }));
        }
        assertThat(tests).hasSizeGreaterThanOrEqualTo(3);
        return tests.stream();
    }
}
