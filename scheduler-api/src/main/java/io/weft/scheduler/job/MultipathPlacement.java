package io.weft.scheduler.job;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Arc;
import io.weft.placement.ColumnGenerationMultipath;
import io.weft.placement.DenseFabric;
import io.weft.placement.Flow;
import io.weft.placement.Job;
import io.weft.placement.MultipathFlow;
import io.weft.placement.MultipathOptions;
import io.weft.placement.MultipathResult;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlacementException;
import io.weft.placement.PlacementResult;
import io.weft.placement.PlanFlowEncoder;
import io.weft.placement.WeightedPath;
import io.weft.plan.FabricPlan;
import io.weft.scheduler.job.JobViews.MultipathView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Places a job that allows multipath. The engine places it one path per flow first (the answer
 * spreading must beat); the planner ({@link ColumnGenerationMultipath}) then spreads the job's
 * flows with every other job's reservation counted as background load. If that lowers the max
 * load, the single paths are released and each path of a spread
 * flow then becomes one flow slice {@code <job>/<k>.<i>} whose demand is the flow's demand times
 * the path's weight, added to the engine and pinned to the planner's path. From there on a path is
 * an ordinary slice: reservations count its share, the ledger gives it its own carriers and entropy
 * value, agents get one weighted entry per path, and the re-placement passes (hotspot, link-down,
 * drain, new fabric) move a slice like any other, off dead links, keeping its share, so the weights
 * of a flow still sum to 1 (two slices may come to share a path: the agent adds their weights).
 *
 * <p>When the planner falls back (time budget, LP, rounding that does not beat one path), when one
 * path per flow is already optimal, when spreading does not beat the engine's single paths, or when
 * an EV-only job's spread path is not EV-reachable, the job keeps its single paths, and the answer
 * says why.
 */
final class MultipathPlacement {
    private static final Logger LOG = LoggerFactory.getLogger(MultipathPlacement.class);
    /** Load comparisons tolerate float noise in utilisation sums. */
    private static final double LOAD_EPSILON = 1e-9;

    /**
     * @param job     the job as added to the engine (the spread slices, or the job as expanded)
     * @param result  the engine's answer, with the pinned paths
     * @param weights each slice's share of its flow, for spread flows only
     */
    record Outcome(Job job, PlacementResult result, MultipathView view, Map<String, Double> weights) {
    }

    private MultipathPlacement() {
    }

    /**
     * What spreads a job's flows: the planner, or in tests a stand-in that fails as the test needs
     * (through the package-private overload of {@code place}).
     */
    @FunctionalInterface
    interface Spreader {
        MultipathResult spread(Job job, MultipathOptions options, double[] backgroundGbps) throws PlacementException;
    }

    /**
     * @param budgetMs wall time the planner may spend ({@code weft.scheduler.limits.multipath-budget-ms})
     */
    static Outcome place(PlacementEngine engine, FabricPlan plan, Job job, MultipathRequest req, Encoding encoding,
                         long budgetMs) throws PlacementException {
        return place(engine, job, req, encoding, budgetMs, (j, options, background) ->
                new ColumnGenerationMultipath(engine.index(), new PlanFlowEncoder(plan), engine.config())
                        .place(j, options, background));
    }

    /**
     * The job one path per flow, with the reason it was not spread (e.g. its flows allow one path
     * each, {@code qpSlices} 1): the integral placement, as when spreading falls back.
     */
    static Outcome onePath(PlacementEngine engine, Job job, MultipathRequest req, String why)
            throws PlacementException {
        PlacementResult single = engine.add(job);
        return keep(job, single, MultipathView.of(req, null, single.quality().maxLoad(), why));
    }

