package io.weft.scheduler.job;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.weft.placement.DenseFabric;
import io.weft.placement.Flow;
import io.weft.placement.FlowEncoder;
import io.weft.placement.FlowEncoding;
import io.weft.placement.Job;
import io.weft.placement.MultipathFlow;
import io.weft.placement.MultipathOptions;
import io.weft.placement.MultipathResult;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlacementException;
import io.weft.placement.PlacementResult;
import io.weft.placement.Unplaced;
import io.weft.placement.WeightedPath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans one re-spread of every multipath job's flows together, on a snapshot of the writer's engine
 * ({@link Snapshot}), with every other job's reservations as background load, and applies it on
 * the engine. What it plans is the planner's answer
 * ({@link MultipathPlacement.Spreader}, the column-generation LP in production) for one combined job
 * holding every pattern flow of those jobs (the sum of its slices' demands), so jobs that arrived one
 * after another are spread as if they had arrived together, and shares are re-optimised after link
 * failures, drains and later jobs.
 *
 * <p><b>Classes.</b> The planner proves paths for one tenant and one port rule at a time, so the jobs
 * are spread in classes of (tenant, EV-only): one class (the usual case, one tenant) is one LP and its
 * optimum is the fabric-wide one; several share one planner call too (see {@link #plan}) and
 * the bound reported is the joint one.
 *
 * <p><b>Each job's limits.</b> The call allows the most paths any job allows, in units every job's
 * granularity divides ({@link #passGranularity}: 8 and 16 give sixteenths); each flow is then fitted
 * to its own job ({@link #fit}): its heaviest {@code maxPaths} paths, the weights dealt again in the
 * job's units. The planner itself knows one limit per call, so a job with tighter limits than the
 * others' is cut after the solve (its flows may lose a little of the spread the solve found for
 * them), where before every job was held to the tightest limits of the pass. A planned path that
 * does not encode for a job's tenant is dropped for that job only ({@link Plan#dropped}).
 *
 * <p><b>Flows without a path.</b> A flow the planner finds no path for (its NIC's links down, say)
 * is left as it is and named in {@link Plan#left()}; the other flows are spread.
 *
 * <p><b>Applying.</b> Every job with a changed flow is released and added again with its new slices
 * ({@code <job>/<k>.<i>}, demand = flow demand × weight; an unchanged flow keeps its slices), then
 * every slice is pinned to its planned path (proven by the forwarding walk, as every pin is). Flows of
 * other jobs that the engine moved while adding are pinned back, so the engine ends exactly at the
 * plan. Nothing here touches PostgreSQL: on any refusal the caller drops the engine (it is rebuilt from
 * the database, which still holds the old placement).
 */
final class FabricSpread {
    private static final Logger LOG = LoggerFactory.getLogger(FabricSpread.class);
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
        boolean changed(Snapshot snapshot) {
            Map<String, Double> now = new TreeMap<>();
            for (Flow s : slices) {
                int[] arcs = snapshot.pathArcs(s.id());
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
     * @param optimum        the LP optimum of every spread flow together, every other job as background
     *                       (NaN when not proven, or when the classes differ in their port rule)
     * @param lowerBound     proven lower bound on the max load of any splitting of those flows
     * @param granularBound  proven lower bound on the max load of any routing of those flows in whole
     *                       units of 1/granularity ({@code lowerBound} raised to the next load such units
     *                       make; NaN when the planner gave none)
     * @param flows          every pattern flow of the spread jobs (planned, and left as they are)
     * @param changed        the flows whose paths or weights the plan changes
     * @param left           flows the planner found no path for, left as they are: "id: why"
     * @param dropped        paths dropped for one job only, since they do not encode for its tenant: "id: why"
     * @param note           null when the plan splits flows; when it is the planner's one path per flow
     *                       (the planner fell back), why: such a plan still applies if it beats the
     *                       placement now
     */
    record Plan(String fallback, double maxLoadBefore, double maxLoadAfter, double optimum, double lowerBound,
                double granularBound, List<PatternFlow> flows, List<PatternFlow> changed, List<String> left,
                List<String> dropped, String note) {
    }

    /**
     * What a re-spread plans on: the engine's fabric, loads and the spread jobs' slices and paths,
     * copied under the writer lock so that the plan runs outside it (the fabric index is immutable;
     * arrays are copies). Applying is right only while the engine has not changed since
     * ({@code Placement.Writing#changedSince}): then the engine is exactly this.
     *
     * @param flows     every spread job the engine holds, with its pattern flows now
     * @param sliceArcs each of those slices' path (arc indices), absent for a slice without one
     */
    record Snapshot(DenseFabric index, PlacementConfig config, double maxLoad, double[] arcLoadsGbps,
                    Map<String, List<PatternFlow>> flows, Map<String, int[]> sliceArcs, Set<String> homePortsOnly) {
        static Snapshot of(PlacementEngine engine, List<SpreadJob> jobs) {
            Map<String, List<PatternFlow>> flows = new LinkedHashMap<>();
            Map<String, int[]> arcs = new HashMap<>();
            Set<String> homeOnly = new HashSet<>();
            for (SpreadJob j : jobs) {
                if (engine.jobIds().contains(j.id())) {
                    List<PatternFlow> pf = patternFlows(engine, j);
                    flows.put(j.id(), pf);
                    if (engine.homePortsOnly(j.id())) {
                        homeOnly.add(j.id()); // the port rule the job was placed with
                    }
                    for (PatternFlow f : pf) {
                        for (Flow s : f.slices()) {
                            int[] a = engine.pathArcs(s.id());
                            if (a != null) {
                                arcs.put(s.id(), a.clone());
                            }
                        }
                    }
                }
            }
            return new Snapshot(engine.index(), engine.config(), engine.quality().maxLoad(), engine.arcLoadsGbps(),
                    flows, arcs, Set.copyOf(homeOnly));
        }

        int[] pathArcs(String sliceId) {
            return sliceArcs.get(sliceId);
        }
    }

    /** One class's answer: its planned flows, the flows it left as they are, and its load per arc. */
    private record Answer(String why, MultipathResult result, List<PatternFlow> planned, List<PatternFlow> left,
                          List<String> leftWhy, List<String> dropped, double[] load, String note) {
    }

    /** The jobs of one (tenant, EV-only) class and their pattern flows. */
    private record SpreadClass(List<SpreadJob> members, List<PatternFlow> flows) {
        SpreadJob first() {
            return members.get(0);
        }

        /** The most paths any member allows, in the pass's units: each flow is fitted to its own job after. */
        MultipathOptions options(long budgetMs) {
            return new MultipathOptions(members.stream().mapToInt(SpreadJob::maxPaths).max().orElseThrow(),
                    passGranularity(members), budgetMs);
        }
    }

    private FabricSpread() {
    }

    /**
     * Plans a re-spread of {@code jobs} (those the engine does not hold are skipped); the engine is
     * not changed.
     *
     * <p>Every class is spread in one planner call, so several tenants share one LP and the bound is
     * the joint one. The planner takes one tenant and one port rule per call: a path is a list of
     * arcs whatever the tenant (only its encoding differs, and each slice is encoded and proven for
     * its own tenant when applied), and when any job was placed on its NICs' home ports only (an
     * EV-only job where EV routing cannot reach every port) every flow keeps its home ports (a
     * restriction for the others on a multi-plane fabric; then one more call without it gives the
     * bound, and no optimum is reported). Each flow keeps its own job's {@code maxPaths} and
     * granularity (see the class documentation). Solving the classes one at a time
     * against each other's answer was tried: two tenants each at their best against the other stay
     * at 1.5 where the joint optimum is 4/3 ({@code FabricSpreadClassesTest}).
     */
    static Plan plan(PlacementEngine engine, List<SpreadJob> jobs, long budgetMs,
                     MultipathPlacement.Spreader spreader) throws PlacementException {
        return plan(Snapshot.of(engine, jobs), jobs, budgetMs, spreader, null);
    }

    /**
     * {@link #plan(PlacementEngine, List, long, MultipathPlacement.Spreader)} on a snapshot, off the
     * writer. With an {@code encoder}, every planned path of a job in another tenant than the one
     * the planner encoded for is encoded for the job's own tenant here, and one that fails is dropped
     * for that job only ({@link Plan#dropped}); without one (null) such a path fails the pass when
     * applied.
     */
    static Plan plan(Snapshot snapshot, List<SpreadJob> jobs, long budgetMs, MultipathPlacement.Spreader spreader,
                     FlowEncoder encoder) throws PlacementException {
        double before = snapshot.maxLoad();
        double[] base = snapshot.arcLoadsGbps().clone();
        Map<String, SpreadClass> byKey = new LinkedHashMap<>();
        List<PatternFlow> all = new ArrayList<>();
        for (SpreadJob j : jobs) {
            if (!snapshot.flows().containsKey(j.id())) {
                continue;
            }
            SpreadClass c = byKey.computeIfAbsent(j.tenant() + "|" + snapshot.homePortsOnly().contains(j.id()),
                    k -> new SpreadClass(new ArrayList<>(), new ArrayList<>()));
            c.members().add(j);
            for (PatternFlow f : snapshot.flows().get(j.id())) {
                addLoad(snapshot, base, f.slices(), -1);
                c.flows().add(f);
                all.add(f);
            }
        }
        for (int a = 0; a < base.length; a++) {
            base[a] = Math.max(0, base[a]); // float noise of the subtraction
        }
        if (all.isEmpty()) {
            return new Plan("no active job allows multipath: nothing to re-spread", before, Double.NaN, Double.NaN,
                    Double.NaN, Double.NaN, List.of(), List.of(), List.of(), List.of(), null);
        }
        List<SpreadClass> classes = List.copyOf(byKey.values());
        // A job keeps the port rule it was placed with: EV-only jobs keep to home ports only where
        // EV routing cannot reach every port (Encoding.homePortsOnly).
        boolean anyHome = classes.stream().anyMatch(c -> snapshot.homePortsOnly().contains(c.first().id()));
        boolean mixedRules = anyHome
                && classes.stream().anyMatch(c -> !snapshot.homePortsOnly().contains(c.first().id()));
        List<SpreadJob> members = classes.stream().flatMap(c -> c.members().stream()).toList();
        SpreadClass together = new SpreadClass(members, all);
        long callBudget = mixedRules ? Math.max(1, budgetMs / 2) : budgetMs;
        Answer a = spreadTogether(snapshot, together, anyHome, base, callBudget, spreader, encoder);
        MultipathResult r = a.result();
        double optimum = r == null || mixedRules ? Double.NaN : r.splittableOptimum();
        double bound = r == null ? Double.NaN : r.lowerBound();
        double granular = r == null ? Double.NaN : r.granularBound();
        if (mixedRules) {
            // Every flow on its home ports is a restriction: the bounds come from the call without it.
            List<Flow> flows = all.stream().map(PatternFlow::flow).toList();
            MultipathResult free = spreader.spread(new Job("respread:bound", together.first().tenant(), flows,
                    false), together.options(callBudget), base.clone());
            bound = free.lowerBound();
            granular = free.granularBound();
        }
        int pass = passGranularity(members);
        if (members.stream().anyMatch(j -> pass % j.granularity() != 0)) {
            granular = Double.NaN; // a bound in the pass's units says nothing of a job in other units
        }
        if (a.why() != null) {
            return new Plan(a.why() + ": the placement stays", before, Double.NaN, optimum, bound, granular, all,
                    List.of(), List.of(), a.dropped(), null);
        }
        double[] total = base.clone();
        for (int i = 0; i < total.length; i++) {
            total[i] += a.load()[i];
        }
        double after = 0;
        DenseFabric ix = snapshot.index();
        for (int i = 0; i < total.length; i++) {
            if (ix.capacityGbps(i) > 0) {
                after = Math.max(after, total[i] / ix.capacityGbps(i));
            }
        }
        List<PatternFlow> flows = new ArrayList<>(a.planned());
        flows.addAll(a.left());
        List<PatternFlow> changed = a.planned().stream().filter(f -> f.changed(snapshot)).toList();
        return new Plan(null, before, after, optimum, bound, granular, flows, changed, a.leftWhy(), a.dropped(),
                a.note());
    }

    /**
     * The flows of {@code c} spread in one planner call with {@code background} as fixed load. The
     * planner encodes every path for the first job's tenant; a path is a list of arcs whatever the
     * tenant: with an {@code encoder} each other job's paths are encoded for its own tenant here (one
     * that fails is dropped for that job), and each slice is encoded and proven again when applied. Flows the
     * planner finds no path for stay as they are (their load, if they still hold a path, is
     * background to the rest: the planner is asked again without them).
     */
    private static Answer spreadTogether(Snapshot snapshot, SpreadClass c, boolean homePortsOnly,
                                         double[] background, long budgetMs, MultipathPlacement.Spreader spreader,
                                         FlowEncoder encoder) throws PlacementException {
        DenseFabric ix = snapshot.index();
        SpreadJob first = c.first();
        MultipathOptions options = c.options(budgetMs);
        int granularity = options.granularity();
        Map<String, PatternFlow> byId = new LinkedHashMap<>();
        c.flows().forEach(f -> byId.put(f.flow().id(), f));
        Map<String, String> pathless = new LinkedHashMap<>();
        double[] fixed = background.clone();
        MultipathResult m;
        while (true) {
            List<Flow> flows = c.flows().stream().map(PatternFlow::flow)
                    .filter(f -> !pathless.containsKey(f.id())).toList();
            if (flows.isEmpty()) {
                return new Answer("no flow has a path (" + pathless.values().iterator().next() + ")", null,
                        List.of(), List.of(), List.of(), List.of(), null, null);
            }
            Job together = new Job("respread:" + first.tenant(), first.tenant(), flows, homePortsOnly);
            m = spreader.spread(together, options, fixed.clone());
            boolean again = false;
            for (Unplaced u : m.unplaced()) {
                pathless.put(u.flow().id(), u.reason());
                double[] held = new double[fixed.length];
                addLoad(snapshot, held, byId.get(u.flow().id()).slices(), 1);
                for (int a = 0; a < held.length; a++) {
                    again |= held[a] > 0;
                    fixed[a] += held[a];
                }
            }
            if (!again || m.fallback() != null) {
                break;
            }
        }
        // A planner that falls back still hands out its one path per flow over the rest of the fabric,
        // which may well beat where the flows are now (jobs placed one by one, links since failed or
        // restored): it is a plan like any other, applied only if it lowers the max load.
        String why = m.fallback() != null && m.flows().isEmpty() ? m.fallback()
                : !evReachable(m, byId) ? "a spread path is not reachable by EV routing (encoding ev)" : null;
        if (why != null) {
            return new Answer(why, m, List.of(), List.of(), List.of(), List.of(), null, null);
        }
        String note = m.fallback() == null ? null : "one path per flow (" + m.fallback() + ")";
        double[] load = new double[background.length];
        List<PatternFlow> planned = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        for (MultipathFlow mf : m.flows()) {
            PatternFlow f = byId.get(mf.flow().id());
            List<int[]> paths = new ArrayList<>();
            List<Integer> units = new ArrayList<>();
            for (WeightedPath wp : mf.paths()) {
                int[] arcs = MultipathPlacement.arcs(ix, wp.path());
                String refused = encoder == null || f.job().tenant().equals(first.tenant()) ? null
                        : refusal(encoder, ix, arcs, f.job().tenant());
                if (refused != null) {
                    dropped.add(f.flow().id() + ": the path via " + via(ix, arcs) + " " + refused
                            + ": dropped for job " + f.job().id() + " only");
                    continue;
                }
                paths.add(arcs);
                units.add(wp.units());
            }
            PatternFlow fitted = fit(f, paths, units, granularity);
            if (fitted == null) {
                pathless.put(f.flow().id(), "no spread path encodes for tenant " + f.job().tenant());
                continue;
            }
            for (int i = 0; i < fitted.paths().size(); i++) {
                for (int a : fitted.paths().get(i)) {
                    load[a] += f.flow().demandGbps() * fitted.weight(i);
                }
            }
            planned.add(fitted);
        }
        List<PatternFlow> left = new ArrayList<>();
        List<String> leftWhy = new ArrayList<>();
        for (Map.Entry<String, String> u : pathless.entrySet()) {
            PatternFlow f = byId.get(u.getKey());
            left.add(f);
            leftWhy.add(u.getKey() + ": " + u.getValue());
            addLoad(snapshot, load, f.slices(), 1); // a slice still on a path stays there
        }
        return new Answer(null, m, planned, left, leftWhy, dropped, load, note);
    }

    /**
     * The units of a pass: the least common multiple of its jobs' granularities, so every job's
     * weights are whole units of it (8 and 16: sixteenths); past what a planner takes (256), the
     * finest of them.
     */
    static int passGranularity(List<SpreadJob> jobs) {
        long lcm = 1;
        for (SpreadJob j : jobs) {
            lcm = lcm / gcd(lcm, j.granularity()) * j.granularity();
            if (lcm > MAX_GRANULARITY) {
                return jobs.stream().mapToInt(SpreadJob::granularity).max().orElseThrow();
            }
        }
        return (int) lcm;
    }

    private static final int MAX_GRANULARITY = 256;

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /**
     * A flow's planned paths (in units of 1/{@code passUnits}) fitted to its own job: its heaviest
     * {@code min(maxPaths, granularity)} paths, their weights dealt again in the job's units by
     * largest remainder (unchanged when the job's limits are the pass's); null when no path is left.
     */
    static PatternFlow fit(PatternFlow f, List<int[]> paths, List<Integer> units, int passUnits) {
        int limit = Math.min(f.job().maxPaths(), f.job().granularity());
        Integer[] order = new Integer[paths.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Integer.compare(units.get(y), units.get(x))); // stable: ties keep order
        int n = Math.min(limit, order.length);
        int sum = 0;
        for (int k = 0; k < n; k++) {
            sum += units.get(order[k]);
        }
        if (n == 0 || sum == 0) {
            return null;
        }
        int g = f.job().granularity();
        int[] dealt = new int[n];
        double[] rest = new double[n];
        int given = 0;
        for (int k = 0; k < n; k++) {
            double exact = units.get(order[k]) * (double) g / sum;
            dealt[k] = (int) Math.floor(exact + 1e-9);
            rest[k] = exact - dealt[k];
            given += dealt[k];
        }
        for (; given < g; given++) {
            int best = 0;
            for (int k = 1; k < n; k++) {
                if (rest[k] > rest[best] + 1e-12) {
                    best = k;
                }
            }
            dealt[best]++;
            rest[best] = -1;
        }
        List<int[]> keptPaths = new ArrayList<>();
        List<Integer> keptUnits = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            if (dealt[k] > 0) {
                keptPaths.add(paths.get(order[k]));
                keptUnits.add(dealt[k]);
            }
        }
        return new PatternFlow(f.job(), f.index(), f.flow(), f.slices(), keptPaths, keptUnits, g);
    }

    /** Why {@code arcs} does not encode for {@code tenant}, or null when it does. */
    private static String refusal(FlowEncoder encoder, DenseFabric ix, int[] arcs, String tenant) {
        try {
            encoder.encode(ix, arcs, tenant);
            return null;
        } catch (FlowEncoder.EncodingFailure e) {
            return "does not encode for tenant " + tenant + " (" + e.getMessage() + ")";
        }
    }

    /** The switches a path crosses, "leaf1>spine2>leaf2". */
    private static String via(DenseFabric ix, int[] arcs) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i < arcs.length; i++) {
            b.append(i > 1 ? ">" : "").append(ix.nodeId(ix.from(arcs[i])));
        }
        return b.toString();
    }

    /** Every path of a flow of an EV-only job has an entropy value. */
    private static boolean evReachable(MultipathResult m, Map<String, PatternFlow> byId) {
        for (MultipathFlow mf : m.flows()) {
            if (byId.get(mf.flow().id()).job().encoding() == Encoding.EV
                    && mf.paths().stream().anyMatch(wp -> wp.encoding().ev() == null)) {
                return false;
            }
        }
        return true;
    }

    /** Adds (sign 1) or removes (-1) the slices' demands on their paths now; slices without one add nothing. */
    private static void addLoad(Snapshot snapshot, double[] load, List<Flow> slices, int sign) {
        for (Flow s : slices) {
            int[] arcs = snapshot.pathArcs(s.id());
            if (arcs != null) {
                for (int a : arcs) {
                    load[a] += sign * s.demandGbps();
                }
            }
        }
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
     * @return the ids of other jobs' flows that were moved and pinned back with another encoding than before
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
        Set<String> pathless = new HashSet<>();
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
                        int[] arcs = engine.pathArcs(s.id());
                        if (arcs != null) {
                            pins.put(s.id(), arcs);
                        } else {
                            pathless.add(s.id()); // left as it is: it may stay without a path
                        }
                    }
                }
            }
            SpreadJob j = e.getValue().get(0).job();
            again.add(new Job(j.id(), j.tenant(), slices, engine.homePortsOnly(j.id())));
        }
        Map<String, int[]> othersBefore = new HashMap<>();
        Map<String, FlowEncoding> encodedBefore = new HashMap<>();
        for (String id : engine.jobIds()) {
            if (!byJob.containsKey(id)) {
                for (PlacedFlow p : engine.placedFlows(id)) {
                    othersBefore.put(p.flow().id(), engine.pathArcs(p.flow().id()));
                    encodedBefore.put(p.flow().id(), p.encoding());
                }
            }
        }
        long t0 = System.nanoTime();
        for (Job j : again) {
            engine.release(j.id());
        }
        long t1 = System.nanoTime();
        List<String> moved = new ArrayList<>();
        for (Job j : again) {
            PlacementResult r = engine.add(j);
            for (Unplaced u : r.unplaced()) {
                if (!pathless.contains(u.flow().id())) {
                    throw new PlacementException("flows", "flow slice " + u.flow().id() + " got no path: "
                            + u.reason());
                }
            }
            moved.addAll(r.moved());
        }
        long t2 = System.nanoTime();
        int pinned = 0;
        for (Map.Entry<String, int[]> p : pins.entrySet()) {
            if (!Arrays.equals(engine.pathArcs(p.getKey()), p.getValue())) {
                engine.pin(p.getKey(), p.getValue());
                pinned++;
            }
        }
        long t3 = System.nanoTime();
        List<String> back = new ArrayList<>();
        for (String id : moved) {
            int[] old = othersBefore.get(id);
            if (old != null && !Arrays.equals(engine.pathArcs(id), old)) {
                // Back on its path: news to its agent only if the encoding came back different.
                if (!engine.pin(id, old).encoding().equals(encodedBefore.get(id))) {
                    back.add(id);
                }
            }
        }
        if (LOG.isDebugEnabled()) {
            // Where the engine's part of an apply goes: the engine places each re-added job afresh
            // before its slices are pinned to the plan's paths.
            LOG.debug("{} jobs re-added, {} slices: release {} us, add {} us, {} pinned {} us, {} moved, back {} us",
                    again.size(), pins.size(), (t1 - t0) / 1000, (t2 - t1) / 1000, pinned, (t3 - t2) / 1000,
                    moved.size(), (System.nanoTime() - t3) / 1000);
        }
        return back;
    }
}
