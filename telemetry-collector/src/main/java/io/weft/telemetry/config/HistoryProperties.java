package io.weft.telemetry.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The PostgreSQL history ({@code weft.telemetry.history.*}): daily partitions of the 1-second link
 * rollups and of the hotspot events are created {@code partitionsAheadDays} ahead and dropped when
 * older than {@code retentionDays}; the writer commits at most {@code batchSize} rows at a time.
 * {@code maxQueryRows} bounds one REST answer.
 */
@Validated
@ConfigurationProperties("weft.telemetry.history")
public record HistoryProperties(
        @Min(1) @Max(3650) int retentionDays,
        @Min(1) @Max(31) int partitionsAheadDays,
        @Min(1) @Max(100000) int batchSize,
        @Min(1) @Max(100000) int maxQueryRows) {
}