    static Outcome place(PlacementEngine engine, Job job, MultipathRequest req, Encoding encoding, long budgetMs,
                         Spreader spreader) throws PlacementException {
        if (!req.spreads()) {
            return onePath(engine, job, req, "maxPaths 1: one path per flow");
        }
        // The engine's own one-path-per-flow placement first: it validates the job, it is what
        // spreading must beat, and what stays when it does not (other flows it moved stay moved).
        PlacementResult single = engine.add(job);
        double singleMax = single.quality().maxLoad();
        MultipathOptions options = new MultipathOptions(req.maxPaths(), req.granularity(), budgetMs);
        DenseFabric ix = engine.index();
        MultipathResult m;
        try {
            m = spreader.spread(job, options, othersLoad(engine, job.id()));
        } catch (RuntimeException e) {
            // A solver failure (native library, broken invariant) must not refuse a valid job.
            LOG.error("multipath planner failed on job {}: {}", job.id(), e.toString(), e);
            return keep(job, single, MultipathView.of(req, null, singleMax, "the multipath planner failed ("
                    + e.getMessage() + "): one path per flow"));
        }
        String why = m.fallback() != null ? m.fallback()
                : !m.unplaced().isEmpty() ? "some flows have no path: one path per flow"
                : m.maxPathsPerFlow() < 2 ? null // one path per flow is optimal: no fallback
                : encoding == Encoding.EV && !evReachable(m)
                        ? "a spread path is not reachable by EV routing (encoding ev): one path per flow"
                : m.maxLoad() >= singleMax - LOAD_EPSILON ? String.format(java.util.Locale.ROOT,
                        "spread flows (max load %.4f) do not beat the engine's one path per flow (%.4f)",
                        m.maxLoad(), singleMax)
                : "";
        if (why == null || !why.isEmpty()) {
            return keep(job, single, MultipathView.of(req, m, singleMax, why));
        }
        int g = options.granularity();
        List<Flow> slices = new ArrayList<>();
        Map<String, int[]> paths = new LinkedHashMap<>();
        Map<String, Double> weights = new HashMap<>();
        for (MultipathFlow mf : m.flows()) {
            Flow f = mf.flow();
            for (int i = 0; i < mf.paths().size(); i++) {
                WeightedPath wp = mf.paths().get(i);
                Flow s = new Flow(f.id() + "." + i, f.job(), f.srcNic(), f.dstNic(),
                        f.demandGbps() * wp.units() / g, i);
                slices.add(s);
                paths.put(s.id(), arcs(ix, wp.path()));
                weights.put(s.id(), wp.weight());
            }
        }
        // Release moves nothing else, so the other jobs' load is what the planner was given.
        engine.release(job.id());
        Job spread = new Job(job.id(), job.tenant(), slices, job.homePortsOnly());
        PlacementResult added;
        try {
            added = engine.add(spread);
        } catch (PlacementException e) {
            // e.g. more slices per NIC pair than the engine takes; the job itself is valid.
            return again(engine, job, req, m, singleMax, single, "the engine refused the spread slices ("
                    + e.getMessage() + "): one path per flow");
        }
        try {
            for (Map.Entry<String, int[]> p : paths.entrySet()) {
                engine.pin(p.getKey(), p.getValue());
            }
        } catch (PlacementException e) {
            engine.release(job.id());
            return again(engine, job, req, m, singleMax, single, "a spread path could not be pinned ("
                    + e.getMessage() + "): one path per flow");
        }
        List<String> moved = new ArrayList<>(single.moved());
        moved.addAll(added.moved());
        PlacementResult result = new PlacementResult(engine.placedFlows(job.id()), moved, added.unplaced(),
                engine.quality());
        return new Outcome(spread, result, MultipathView.of(req, m, singleMax, null), weights);
    }

    /** Reservations of every other job per arc: the engine's loads without this job's flows. */
    private static double[] othersLoad(PlacementEngine engine, String jobId) {
        double[] load = engine.arcLoadsGbps();
        DenseFabric ix = engine.index();
        for (PlacedFlow p : engine.placedFlows(jobId)) {
            for (int a : arcs(ix, p.path())) {
                load[a] = Math.max(0, load[a] - p.flow().demandGbps());
            }
        }
        return load;
    }

    private static Outcome keep(Job job, PlacementResult single, MultipathView view) {
        return new Outcome(job, single, view, Map.of());
    }

    /** After a failed spread: the job placed one path per flow again (the first placement's moves kept). */
    private static Outcome again(PlacementEngine engine, Job job, MultipathRequest req, MultipathResult m,
                                 double singleMax, PlacementResult first, String why) throws PlacementException {
        PlacementResult r = engine.add(job);
        List<String> moved = new ArrayList<>(first.moved());
        moved.addAll(r.moved());
        return keep(job, new PlacementResult(r.placed(), moved, r.unplaced(), r.quality()),
                MultipathView.of(req, m, singleMax, why));
    }

    static boolean evReachable(MultipathResult m) {
        for (MultipathFlow mf : m.flows()) {
            for (WeightedPath wp : mf.paths()) {
                if (wp.encoding().ev() == null) {
                    return false;
                }
            }
        }
        return true;
    }

    static int[] arcs(DenseFabric ix, List<Arc> path) {
        int[] out = new int[path.size()];
        for (int i = 0; i < out.length; i++) {
            Arc a = path.get(i);
            out[i] = ix.arcOf(a.link().id(), a.from());
        }
        return out;
    }
}
