package io.weft.scheduler.job;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
import io.weft.placement.Unplaced;
import io.weft.placement.WeightedPath;

/**
 * Plans and applies one re-spread of every multipath job's flows together, on the writer's engine,
 * with every other job's reservations as background load. What it plans is the planner's answer
 * ({@link MultipathPlacement.Spreader}, the column-generation LP in production) for one combined job
 * holding every pattern flow of those jobs (the sum of its slices' demands), so jobs that arrived one
 * after another are spread as if they had arrived together, and shares are re-optimised after link
 * failures, drains and later jobs.
 *
 * <p><b>Classes.</b> The planner proves paths for one tenant and one port rule at a time, so the jobs
 * are spread in classes of (tenant, EV-only): one class (the usual case, one tenant) is one LP and its
 * optimum is the fabric-wide one; with several, each class is spread in turn with the classes before
 * it at their new paths and the classes after it left out, and the bound reported is the largest
 * class bound. A class takes the smallest {@code maxPaths} and granularity of its jobs (8 divides 16,
 * so eighths are also sixteenths: every job's granularity holds).
 *
 * <p><b>Applying.</b> Every job with a changed flow is released and added again with its new slices
 * ({@code <job>/<k>.<i>}, demand = flow demand × weight; an unchanged flow keeps its slices), then
 * every slice is pinned to its planned path (proven by the forwarding walk, as every pin is). Flows of
 * other jobs that the engine moved while adding are pinned back, so the engine ends exactly at the
 * plan. Nothing here touches PostgreSQL: on any refusal the caller drops the engine (it is rebuilt from
 * the database, which still holds the old placement).
 */
final class FabricSpread {
    /** Load comparisons tolerate float noise in utilisation sums. */
    static final double LOAD_EPSILON = 1e-9;

    /** A stored job whose flows may spread. */
    record SpreadJob(String id, String tenant, Encoding encoding, int maxPaths, int granularity) {
    }

    /**
     * One pattern flow of a spread job: its slices now, and the paths the plan gives it.
     *
     * @param slices    the engine's slices of the flow now (placed or not)
     * @param paths     planned paths (arc indices), each with {@code units} of 1/{@code granularity}
     */
    record PatternFlow(SpreadJob job, int index, Flow flow, List<Flow> slices, List<int[]> paths, List<Integer> units,
                       int granularity) {
        boolean changed(PlacementEngine engine) {
            Map<String, Double> now = new TreeMap<>();
            for (Flow s : slices) {
                int[] arcs = engine.pathArcs(s.id());
                if (arcs == null) {
                    return true;
                }
                now.merge(Arrays.toString(arcs), s.demandGbps() / flow.demandGbps(), Double::sum);
            }
            Map<String, Double> planned = new TreeMap<>();
            for (int i = 0; i < paths.size(); i++) {
                planned.merge(Arrays.toString(paths.get(i)), units.get(i) / (double) granularity, Double::sum);
            }
            if (!now.keySet().equals(planned.keySet())) {
                return true;
            }
            for (Map.Entry<String, Double> e : now.entrySet()) {
                if (Math.abs(e.getValue() - planned.get(e.getKey())) > 1e-9) {
                    return true;
                }
            }
            return false;
        }

        /** The planned slices: ids {@code <job>/<k>.<i>}, slice i, demand = the flow's × the path's weight. */
        List<Flow> plannedSlices() {
            List<Flow> out = new ArrayList<>(paths.size());
            for (int i = 0; i < paths.size(); i++) {
                out.add(new Flow(flow.id() + "." + i, flow.job(), flow.srcNic(), flow.dstNic(),
                        flow.demandGbps() * units.get(i) / granularity, i));
            }
            return out;
        }

        double weight(int i) {
            return units.get(i) / (double) granularity;
        }
    }

    /**
     * What one pass would do.
     *
     * @param fallback       null when the plan can be applied; otherwise why the placement stays
     * @param maxLoadBefore  the fabric's max link load now
     * @param maxLoadAfter   the fabric's max link load with the plan (NaN on fallback)
     * @param optimum        the LP optimum with every other job as background (NaN when not proven,
     *                       or with more than one class)
     * @param lowerBound     proven lower bound on the max load of any splitting of those flows
     * @param flows          every pattern flow of the spread jobs
     * @param changed        the flows whose paths or weights the plan changes
     */
    record Plan(String fallback, double maxLoadBefore, double maxLoadAfter, double optimum, double lowerBound,
                List<PatternFlow> flows, List<PatternFlow> changed) {
    }

