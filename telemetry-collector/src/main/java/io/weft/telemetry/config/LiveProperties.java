package io.weft.telemetry.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The live load feed ({@code weft.telemetry.live.*}): changed link directions are sent to stream
 * clients at most once every {@code intervalMs} (100 ms: at most 10 Hz, however fast loads arrive);
 * a comment line every {@code keepaliveMs} keeps idle connections and proxies open.
 */
@Validated
@ConfigurationProperties("weft.telemetry.live")
public record LiveProperties(
        @Min(10) @Max(10_000) long intervalMs,
        @Min(1_000) @Max(600_000) long keepaliveMs) {
}
