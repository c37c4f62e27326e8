package io.weft.controller.standalone;

import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.weft.contracts.Contracts;

/** The weft.fabric value contract, loaded from the contracts jar (its $refs resolve there too). */
final class SnapshotSchema {
    private static final JsonSchema SCHEMA = load("schemas/fabric-snapshot.schema.json");

    private SnapshotSchema() {
    }

    /** Schema violations of a snapshot as served or published; empty when it meets the contract. */
    static Set<ValidationMessage> violations(JsonNode snapshot) {
        return SCHEMA.validate(snapshot);
    }

    private static JsonSchema load(String path) {
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
                b -> b.schemaMappers(m -> m.mapPrefix(Contracts.ID_PREFIX, "classpath:" + Contracts.ROOT)));
        SchemaValidatorsConfig config = SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();
        JsonSchema schema = factory.getSchema(SchemaLocation.of(Contracts.ID_PREFIX + path), config);
        schema.initializeValidators();
        return schema;
    }
}
