package io.weft.scheduler.job;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;

/** Response bodies of the jobs API. */
public final class JobViews {
    /** The contract's word on granularBound, in both answers that carry it. */
    static final String GRANULAR_BOUND = "Proven lower bound on the max load of any routing whose weights are "
            + "whole units of 1/granularity (one path per flow included; a re-spread rounds in units that every "
            + "granularity of its jobs divides): lowerBound raised to the next load such "
            + "units can put on a link, so lowerBound <= granularBound <= the max load handed out. A max load above "
            + "splittableOptimum but equal to granularBound is what the granularity costs, not where the solver "
            + "stopped: no routing in these units does better. Absent when no bound was proven.";

    static final String PATHS_DROPPED = "Planned paths that do not encode for one job's tenant: dropped for that "
            + "job only (its flow keeps its other paths, or stays as it is when none is left), each as 'flow: why'.";

    private JobViews() {
    }

    /**
     * A job with every flow slice, its current path and encodings.
     *
     * @param multipath what the multipath planner did, for a job that asked for multipath
     */
    public record JobView(String id, String name, String tenant, String state, String pattern, String encoding,
                          String createdBy, Instant createdAt,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Instant releasedAt,
                          QualityView quality, @JsonInclude(JsonInclude.Include.NON_NULL) MultipathView multipath,
                          List<FlowView> flows) {
    }

    /**
     * The multipath planner's answer at admission, or, once a fabric-wide re-spread that spread this
     * job together with the others was applied, that pass's ({@code respreadAt} says when; the
     * singlePathMaxLoad stays the admission's). Loads are max link-direction utilisations with every
     * other job's reservation counted; absent numbers were not computed (maxPaths 1, or the planner
     * gave up before it had them).
     *
     * @param maxPaths           most paths per flow the job allowed
     * @param granularity        weights are multiples of 1/granularity
     * @param fallback           why the flows are on one path each; absent when they are spread (or
     *                           one path per flow was already optimal)
     * @param maxPathsPerFlow    most paths any flow got
     * @param singlePathMaxLoad  max load with the engine's one path per flow (what spreading must beat)
     * @param maxLoad            max load of what was handed out: the rounded weights, or the single paths
     * @param splittableOptimum  the LP optimum over the candidate paths (weights unrounded, no path limit)
     * @param lowerBound         proven lower bound on any splittable placement's max load
     * @param gapBound           maxLoad / lowerBound - 1: the answer is at most this far from the optimum
     * @param granularBound      proven lower bound on the max load of any routing whose weights are whole
     *                           units of 1/granularity (one path per flow included): lowerBound raised to
     *                           the next load such units can make; maxLoad at it means the granularity,
     *                           not the solver, keeps the answer above the splittable optimum
     * @param respreadAt         when the last re-spread that covered this job was applied; absent
     *                           while the figures are the admission's
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record MultipathView(int maxPaths, int granularity, String fallback, Integer maxPathsPerFlow,
                                Double singlePathMaxLoad, Double maxLoad, Double splittableOptimum, Double lowerBound,
                                Double gapBound, @Schema(description = GRANULAR_BOUND) Double granularBound,
                                Instant respreadAt) {
        /**
         * @param m         the planner's answer, or null when it did not run
         * @param singleMax the engine's one-path-per-flow max load (the baseline and what is kept)
         * @param fallback  why the flows keep one path each, or null
         */
        static MultipathView of(MultipathRequest req, io.weft.placement.MultipathResult m, double singleMax,
                                String fallback) {
            boolean spread = fallback == null && m != null && m.maxPathsPerFlow() > 1;
            if (m == null) {
                return new MultipathView(req.maxPaths(), req.granularity(), fallback, 1, finite(singleMax),
                        finite(singleMax), null, null, null, null, null);
            }
            double max = spread ? m.maxLoad() : singleMax;
            return new MultipathView(req.maxPaths(), req.granularity(), fallback, spread ? m.maxPathsPerFlow() : 1,
                    finite(singleMax), finite(max), finite(m.splittableOptimum()), finite(m.lowerBound()),
                    finite(max / m.lowerBound() - 1), finite(m.granularBound()), null);
        }

