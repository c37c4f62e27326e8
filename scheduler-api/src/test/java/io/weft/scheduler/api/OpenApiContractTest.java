package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

/**
 * The served OpenAPI document equals the committed contract (both parsed, so key order and YAML
 * style do not matter). After an intended API change, regenerate the contract with
 * {@code ./mvnw -pl scheduler-api test -Dtest=OpenApiContractTest -Dweft.openapi.write=true}
 * and commit it with the code.
 */
class OpenApiContractTest extends ApiTestSupport {
    static final Path CONTRACT = Path.of("../contracts/openapi/scheduler-api.yaml").toAbsolutePath().normalize();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void servedSpecEqualsCommittedContract() throws IOException {
        Reply served = get("/v3/api-docs.yaml", null);
        assertThat(served.status()).isEqualTo(200);
        String text = served.raw().body();
        if (Boolean.getBoolean("weft.openapi.write")) {
            Files.createDirectories(CONTRACT.getParent());
            Files.writeString(CONTRACT, "# Generated from the running scheduler-api (OpenApiContractTest); "
                    + "do not edit by hand.\n" + text);
        }
        JsonNode servedTree = tagsByName(YAML.readTree(text));
        JsonNode committed = tagsByName(YAML.readTree(Files.readString(CONTRACT)));
        assertThat(servedTree).isEqualTo(committed);
        assertThat(servedTree.at("/paths").has("/v1/agents/{nic}/paths")).isTrue();
        assertThat(servedTree.at("/paths").has("/v1/jobs")).isTrue();
    }

    /**
     * The tag list in name order: springdoc lists tags in the order it meets the controllers, which
     * varies between runs and carries no meaning.
     */
    private static JsonNode tagsByName(JsonNode spec) {
        if (spec.get("tags") instanceof ArrayNode tags) {
            List<JsonNode> sorted = new ArrayList<>();
            tags.forEach(sorted::add);
            sorted.sort(Comparator.comparing(t -> t.path("name").asText()));
            tags.removeAll();
            tags.addAll(sorted);
        }
        return spec;
    }
}
