package io.weft.scheduler.config;

import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Fabric-wide re-spreading of the multipath jobs ({@code weft.scheduler.respread.*}).
 *
 * @param afterLinkPasses re-spread after a link-down, drain, link-up or new-fabric pass when the max
 *                        load is above the fabric-wide optimum by more than {@code margin}
 * @param afterHotspotPasses the same after a hotspot or fast link-down pass of the re-placement loop
 *                        that moved slices of a job that may spread
 * @param margin          how far above the optimum (relative: 0.05 is 5 %) the max load may stay
 *                        before a pass re-spreads
 * @param minIntervalMs   at most one triggered pass per interval: a flapping link does not re-spread
 *                        on every snapshot (a trigger inside the interval runs at its end, once)
 * @param budgetMs        wall time the planner may spend on one pass (held under the single writer);
 *                        when it runs out the placement stays as it is
 */
@Validated
@ConfigurationProperties("weft.scheduler.respread")
public record RespreadProperties(
        @DefaultValue("true") boolean afterLinkPasses,
        @DefaultValue("true") boolean afterHotspotPasses,
        @DefaultValue("0.05") @DecimalMin("0.0") double margin,
        @DefaultValue("30000") @Min(0) @Max(86_400_000) long minIntervalMs,
        @DefaultValue("2000") @Min(1) @Max(600_000) long budgetMs) {
}
