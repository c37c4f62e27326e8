package io.weft.telemetry.config;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Kafka endpoints and the topic names of contracts/topics.md ({@code weft.telemetry.kafka.*}).
 * An empty {@code bootstrapServers} turns the Streams topology and the history writer off: the
 * service then only answers history queries. {@code linksLoadIntervalMs}: weft.links.load gets at most
 * one record per link direction per this many ms of sample time (0: one per rate sample); hotspots are never delayed.
 * {@code sessionTimeoutMs}: how long the consumer groups (the topology's and the history writer's) wait
 * before a silent instance (kill -9, a lost node) is dropped and its partitions move; the broker must
 * allow it ({@code group.min.session.timeout.ms}, 6000 by default, lower in the devstack and deploy/).
 * {@code groupProtocol}: how the topology's instances share the partitions: {@code classic} (the
 * consumer group protocol; {@code sessionTimeoutMs} applies) or {@code streams} (Kafka 4.2's streams
 * rebalance protocol: the broker assigns the tasks, and the session timeout is the broker's
 * {@code group.streams.session.timeout.ms}, 45 s on a stock broker; {@code sessionTimeoutMs} then only
 * applies to the history writer).
 */
@Validated
@ConfigurationProperties("weft.telemetry.kafka")
public record TelemetryKafkaProperties(
        String bootstrapServers,
        @NotBlank String applicationId,
        @NotBlank String stateDir,
        @NotBlank String fabricTopic,
        @NotBlank String interfacesTopic,
        @NotBlank String flowsTopic,
        @NotBlank String hotspotsTopic,
        @NotBlank String linksLoadTopic,
        @NotBlank String deadletterTopic,
        @PositiveOrZero long linksLoadIntervalMs,
        @Positive long sessionTimeoutMs,
        @NotBlank @Pattern(regexp = "classic|streams", message = "must be classic or streams") String groupProtocol) {

    public boolean enabled() {
        return bootstrapServers != null && !bootstrapServers.isBlank();
    }
}
