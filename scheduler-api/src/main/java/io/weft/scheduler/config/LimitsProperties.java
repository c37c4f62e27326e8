package io.weft.scheduler.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Request limits enforced at the boundary, so one bad client cannot exhaust the service.
 *
 * @param maxBodyBytes            largest accepted request body; larger ones get 413
 * @param maxFlowsPerJob          largest job (flows after pattern expansion x QP slices)
 * @param maxEndpointsPerJob      largest endpoint list of a pattern job
 * @param longPollMaxWaitSeconds  cap on an agent's {@code wait}; larger values are clamped, not rejected
 * @param maxPageSize             cap on {@code size} of paged listings
 * @param multipathBudgetMs       wall time the multipath planner may spend on one job before the job
 *                                is placed one path per flow (held under the single writer)
 */
@Validated
@ConfigurationProperties("weft.scheduler.limits")
public record LimitsProperties(
        @Min(1024) long maxBodyBytes,
        @Min(1) int maxFlowsPerJob,
        @Min(2) int maxEndpointsPerJob,
        @Min(0) @Max(3600) int longPollMaxWaitSeconds,
        @Min(1) @Max(10_000) int maxPageSize,
        @Min(1) @Max(600_000) long multipathBudgetMs) {
}
