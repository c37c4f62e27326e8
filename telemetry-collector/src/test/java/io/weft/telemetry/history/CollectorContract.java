package io.weft.telemetry.history;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.weft.contracts.Contracts;
import org.yaml.snakeyaml.Yaml;

/**
 * contracts/openapi/telemetry-collector.yaml as a validator of the collector's answers. A component
 * schema is validated with the document's components beside it (so "#/components/..." resolves) and
 * at the document's own $id-style location (so "../schemas/..." resolves to the contracts jar).
 */
final class CollectorContract {
    static final Path FILE = Path.of("../contracts/openapi/telemetry-collector.yaml");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String LOCATION = Contracts.ID_PREFIX + "openapi/telemetry-collector.yaml";
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
            b -> b.schemaMappers(m -> m.mapPrefix(Contracts.ID_PREFIX, "classpath:" + Contracts.ROOT)));
    private static final SchemaValidatorsConfig CONFIG = SchemaValidatorsConfig.builder()
            .formatAssertionsEnabled(true).pathType(PathType.JSON_PATH).build();
    private static final JsonNode DOC = load();

    private CollectorContract() {
    }

    private static JsonNode load() {
        try {
            Map<String, Object> yaml = new Yaml().load(Files.readString(FILE));
            return MAPPER.valueToTree(yaml);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + FILE, e);
        }
    }

    static JsonNode document() {
        return DOC;
    }

    /** The errors of {@code instance} against components.schemas.{@code name}, one per line ("" when valid). */
    static String errors(String name, JsonNode instance) {
        if (!DOC.path("components").path("schemas").has(name)) {
            throw new IllegalArgumentException("no schema " + name + " in " + FILE);
        }
        return errorsOf("#/components/schemas/" + name, instance);
    }

    /** The errors of {@code instance} against the 400 answer of the contract. */
    static String problemErrors(JsonNode instance) {
        return errorsOf("#/components/responses/BadParameter/content/application~1problem+json/schema", instance);
    }

    private static String errorsOf(String pointer, JsonNode instance) {
        ObjectNode wrapper = MAPPER.createObjectNode();
        wrapper.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        wrapper.put("$ref", pointer);
        wrapper.set("components", DOC.get("components"));
        JsonSchema s = FACTORY.getSchema(SchemaLocation.of(LOCATION), wrapper, CONFIG);
        return s.validate(instance).stream().map(ValidationMessage::getMessage).sorted()
                .collect(Collectors.joining("\n"));
    }
}
