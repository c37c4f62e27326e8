package io.weft.scheduler.lease;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The writer lease between scheduler-api replicas ({@code weft.scheduler.lease.*}).
 *
 * @param pollMs how often a standby tries to take the lease and the writer checks it still holds it:
 *               the bound on how long writes stop after the writer dies (plus the engine rebuild)
 * @param holder how this replica names itself in {@code writer_lease.holder}; empty for host:pid
 */
@Validated
@ConfigurationProperties("weft.scheduler.lease")
public record LeaseProperties(
        @DefaultValue("250") @Min(10) @Max(60_000) long pollMs,
        @DefaultValue("") String holder) {
}
