package io.weft.scheduler.agent;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

/**
 * A NIC agent's flow report, contracts/schemas/flow-report.schema.json (topic
 * {@code weft.telemetry.flows}); checked here field by field so a bad report is refused with the
 * field's name instead of poisoning the topic.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FlowReport(
        @NotNull @Min(1) @Max(1) Integer schemaVersion,
        @NotBlank String nic,
        @NotNull @Pattern(regexp = UINT64, message = UINT64_MESSAGE) String timestampNs,
        @NotNull @Size(max = 100_000) List<@Valid @NotNull FlowSample> flows,
        @Size(max = 100_000) List<@Valid @NotNull Rejection> rejected) {

    static final String UINT64 = "^(0|[1-9][0-9]{0,19})$";
    static final String UINT64_MESSAGE = "must be an unsigned 64-bit integer as a decimal string";

    /** The same report without its rejections (what {@code weft.telemetry.flows} carries today). */
    FlowReport withoutRejections() {
        return new FlowReport(schemaVersion, nic, timestampNs, flows, null);
    }

    /**
     * A profile entry (or a whole peer, without {@code entry}) the agent refused to apply, naming
     * the profile's field (e.g. {@code peers[1].entries[2].carriers[0]}) and why.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Rejection(
            @NotNull String peer,
            @Size(min = 1) String entry,
            @NotBlank String field,
            @NotBlank String reason) {
    }

    /** One flow; exactly one of {@code ev} and {@code carrier}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record FlowSample(
            @NotBlank String flowId,
            @Size(min = 1) String jobId,
            @NotBlank String dstNic,
            @Min(0) @Max(65535) Integer ev,
            @Pattern(regexp = "^[0-9a-f:]+$", message = "must be a lowercase IPv6 address") String carrier,
            @NotNull @Pattern(regexp = UINT64, message = UINT64_MESSAGE) String bytes,
            @NotNull @PositiveOrZero Double rateGbps,
            @NotNull @Pattern(regexp = UINT64, message = UINT64_MESSAGE) String ecnMarked,
            @NotNull @Pattern(regexp = UINT64, message = UINT64_MESSAGE) String cnpCount,
            @PositiveOrZero Double rttUs,
            @NotNull @Pattern(regexp = UINT64, message = UINT64_MESSAGE) String drops) {
    }
}