    private FabricSpread() {
    }

    /**
     * Plans a re-spread of {@code jobs} (those the engine does not hold are skipped); the engine is
     * not changed.
     */
    static Plan plan(PlacementEngine engine, List<SpreadJob> jobs, long budgetMs,
                     MultipathPlacement.Spreader spreader) throws PlacementException {
        DenseFabric ix = engine.index();
        double before = engine.quality().maxLoad();
        double[] load = engine.arcLoadsGbps();
        Map<String, List<PatternFlow>> classes = new LinkedHashMap<>();
        Map<String, List<SpreadJob>> classJobs = new LinkedHashMap<>();
        List<PatternFlow> all = new ArrayList<>();
        for (SpreadJob j : jobs) {
            if (!engine.jobIds().contains(j.id())) {
                continue;
            }
            String key = j.tenant() + "|" + (j.encoding() == Encoding.EV);
            classJobs.computeIfAbsent(key, k -> new ArrayList<>()).add(j);
            for (PatternFlow f : patternFlows(engine, j)) {
                for (Flow s : f.slices()) {
                    int[] arcs = engine.pathArcs(s.id());
                    if (arcs != null) {
                        for (int a : arcs) {
                            load[a] = Math.max(0, load[a] - s.demandGbps());
                        }
                    }
                }
                classes.computeIfAbsent(key, k -> new ArrayList<>()).add(f);
                all.add(f);
            }
        }
        if (all.isEmpty()) {
            return new Plan("no active job allows multipath: nothing to re-spread", before, Double.NaN, Double.NaN,
                    Double.NaN, List.of(), List.of());
        }
        double optimum = Double.NaN;
        double bound = 0;
        List<PatternFlow> planned = new ArrayList<>();
        long classBudget = Math.max(1, budgetMs / classes.size());
        for (Map.Entry<String, List<PatternFlow>> c : classes.entrySet()) {
            List<SpreadJob> members = classJobs.get(c.getKey());
            int maxPaths = members.stream().mapToInt(SpreadJob::maxPaths).min().orElseThrow();
            int granularity = members.stream().mapToInt(SpreadJob::granularity).min().orElseThrow();
            SpreadJob first = members.get(0);
            List<Flow> flows = c.getValue().stream().map(PatternFlow::flow).toList();
            Job together = new Job("respread:" + first.tenant(), first.tenant(), flows,
                    first.encoding() == Encoding.EV);
            MultipathResult m = spreader.spread(together, new MultipathOptions(maxPaths, granularity, classBudget),
                    load.clone());
            String why = m.fallback() != null ? m.fallback()
                    : !m.unplaced().isEmpty() ? "some flows have no path (" + m.unplaced().get(0).reason() + ")"
                    : first.encoding() == Encoding.EV && !MultipathPlacement.evReachable(m)
                            ? "a spread path is not reachable by EV routing (encoding ev)" : null;
            if (why != null) {
                return new Plan(why + ": the placement stays", before, Double.NaN, m.splittableOptimum(),
                        m.lowerBound(), all, List.of());
            }
            Map<String, PatternFlow> byId = new HashMap<>();
            c.getValue().forEach(f -> byId.put(f.flow().id(), f));
            for (MultipathFlow mf : m.flows()) {
                PatternFlow f = byId.get(mf.flow().id());
                List<int[]> paths = new ArrayList<>();
                List<Integer> units = new ArrayList<>();
                for (WeightedPath wp : mf.paths()) {
                    int[] arcs = MultipathPlacement.arcs(ix, wp.path());
                    paths.add(arcs);
                    units.add(wp.units());
                    for (int a : arcs) {
                        load[a] += f.flow().demandGbps() * wp.units() / granularity;
                    }
                }
                planned.add(new PatternFlow(f.job(), f.index(), f.flow(), f.slices(), paths, units, granularity));
            }
            optimum = classes.size() == 1 ? m.splittableOptimum() : Double.NaN;
            bound = Math.max(bound, m.lowerBound());
        }
        double after = 0;
        for (int a = 0; a < load.length; a++) {
            if (ix.capacityGbps(a) > 0) {
                after = Math.max(after, load[a] / ix.capacityGbps(a));
            }
        }
        List<PatternFlow> changed = planned.stream().filter(f -> f.changed(engine)).toList();
        return new Plan(null, before, after, optimum, bound, planned, changed);
    }

