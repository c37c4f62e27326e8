package io.weft.scheduler.job;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Response bodies of the jobs API. */
public final class JobViews {
    private JobViews() {
    }

    /** A job with every flow slice, its current path and encodings. */
    public record JobView(String id, String name, String tenant, String state, String pattern, String encoding,
                          String createdBy, Instant createdAt,
                                  @JsonInclude(JsonInclude.Include.NON_NULL) Instant releasedAt,
                          QualityView quality, List<FlowView> flows) {
    }

    /**
     * Placement quality when the job was admitted, over the whole fabric.
     *
     * @param maxLinkLoad highest link-direction utilisation (reserved Gbit/s / capacity)
     * @param collisions  link directions carrying more elephant flows than the tolerance
     */
    public record QualityView(double maxLinkLoad, int collisions) {
    }

    /**
     * One QP slice of a flow.
     *
     * @param links    link ids from the source NIC to the destination NIC
     * @param nodes    node ids along the path, source NIC first
     * @param carriers SRv6 uSID carriers (carriers[0] = destination address); omitted for encoding ev
     * @param ev       16-bit entropy value (RoCEv2 UDP source port); omitted for encoding srv6 or when
     *                 EV routing cannot reach the path
     * @param state    GOOD, or DENIED while the flow has no usable path
     * @param version  the source NIC's version at which this path was issued
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record FlowView(String id, int index, int slice, String src, String dst, double demandGbps,
                           long version, String state, List<String> links, List<String> nodes,
                           List<String> carriers, List<Integer> usids, Integer ev) {
    }

    public record JobSummary(String id, String name, String tenant, String state, String pattern,
                             String encoding, int flows, Instant createdAt,
                             @JsonInclude(JsonInclude.Include.NON_NULL) Instant releasedAt) {
    }

    public record Page<T>(List<T> items, int page, int size, long total) {
    }

    /** One path change of one flow slice. {@code links} is empty when the flow lost its path. */
    public record Change(String flowId, long version, List<String> links, String reason, Instant at) {
    }

    public record History(String jobId, List<Change> changes) {
    }
}
