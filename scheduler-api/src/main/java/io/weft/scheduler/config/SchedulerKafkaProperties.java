package io.weft.scheduler.config;

import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Kafka endpoints and topic names (contracts/topics.md). An empty {@code bootstrapServers} turns
 * Kafka off: the fabric then comes only from {@code weft.scheduler.fabric.file} and agent reports
 * are refused with 503.
 */
@Validated
@ConfigurationProperties("weft.scheduler.kafka")
public record SchedulerKafkaProperties(
        String bootstrapServers,
        @NotBlank String fabricTopic,
        @NotBlank String flowsTopic,
        @NotBlank String clientId) {

    public boolean enabled() {
        return bootstrapServers != null && !bootstrapServers.isBlank();
    }
}
