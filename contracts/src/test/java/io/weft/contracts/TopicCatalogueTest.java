package io.weft.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.Test;

class TopicCatalogueTest {
    private static final Pattern TOPIC_IN_MD = Pattern.compile("`(weft\\.[a-z.]+[a-z])`");

    @Test
    void catalogueMatchesItsSchema() {
        Set<ValidationMessage> errors = SchemaSupport.validate("topics.schema.json", SchemaSupport.json("topics.json"));
        assertThat(errors).as(SchemaSupport.describe(errors)).isEmpty();
    }

    @Test
    void everyTopicIsDocumentedAndEveryDocumentedTopicIsInTheCatalogue() {
        Set<String> inJson = new TreeSet<>();
        for (JsonNode t : SchemaSupport.json("topics.json").get("topics")) {
            assertThat(inJson.add(t.get("name").asText())).as("duplicate " + t.get("name")).isTrue();
        }
        Set<String> inMd = new TreeSet<>();
        Matcher m = TOPIC_IN_MD.matcher(Contracts.read("topics.md"));
        while (m.find()) {
            inMd.add(m.group(1));
        }
        assertThat(inMd).isEqualTo(inJson);
        assertThat(inJson).contains("weft.fabric", "weft.telemetry.interfaces", "weft.telemetry.flows",
                "weft.hotspots", "weft.links.load", "weft.telemetry.deadletter");
    }

    @Test
    void everyValueSchemaExistsAndIsAValid2020_12Schema() {
        Set<String> schemas = new LinkedHashSet<>();
        for (JsonNode t : SchemaSupport.json("topics.json").get("topics")) {
            schemas.add(t.get("valueSchema").asText());
        }
        for (String s : schemas) {
            assertThat(Contracts.exists(s)).as(s).isTrue();
            JsonNode schema = SchemaSupport.json(s);
            Set<ValidationMessage> errors = SchemaSupport.metaSchema().validate(schema);
            assertThat(errors).as(s + ": " + SchemaSupport.describe(errors)).isEmpty();
            assertThat(schema.get("$id").asText()).isEqualTo(Contracts.ID_PREFIX + s);
            SchemaSupport.schema(s); // loads and resolves every $ref
        }
    }

    @Test
    void compactedTopicsAreTheSnapshotAndLoadTopicsAndRetentionIsSetElsewhere() {
        for (JsonNode t : SchemaSupport.json("topics.json").get("topics")) {
            String name = t.get("name").asText();
            String policy = t.get("config").get("cleanup.policy").asText();
            if (name.equals("weft.fabric") || name.equals("weft.links.load")) {
                assertThat(policy).as(name).isEqualTo("compact");
            } else {
                assertThat(policy).as(name).isEqualTo("delete");
                assertThat(t.get("config").has("retention.ms")).as(name + " retention").isTrue();
            }
        }
    }
}
