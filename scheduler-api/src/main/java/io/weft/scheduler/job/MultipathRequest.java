package io.weft.scheduler.job;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/**
 * A job's permission to spread each flow over several weighted paths (QP slices or EV entries of
 * one connection). Absent, or {@code maxPaths} 1, is one path per flow.
 *
 * @param maxPaths    most paths one flow may use (what the NIC keeps per peer)
 * @param granularity weights are multiples of 1/granularity (what the NIC or its ECMP group can split
 *                    by): 8 or 16, checked in {@code JobRequests} and stated in the served contract
 */
public record MultipathRequest(
        @NotNull @Min(1) @Max(16) Integer maxPaths,
        @NotNull Integer granularity) {

    /** The granularities NICs and ECMP groups split by. */
    static boolean supported(int granularity) {
        return granularity == 8 || granularity == 16;
    }

    /** True when the job asks for more than one path per flow. */
    boolean spreads() {
        return maxPaths != null && maxPaths > 1;
    }
}
