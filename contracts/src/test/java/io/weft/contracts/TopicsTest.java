package io.weft.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** The Java topic catalogue and contracts/topics.json name the same topics, in the same order. */
class TopicsTest {
    @Test
    void everyTopicOfTheJsonIsAJavaConstantAndEveryConstantIsInTheJson() {
        List<String> inJson = new ArrayList<>();
        for (JsonNode t : SchemaSupport.json("topics.json").get("topics")) {
            inJson.add(t.get("name").asText());
        }
        assertThat(Topics.all()).containsExactlyElementsOf(inJson);
        assertThat(inJson).containsExactlyElementsOf(Topics.all());
    }

    @Test
    void eachConstantIsTheTopicOfTheSchemaItsTypeReads() {
        Map<String, String> bySchema = Map.of(
                "schemas/fabric-snapshot.schema.json", Topics.FABRIC,
                "schemas/gnmic-event.schema.json", Topics.TELEMETRY_INTERFACES,
                "schemas/flow-report.schema.json", Topics.TELEMETRY_FLOWS,
                "schemas/hotspot-event.schema.json", Topics.HOTSPOTS,
                "schemas/link-load.schema.json", Topics.LINKS_LOAD,
                "schemas/deadletter.schema.json", Topics.TELEMETRY_DEADLETTER);
        for (JsonNode t : SchemaSupport.json("topics.json").get("topics")) {
            assertThat(bySchema.get(t.get("valueSchema").asText())).as(t.get("valueSchema").asText())
                    .isEqualTo(t.get("name").asText());
        }
    }
}
