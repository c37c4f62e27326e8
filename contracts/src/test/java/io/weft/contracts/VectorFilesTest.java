package io.weft.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VectorFilesTest {

    @ParameterizedTest
    @ValueSource(strings = {"usid-carriers", "ev", "gnmic-events", "counter-rates", "flow-reports", "hotspot-events",
            "link-loads", "agent-profiles", "ev-ports"})
    void everyVectorFileMatchesItsSchemaAndHasUniqueCaseNames(String name) {
        JsonNode vectors = SchemaSupport.json("vectors/" + name + ".json");
        String schema = "vectors/schemas/" + name + ".schema.json";
        assertThat(SchemaSupport.metaSchema().validate(SchemaSupport.json(schema))).isEmpty();
        Set<ValidationMessage> errors = SchemaSupport.validate(schema, vectors);
        assertThat(errors).as(SchemaSupport.describe(errors)).isEmpty();
        assertThat(vectors.get("version").asInt()).isEqualTo(1);
        JsonNode cases = vectors.has("cases") ? vectors.get("cases") : vectors.get("encode");
        Set<String> names = new HashSet<>();
        cases.forEach(c -> assertThat(names.add(c.get("name").asText())).as("duplicate " + c.get("name")).isTrue());
    }

    @Test
    void everyGnmicRecordThatParsesIsAValidTopicValue() {
        // The topic schema and the normalisation vectors must agree on what a good record is.
        for (JsonNode c : SchemaSupport.json("vectors/gnmic-events.json").get("cases")) {
            if (c.has("samples")) {
                JsonNode record = SchemaSupport.parse(c.get("record").asText());
                Set<ValidationMessage> errors = SchemaSupport.validate("schemas/gnmic-event.schema.json", record);
                assertThat(errors).as(c.get("name") + ": " + SchemaSupport.describe(errors)).isEmpty();
            }
        }
    }

    @Test
    void flowReportVectorsAgreeWithTheTopicSchema() {
        // Valid reports pass the topic schema; invalid ones fail it at the vector's field (up to its
        // last index: a missing property is reported on the object that lacks it).
        for (JsonNode c : SchemaSupport.json("vectors/flow-reports.json").get("cases")) {
            Set<ValidationMessage> errors = SchemaSupport.validate("schemas/flow-report.schema.json", c.get("report"));
            String name = c.get("name").asText();
            if (c.get("valid").asBoolean()) {
                assertThat(errors).as(name + ": " + SchemaSupport.describe(errors)).isEmpty();
            } else {
                String field = c.get("field").asText();
                String at = "$." + field.substring(0, field.lastIndexOf(']') + 1);
                assertThat(SchemaSupport.describe(errors)).as(name).contains(at);
            }
        }
    }

    @Test
    void counterRateCasesHaveOneResultPerSample() {
        for (JsonNode c : SchemaSupport.json("vectors/counter-rates.json").get("cases")) {
            assertThat(c.get("results").size()).as(c.get("name").asText()).isEqualTo(c.get("samples").size());
            assertThat(c.get("results").get(0).get("kind").asText()).isEqualTo("first");
        }
    }

    @Test
    void theUsidCarrierVectorsCoverTheCasesEverySideMustHandle() {
        Set<Integer> carrierCounts = new HashSet<>();
        Set<String> errors = new HashSet<>();
        for (JsonNode c : SchemaSupport.json("vectors/usid-carriers.json").get("cases")) {
            if (c.has("error")) {
                errors.add(c.get("error").asText());
            } else {
                carrierCounts.add(c.get("carriers").size());
            }
        }
        assertThat(carrierCounts).contains(1, 2, 3);
        assertThat(errors).containsExactlyInAnyOrder("block-not-32", "usid-zero", "usid-out-of-range", "empty");
    }
}
