package io.weft.contracts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

/**
 * Loads contract schemas the way any consumer should: by their {@code $id}, which maps onto the
 * classpath, so that relative {@code $ref}s between contract files resolve without a network.
 */
final class SchemaSupport {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(
            SpecVersion.VersionFlag.V202012,
            b -> b.schemaMappers(m -> m.mapPrefix(Contracts.ID_PREFIX, "classpath:" + Contracts.ROOT)));

    // Formats (ipv6, date-time) are asserted: the contracts rely on them.
    private static final SchemaValidatorsConfig CONFIG = SchemaValidatorsConfig.builder()
            .formatAssertionsEnabled(true)
            .pathType(PathType.JSON_PATH)
            .build();

    private SchemaSupport() {
    }

    /** A contract schema by its path relative to contracts/, e.g. "schemas/link-load.schema.json". */
    static JsonSchema schema(String relativePath) {
        JsonSchema s = FACTORY.getSchema(SchemaLocation.of(Contracts.ID_PREFIX + relativePath), CONFIG);
        s.initializeValidators(); // resolve every $ref now, not lazily on first use
        return s;
    }

    /** The 2020-12 meta-schema (bundled with the validator). */
    static JsonSchema metaSchema() {
        return FACTORY.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"), CONFIG);
    }

    static JsonNode json(String relativePath) {
        return parse(Contracts.read(relativePath));
    }

    static JsonNode parse(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Set<ValidationMessage> validate(String schemaPath, JsonNode instance) {
        return schema(schemaPath).validate(instance);
    }

    static String describe(Set<ValidationMessage> errors) {
        return errors.stream().map(ValidationMessage::getMessage).sorted().collect(Collectors.joining("\n"));
    }
}
