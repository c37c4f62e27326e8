package io.weft.scheduler.job;

import java.util.List;

import io.weft.scheduler.web.Ids;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /v1/jobs}. Either a pattern over {@code endpoints} (NIC ids, in ring/stage
 * order) with one {@code demandGbps} and {@code qpSlices} for every flow, or {@code pattern =
 * explicit} with a {@code flows} list. Cross-field rules are checked in {@link JobRequests}.
 *
 * @param maxLinkLoad admission limit: refuse (409) rather than place the job if any link would be
 *                    loaded above this fraction of its capacity
 * @param concurrentPeers all-to-all only: each NIC talks to at most this many peers at a time
 * @param order ring only: {@code given} keeps the endpoint order, {@code auto} lets Weft group ranks by
 *              leaf to cut fabric crossings
 * @param multipath spread each flow over weighted paths; {@code qpSlices} must then be absent (the
 *                  paths are the slices) or 1, which says each flow allows one path (no spraying): the
 *                  job is placed one path per flow and {@code multipath.fallback} says so
 */
public record JobRequest(
        // No control characters: a name is shown in logs and stored as PostgreSQL text (no NUL there).
        @NotBlank @Size(max = 200) @jakarta.validation.constraints.Pattern(regexp = "^[^\\x00-\\x1F\\x7F]+$",
                message = "must not contain control characters") String name,
        @Size(min = 1, max = 100) @jakarta.validation.constraints.Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE)
        String tenant,
        @NotNull Pattern pattern,
        List<@NotBlank String> endpoints,
        List<@Valid @NotNull FlowRequest> flows,
        @Positive @DecimalMax("100000") Double demandGbps,
        @Min(1) @Max(256) Integer qpSlices,
        Encoding encoding,
        @Positive Double maxLinkLoad,
        @Min(1) Integer concurrentPeers,
        @jakarta.validation.constraints.Pattern(regexp = "^(given|auto)$", message = "must be given or auto")
        String order,
        @Valid MultipathRequest multipath) {

    /** One explicit flow. A missing demand falls back to the job's. */
    public record FlowRequest(
            @NotBlank String src,
            @NotBlank String dst,
            @Positive @DecimalMax("100000") Double demandGbps) {
    }
}
