package io.weft.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Set;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.weft.contracts.Contracts;
import org.junit.jupiter.api.Test;

class DeadLetterTest {
    private static final JsonSchema SCHEMA = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
                    b -> b.schemaMappers(m -> m.mapPrefix(Contracts.ID_PREFIX, "classpath:" + Contracts.ROOT)))
            .getSchema(SchemaLocation.of(Contracts.ID_PREFIX + "schemas/deadletter.schema.json"),
                    SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build());

    @Test
    void aRejectedRecordBecomesAContractValidDeadLetter() throws Exception {
        byte[] value = "{\"timestamp\":1,\"tags\":{\"interface_name\":\"eth1\"},\"values\":{}}"
                .getBytes(StandardCharsets.UTF_8);
        TelemetryFormatException why = catchThrowableOfType(TelemetryFormatException.class,
                () -> new GnmicEventParser().parse(new String(value, StandardCharsets.UTF_8)));
        DeadLetter d = DeadLetter.of("weft.telemetry.interfaces", 4, 1234, "leaf1", value, why,
                Instant.parse("2026-11-21T12:00:00.5Z"));

        assertThat(d.error()).isEqualTo("no-target");
        assertThat(d.detail()).isEqualTo("$.tags: no target or source tag");
        String json = d.toJson();
        Set<ValidationMessage> errors = SCHEMA.validate(new ObjectMapper().readTree(json));
        assertThat(errors).isEmpty();
        assertThat(json).contains("\"receivedAt\":\"2026-11-21T12:00:00.500Z\"");
    }

    @Test
    void binaryRecordsAndMissingKeysStillMakeValidDeadLetters() throws Exception {
        byte[] value = {(byte) 0xff, (byte) 0xfe, 0x7b};
        TelemetryFormatException why = catchThrowableOfType(TelemetryFormatException.class,
                () -> new GnmicEventParser().parse(new String(value, StandardCharsets.UTF_8)));
        DeadLetter d = DeadLetter.of("weft.telemetry.interfaces", 0, 0, null, value, why, Instant.EPOCH);
        assertThat(d.error()).isEqualTo("not-json");
        assertThat(d.record()).endsWith("{").contains("\uFFFD");
        assertThat(SCHEMA.validate(new ObjectMapper().readTree(d.toJson()))).isEmpty();
        assertThat(d.toTree().get("key").isNull()).isTrue();
    }

    @Test
    void negativeOffsetsAreRejected() {
        assertThatThrownBy(() -> new DeadLetter("t", 0, -1, null, "not-json", "x", Instant.EPOCH, ""))
                .hasMessageStartingWith("partition and offset:");
    }
}