    /** A job's pattern flows (its slices grouped by flow index), in index order. */
    private static List<PatternFlow> patternFlows(PlacementEngine engine, SpreadJob j) {
        Map<Integer, List<Flow>> byIndex = new TreeMap<>();
        for (PlacedFlow p : engine.placedFlows(j.id())) {
            byIndex.computeIfAbsent(JobRequests.flowIndex(j.id(), p.flow().id()), k -> new ArrayList<>())
                    .add(p.flow());
        }
        for (Unplaced u : engine.unplacedFlows(j.id())) {
            byIndex.computeIfAbsent(JobRequests.flowIndex(j.id(), u.flow().id()), k -> new ArrayList<>())
                    .add(u.flow());
        }
        List<PatternFlow> out = new ArrayList<>();
        for (Map.Entry<Integer, List<Flow>> e : byIndex.entrySet()) {
            List<Flow> slices = e.getValue();
            double demand = slices.stream().mapToDouble(Flow::demandGbps).sum();
            Flow s0 = slices.get(0);
            Flow pattern = new Flow(j.id() + "/" + e.getKey(), j.id(), s0.srcNic(), s0.dstNic(), demand, 0);
            out.add(new PatternFlow(j, e.getKey(), pattern, List.copyOf(slices), List.of(), List.of(), 1));
        }
        return out;
    }

    /**
     * Puts the plan's changed flows into the engine: each job with a changed flow is released and
     * added again with its slices, then every slice is pinned to its path and every other job's flow
     * the engine moved is pinned back. On a refusal the engine is left half-changed: the caller must
     * drop it.
     *
     * @return the ids of other jobs' flows that were moved and pinned back
     */
    static List<String> apply(PlacementEngine engine, Plan plan) throws PlacementException {
        Map<String, List<PatternFlow>> byJob = new LinkedHashMap<>();
        for (PatternFlow f : plan.flows()) {
            byJob.computeIfAbsent(f.job().id(), k -> new ArrayList<>()).add(f);
        }
        Map<String, Boolean> changedIds = new HashMap<>();
        plan.changed().forEach(f -> changedIds.put(f.flow().id(), true));
        Map<String, int[]> pins = new LinkedHashMap<>();
        List<Job> again = new ArrayList<>();
        for (Map.Entry<String, List<PatternFlow>> e : byJob.entrySet()) {
            if (e.getValue().stream().noneMatch(f -> changedIds.containsKey(f.flow().id()))) {
                continue;
            }
            List<Flow> slices = new ArrayList<>();
            for (PatternFlow f : e.getValue()) {
                if (changedIds.containsKey(f.flow().id())) {
                    List<Flow> news = f.plannedSlices();
                    for (int i = 0; i < news.size(); i++) {
                        slices.add(news.get(i));
                        pins.put(news.get(i).id(), f.paths().get(i));
                    }
                } else {
                    for (Flow s : f.slices()) {
                        slices.add(s);
                        pins.put(s.id(), engine.pathArcs(s.id()));
                    }
                }
            }
            SpreadJob j = e.getValue().get(0).job();
            again.add(new Job(j.id(), j.tenant(), slices, j.encoding() == Encoding.EV));
        }
        Map<String, int[]> othersBefore = new HashMap<>();
        for (String id : engine.jobIds()) {
            if (!byJob.containsKey(id)) {
                for (PlacedFlow p : engine.placedFlows(id)) {
                    othersBefore.put(p.flow().id(), engine.pathArcs(p.flow().id()));
                }
            }
        }
        for (Job j : again) {
            engine.release(j.id());
        }
        List<String> moved = new ArrayList<>();
        for (Job j : again) {
            PlacementResult r = engine.add(j);
            if (!r.unplaced().isEmpty()) {
                throw new PlacementException("flows", "flow slice " + r.unplaced().get(0).flow().id()
                        + " got no path: " + r.unplaced().get(0).reason());
            }
            moved.addAll(r.moved());
        }
        for (Map.Entry<String, int[]> p : pins.entrySet()) {
            if (!Arrays.equals(engine.pathArcs(p.getKey()), p.getValue())) {
                engine.pin(p.getKey(), p.getValue());
            }
        }
        List<String> back = new ArrayList<>();
        for (String id : moved) {
            int[] old = othersBefore.get(id);
            if (old != null && !Arrays.equals(engine.pathArcs(id), old)) {
                engine.pin(id, old);
                back.add(id);
            }
        }
        return back;
    }
}
