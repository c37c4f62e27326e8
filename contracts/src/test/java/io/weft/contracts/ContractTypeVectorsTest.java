package io.weft.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Each contract type against its shared vectors and its schema: a valid value passes the schema and
 * the reader, has the vector's record key, and what the writer writes passes the schema and reads
 * back equal; an invalid value fails the schema and the reader, and the reader names the vector's field.
 */
class ContractTypeVectorsTest {

    @TestFactory
    Stream<DynamicTest> hotspotEvents() {
        return cases("vectors/hotspot-events.json", "value", "schemas/hotspot-event.schema.json",
                HotspotEvent::fromTree, e -> ((HotspotEvent) e).directionKey());
    }

    @TestFactory
    Stream<DynamicTest> linkLoads() {
        return cases("vectors/link-loads.json", "value", "schemas/link-load.schema.json",
                LinkLoad::fromTree, l -> ((LinkLoad) l).directionKey());
    }

    @TestFactory
    Stream<DynamicTest> flowReports() {
        return cases("vectors/flow-reports.json", "report", "schemas/flow-report.schema.json",
                FlowReport::fromTree, r -> null);
    }

    private static Stream<DynamicTest> cases(String file, String valueField, String schema,
                                             Function<JsonNode, TopicValue> read,
                                             Function<TopicValue, DirectionKey> direction) {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : SchemaSupport.json(file).get("cases")) {
            JsonNode value = c.get(valueField);
            String name = c.get("name").asText();
            if (c.get("valid").asBoolean()) {
                tests.add(DynamicTest.dynamicTest(name, () -> {
                    assertThat(SchemaSupport.validate(schema, value)).isEmpty();
                    TopicValue v = read.apply(value);
                    if (c.has("key")) {
                        assertThat(v.key()).isEqualTo(c.get("key").asText());
                    }
                    if (c.has("directionKey")) {
                        assertThat(direction.apply(v)).isEqualTo(DirectionKey.parse(c.get("directionKey").asText()));
                        assertThat(direction.apply(v).toString()).isEqualTo(c.get("directionKey").asText());
                    }
                    JsonNode written = SchemaSupport.parse(v.toJson());
                    Set<ValidationMessage> errors = SchemaSupport.validate(schema, written);
                    assertThat(errors).as(SchemaSupport.describe(errors)).isEmpty();
                    assertThat(read.apply(written)).isEqualTo(v);
                    assertThat(written.size()).as("fields written").isLessThanOrEqualTo(value.size());
                }));
            } else {
                String field = c.get("field").asText();
                tests.add(DynamicTest.dynamicTest(name, () -> {
                    String last = field.substring(field.lastIndexOf('.') + 1).replaceAll("\\[.*", "");
                    assertThat(SchemaSupport.describe(SchemaSupport.validate(schema, value))).contains(last);
                    assertThatThrownBy(() -> read.apply(value)).isInstanceOfSatisfying(ContractException.class,
                            e -> assertThat(e.field()).isEqualTo(field));
                }));
            }
        }
        assertThat(tests).hasSizeGreaterThan(3);
        return tests.stream();
    }
}
