package io.weft.telemetry;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A telemetry record that could not be used, as written to {@code weft.telemetry.deadletter}
 * (contracts/schemas/deadletter.schema.json): where it came from, why, and the record itself.
 *
 * @param key    the rejected record's key, null when it had none
 * @param error  the contract error code ({@link TelemetryFormatException.Code#code()})
 * @param detail one line naming the field at fault
 * @param record the raw record value as text
 */
public record DeadLetter(String sourceTopic, int partition, long offset, String key, String error, String detail,
                         Instant receivedAt, String record) {
    public static final int SCHEMA_VERSION = 1;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    public DeadLetter {
        Objects.requireNonNull(sourceTopic, "sourceTopic");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(receivedAt, "receivedAt");
        Objects.requireNonNull(record, "record");
        if (partition < 0 || offset < 0) {
            throw new IllegalArgumentException("partition and offset: must be >= 0 (got "
                    + partition + ", " + offset + ")");
        }
    }

    /**
     * The dead letter for a record the parser rejected. The value bytes are decoded as UTF-8 with
     * malformed bytes replaced, so that even a binary record can be looked at.
     */
    public static DeadLetter of(String sourceTopic, int partition, long offset, String key, byte[] value,
                                TelemetryFormatException why, Instant receivedAt) {
        String text = value == null ? "" : new String(value, StandardCharsets.UTF_8);
        return new DeadLetter(sourceTopic, partition, offset, key, why.code().code(),
                why.getMessage(), receivedAt, text);
    }

    public ObjectNode toTree() {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("schemaVersion", SCHEMA_VERSION);
        o.put("sourceTopic", sourceTopic);
        o.put("partition", partition);
        o.put("offset", offset);
        o.put("key", key);
        o.put("error", error);
        o.put("detail", detail);
        o.put("receivedAt", receivedAt.toString());
        o.put("record", record);
        return o;
    }

    public String toJson() {
        try {
            return MAPPER.writeValueAsString(toTree());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("dead letter could not be serialised", e);
        }
    }
}
