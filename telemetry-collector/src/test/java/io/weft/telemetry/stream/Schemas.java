package io.weft.telemetry.stream;

import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.weft.contracts.Contracts;

/** Contract schemas loaded by $id from the weft-contracts jar, formats asserted. */
final class Schemas {
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
            b -> b.schemaMappers(m -> m.mapPrefix(Contracts.ID_PREFIX, "classpath:" + Contracts.ROOT)));
    private static final SchemaValidatorsConfig CONFIG = SchemaValidatorsConfig.builder()
            .formatAssertionsEnabled(true).pathType(PathType.JSON_PATH).build();

    private Schemas() {
    }

    /** The validation errors of {@code instance} against e.g. "schemas/link-load.schema.json", one per line. */
    static String errors(String schemaPath, JsonNode instance) {
        JsonSchema s = FACTORY.getSchema(SchemaLocation.of(Contracts.ID_PREFIX + schemaPath), CONFIG);
        Set<ValidationMessage> errors = s.validate(instance);
        return errors.stream().map(ValidationMessage::getMessage).sorted().collect(Collectors.joining("\n"));
    }
}
