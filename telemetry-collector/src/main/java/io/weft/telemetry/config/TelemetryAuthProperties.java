package io.weft.telemetry.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Who may call the collector's REST ({@code weft.collector.auth.*}; contracts/auth.md).
 *
 * @param reads      {@code token} (GET needs a scheduler or operator token) or {@code open}
 * @param tokens     inline tokens in the WEFT_TOKENS format, or empty
 * @param tokensFile a tokens file, or empty
 */
@Validated
@ConfigurationProperties("weft.collector.auth")
public record TelemetryAuthProperties(@DefaultValue("token") String reads, String tokens, String tokensFile) {
}
