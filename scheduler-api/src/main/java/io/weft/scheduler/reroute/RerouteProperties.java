package io.weft.scheduler.reroute;

import io.weft.contracts.Topics;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Closed-loop re-placement on telemetry hotspots ({@code weft.reroute.*}).
 *
 * @param enabled     follow {@code hotspotsTopic} and move flows (also needs Kafka configured)
 * @param k           most flows moved off one hot link direction per interval (Reunion's k)
 * @param t           elephant tolerance: a move never leaves a link direction above t elephants
 * @param intervalMs  statistics interval: the k budget and "one move per flow" reset every interval
 * @param hotspotsTopic topic of the telemetry collector's hotspot events
 * @param groupId     this service's own consumer group on that topic
 */
@Validated
@ConfigurationProperties("weft.reroute")
public record RerouteProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("1") @Min(1) @Max(64) int k,
        @DefaultValue("1") @Min(1) @Max(1024) int t,
        @DefaultValue("500") @Min(10) @Max(600_000) long intervalMs,
        @DefaultValue(Topics.HOTSPOTS) @NotBlank String hotspotsTopic,
        @DefaultValue("weft-scheduler-reroute") @NotBlank String groupId) {
}
