package io.weft.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class FabricSchemaTest {

    @ParameterizedTest
    @ValueSource(strings = {"examples/leaf-spine-2x2.json", "examples/clos3-tiny.json", "examples/dragonfly-tiny.json"})
    void everyExampleIsAValidFabric(String example) {
        Set<ValidationMessage> errors = SchemaSupport.validate("fabric.schema.json", SchemaSupport.json(example));
        assertThat(errors).as(SchemaSupport.describe(errors)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"examples/leaf-spine-2x2.json", "examples/clos3-tiny.json", "examples/dragonfly-tiny.json"})
    void everyExampleIsWellFormed(String example) {
        // What the schema cannot say: link ends name nodes of the file, ids are unique, every NIC has one link.
        JsonNode f = SchemaSupport.json(example);
        Set<String> nodes = ids(f.get("nodes"));
        assertThat(nodes).hasSize(f.get("nodes").size());
        assertThat(ids(f.get("links"))).hasSize(f.get("links").size());
        Set<String> ports = new java.util.HashSet<>();
        java.util.Map<String, Integer> nicLinks = new java.util.HashMap<>();
        for (JsonNode l : f.get("links")) {
            for (String end : new String[] {"a", "b"}) {
                String node = l.get(end).get("node").asText();
                assertThat(nodes).as(l.get("id") + "." + end).contains(node);
                assertThat(ports.add(node + ":" + l.get(end).get("port").asText())).as("port used twice").isTrue();
                nicLinks.merge(node, 1, Integer::sum);
            }
        }
        for (JsonNode n : f.get("nodes")) {
            if (n.get("role").asText().equals("nic")) {
                assertThat(nicLinks.get(n.get("id").asText())).as(n.get("id").asText()).isEqualTo(1);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("invalidFabrics")
    void invalidFabricsAreRejectedAtTheRightPlace(String fixture, String location) throws IOException {
        JsonNode f;
        try (InputStream in = getClass().getResourceAsStream("/invalid/" + fixture + ".json")) {
            assertThat(in).as(fixture).isNotNull();
            f = SchemaSupport.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        Set<ValidationMessage> errors = SchemaSupport.validate("fabric.schema.json", f);
        assertThat(errors).as(fixture).isNotEmpty();
        assertThat(errors.stream().map(e -> e.getInstanceLocation().toString()).collect(Collectors.toSet()))
                .as(SchemaSupport.describe(errors))
                .contains(location);
    }

    static Stream<Arguments> invalidFabrics() {
        return Stream.of(
                Arguments.of("unknown-top-field", "$"),
                Arguments.of("unknown-node-field", "$.nodes[0]"),
                Arguments.of("block-not-32", "$.srv6.block"),
                Arguments.of("block-host-bits", "$.srv6.block"),
                Arguments.of("srv6-node-id-zero", "$.nodes[0].srv6NodeId"),
                Arguments.of("srv6-node-id-17-bits", "$.nodes[0].srv6NodeId"),
                Arguments.of("capacity-zero", "$.links[0].capacityGbps"),
                Arguments.of("capacity-string", "$.links[0].capacityGbps"),
                Arguments.of("latency-negative", "$.links[0].latencyNs"),
                Arguments.of("unknown-role", "$.nodes[0].role"),
                Arguments.of("missing-links", "$"),
                Arguments.of("id-with-arrow", "$.nodes[0].id"),
                Arguments.of("endpoint-without-port", "$.links[0].a"),
                Arguments.of("schema-version-2", "$.schemaVersion"),
                Arguments.of("node-without-role", "$.nodes[1]"),
                Arguments.of("gnmi-unknown-field", "$.nodes[0].gnmi"),
                Arguments.of("gnmi-port-string", "$.nodes[0].gnmi.port"));
    }

    @org.junit.jupiter.api.Test
    void aSwitchMayNameItsGnmiEndpoint() {
        JsonNode f = SchemaSupport.parse("{\"schemaVersion\":1,\"id\":\"f\",\"nodes\":[{\"id\":\"leaf1\",\"role\":"
                + "\"leaf\","
                + "\"gnmi\":{\"address\":\"127.0.0.1\",\"port\":50001,\"tls\":true,\"caFile\":\"ca.pem\","
                + "\"certFile\":\"c.pem\",\"keyFile\":\"k.pem\",\"usernameEnv\":\"GNMI_USER\",\"passwordEnv\":"
                + "\"GNMI_PW\"}}],"
                + "\"links\":[]}");
        Set<ValidationMessage> errors = SchemaSupport.validate("fabric.schema.json", f);
        assertThat(errors).as(SchemaSupport.describe(errors)).isEmpty();
    }

    private static Set<String> ids(JsonNode array) {
        Set<String> out = new java.util.HashSet<>();
        array.forEach(n -> out.add(n.get("id").asText()));
        return out;
    }
}