        static Double finite(double x) {
            return Double.isFinite(x) ? x : null;
        }
    }

    /**
     * What one fabric-wide re-spread of the multipath jobs did (or, as a dry run, would do). Loads are
     * the fabric's max link-direction utilisation, every job counted.
     *
     * @param applied           true when the re-spread took effect (committed)
     * @param dryRun            true when nothing was to be changed, only reported
     * @param trigger           who asked: {@code operator}, or the link pass that triggered it
     * @param reason            why the placement stays; absent when applied (or, for a dry run, when it
     *                          would be applied)
     * @param maxLoadBefore     max load before the pass
     * @param maxLoadAfter      max load with the re-spread: the engine's when applied, the plan's
     *                          otherwise; absent when no plan was made
     * @param splittableOptimum the LP optimum of the multipath flows with every other job as background
     *                          (absent when not proven in the budget)
     * @param lowerBound        proven lower bound on the max load of any splitting of those flows
     * @param granularBound     proven lower bound on the max load of any routing of those flows in whole
     *                          units of 1/granularity (the smallest granularity of the jobs spread):
     *                          lowerBound raised to the next load such units can make
     * @param gapBefore         maxLoadBefore / lowerBound - 1
     * @param gapAfter          maxLoadAfter / lowerBound - 1
     * @param jobs              multipath jobs spread together
     * @param flows             their pattern flows
     * @param flowsMoved        pattern flows whose paths or weights change
     * @param slicesBefore      slices of those flows before
     * @param slicesAfter       slices of those flows after
     * @param agents            source NICs whose agents get (or would get) one new version
     * @param movedFlows        ids of the pattern flows that change ({@code <job>/<k>})
     * @param flowsLeft         flows the planner found no path for, left as they are: {@code <job>/<k>: why}
     * @param elapsedMs         time the pass took, planner included
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RespreadView(boolean applied, boolean dryRun, String trigger, String reason, double maxLoadBefore,
                               Double maxLoadAfter, Double splittableOptimum, Double lowerBound,
                               @Schema(description = GRANULAR_BOUND) Double granularBound, Double gapBefore,
                               Double gapAfter, int jobs, int flows, int flowsMoved, int slicesBefore,
                               int slicesAfter, List<String> agents, List<String> movedFlows,
                               List<String> flowsLeft,
                               @Schema(description = PATHS_DROPPED) List<String> pathsDropped, long elapsedMs) {
        static RespreadView of(FabricSpread.Plan plan, boolean applied, boolean dryRun, String trigger,
                               String reason, java.util.Collection<String> agents, int slicesBefore,
                               int slicesAfter, long startNs) {
            Double lb = MultipathView.finite(plan.lowerBound());
            Double after = MultipathView.finite(plan.maxLoadAfter());
            return new RespreadView(applied, dryRun, trigger, reason, plan.maxLoadBefore(), after,
                    MultipathView.finite(plan.optimum()), lb, MultipathView.finite(plan.granularBound()),
                    lb == null ? null : MultipathView.finite(plan.maxLoadBefore() / lb - 1),
                    lb == null || after == null ? null : MultipathView.finite(after / lb - 1),
                    (int) plan.flows().stream().map(f -> f.job().id()).distinct().count(), plan.flows().size(),
                    plan.changed().size(), slicesBefore, slicesAfter, List.copyOf(agents),
                    plan.changed().stream().map(f -> f.flow().id()).toList(), List.copyOf(plan.left()),
                    List.copyOf(plan.dropped()), (System.nanoTime() - startNs) / 1_000_000);
        }

        /** A pass that made no plan. */
        static RespreadView kept(boolean dryRun, String trigger, String reason, double maxLoad, Double lowerBound,
                                 long startNs) {
            return new RespreadView(false, dryRun, trigger, reason, maxLoad, null, null, lowerBound, null, null, null,
                    0, 0, 0, 0, 0, List.of(), List.of(), List.of(), List.of(),
                    (System.nanoTime() - startNs) / 1_000_000);
        }

        /** The same with the engine's max load after applying. */
        RespreadView withMaxLoadAfter(double after) {
            return new RespreadView(applied, dryRun, trigger, reason, maxLoadBefore, after, splittableOptimum,
                    lowerBound, granularBound, gapBefore,
                    lowerBound == null ? null : MultipathView.finite(after / lowerBound - 1),
                    jobs, flows, flowsMoved, slicesBefore, slicesAfter, agents, movedFlows, flowsLeft, pathsDropped,
                    elapsedMs);
        }
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
     * @param weight   a multipath flow's path: this slice's share of the flow (the shares of one
     *                 {@code index} sum to 1); absent for one path per flow or equal QP slices
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record FlowView(String id, int index, int slice, String src, String dst, double demandGbps,
                           long version, String state, List<String> links, List<String> nodes,
                           List<String> carriers, List<Integer> usids, Integer ev, Double weight) {
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
