package io.weft.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.ortools.Loader;
import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import io.weft.fabric.Arc;

/**
 * Weighted multipath placement: the min-max-utilisation splittable multicommodity flow over the
 * engine's candidate paths, solved as a path LP by column generation, then cut to a few paths per
 * flow and rounded to the hardware's weight granularity.
 *
 * <p><b>What is computed.</b> Flows are grouped into commodities by (ingress switch, egress switch):
 * a single-homed NIC's own arc carries its flows whatever the switch path, so NIC arcs are a
 * constant and the grouping is exact. The master LP is: minimise λ subject to, per commodity k,
 * Σ_p x_p = D_k, and per switch arc a, Σ_{p ∋ a} x_p ≤ λ·c_a, over the paths generated so far (the
 * restricted master). Its duals y_a ≥ 0 price a new path by its length Σ_{a ∈ p} y_a: the cheapest
 * candidate path of each commodity (one pass over the candidate {@link PathDag}; on direct networks
 * also the Valiant paths through each intermediate router, from one memoised leg per (switch,
 * router) and round) enters when it is shorter than the commodity's current paths. Any y ≥ 0 gives
 * the lower bound Σ_k D_k·dist_y(k) / Σ_a y_a·c_a on every splittable routing over the candidates
 * (weak duality), so every result carries a proven gap bound, converged or not. The first columns
 * are the engine's own single-path placement of the job, so the LP starts at the integral answer.
 *
 * <p><b>Multi-port NICs</b> (one port per plane): a flow's commodity keeps the port pair, so the
 * plane, of its integral path; the LP spreads it within that plane only. The optimum, the lower
 * bound and the gap are then those of that choice of ports, not of every port (splitting one flow
 * over two planes is not tried).
 *
 * <p><b>Rounding.</b> A basic LP solution has at most (commodities + tight arcs) positive paths, so
 * most commodities use one or two. A commodity with more than {@link MultipathOptions#pathLimit}
 * keeps its heaviest paths and the LP is solved once more on the kept paths only; then each flow's
 * share is rounded to units of 1/g by {@link UnitApportionment}, which adds less than max d_f / g
 * per path of a commodity ({@link MultipathResult#roundingBound} is that sum per arc, over c_a).
 *
 * <p><b>Budget.</b> Column generation prices until three quarters of the time budget are spent (the
 * last quarter is for the re-solve on the kept paths, the rounding and the encodings). Stopped there,
 * the restricted master's solution is a feasible splitting: if it beats one path per flow it is cut,
 * rounded and handed out like a converged one, with its proven gap bound (the dual lower bound of
 * the last round) and no optimum claimed ({@link MultipathResult#splittableOptimum} NaN). When not
 * even one LP round fits (GLOP's first solve takes seconds on a 4,224-flow Dragonfly all-to-all),
 * the warm start's own splitting is handed out the same way if it beats one path per flow: a few
 * Frank–Wolfe passes (Frank and Wolfe 1956) with exact line search on a smooth max, whose marginal
 * costs prove a lower bound too.
 *
 * <p><b>Fallback</b> to the integral placement (one path per flow, weight 1), with the reason in
 * {@link MultipathResult#fallback}: when the job allows one path ({@code maxPaths} 1), when the
 * time budget runs out before an LP answer beats one path per flow, or when GLOP does not report an
 * optimum.
 *
 * <p><b>Why column generation and not Garg–Könemann.</b> The goal is within 5 % of the optimum on
 * every instance and a reported gap. Multiplicative weights (Garg and Könemann 1998; Fleischer
 * 2000) reach a (1+ε) approximation in O(ε⁻² m log m) shortest-path calls, which at ε = 0.02 is
 * tens of thousands of passes over every commodity, and it spreads each flow over many paths that
 * would then have to be cut. Column generation (Ford and Fulkerson 1958; the path formulation as in
 * Ahuja, Magnanti and Orlin, Network Flows, 17.4) converges to the exact LP optimum over the same
 * candidates in a few tens of rounds on fabrics (few paths per commodity suffice), its basic
 * solutions are sparse, and the same pricing pass yields the dual lower bound. GLOP is OR-Tools'
 * simplex; the native library ships inside the ortools jar.
 *
 * <p><b>Complexity.</b> Per round: one LP re-solve, plus one DAG pass per commodity (and per
 * (switch, router) leg on direct networks). Rounding O(F·g·P). Not thread-safe (one candidate cache
 * and one scratch engine per instance); a planner over one snapshot may serve many jobs in turn.
 *
 * <p><b>Preconditions.</b> The job's flows are validated as {@link PlacementEngine#add} does. Other
 * jobs' reservations enter as a background load per arc ({@link #place(Job, MultipathOptions, double[])}):
 * on switch arcs it is the LP's fixed load (so the optimum, the dual bound and the rounding see it),
 * on NIC arcs it raises the NIC bound; the integral placement it is compared with is the job's own
 * single-path placement on top of the same background.
 */
public final class ColumnGenerationMultipath implements MultipathPlanner {
    private static final double EPS = 1e-9;
    /** Relative reduced cost a path must beat to enter (and relative gap at which the LP is done). */
    private static final double TOL = 1e-7;

    private static volatile boolean loaded;

    private final DenseFabric ix;
    private final FlowEncoder encoder;
    private final CandidatePaths cands;
    private final PlacementEngine single;

    public ColumnGenerationMultipath(DenseFabric ix, FlowEncoder encoder, PlacementConfig config) {
        this.ix = ix;
        this.encoder = encoder;
        this.cands = new CandidatePaths(ix);
        this.single = new PlacementEngine(ix, encoder, config);
        loadNative(); // once per process, outside every job's time budget (it unpacks ~20 MB of natives)
    }

    private static void loadNative() {
        if (!loaded) {
            synchronized (ColumnGenerationMultipath.class) {
                if (!loaded) {
                    Loader.loadNativeLibraries();
                    loaded = true;
                }
            }
        }
    }

    /** One (ingress switch, egress switch) pair and the flows it aggregates. */
    private static final class Commodity {
        final int s;
        final int d;
        final List<Integer> flows = new ArrayList<>();
        double demand;
        double maxDemand;
        MPConstraint row;
        final List<int[]> paths = new ArrayList<>();
        final List<MPVariable> vars = new ArrayList<>();
        /** Path values of the last solve: MPSolver forgets them as soon as the model changes. */
        double[] x = new double[0];
        /** The warm start's splitting of the demand over {@link #paths} (see warmStart). */
        double[] averaged = new double[0];

        int indexOf(int[] mid) {
            for (int p = 0; p < paths.size(); p++) {
                if (Arrays.equals(paths.get(p), mid)) {
                    return p;
                }
            }
            return -1;
        }

        void average(int p, double amount) {
            if (p >= averaged.length) {
                averaged = Arrays.copyOf(averaged, paths.size());
            }
            averaged[p] += amount;
        }

        double[] demands(List<Flow> all) {
            double[] d = new double[flows.size()];
            for (int j = 0; j < d.length; j++) {
                d[j] = all.get(flows.get(j)).demandGbps();
            }
            return d;
        }

        void read() {
            x = new double[vars.size()];
            for (int p = 0; p < x.length; p++) {
                x[p] = vars.get(p).solutionValue();
            }
        }

        Commodity(int s, int d) {
            this.s = s;
            this.d = d;
        }
    }

    /**
     * Most LP rounds before column generation stops as if its budget were spent: a test's way to
     * stop it at a known point (wall time is not one).
     */
    int roundLimit = Integer.MAX_VALUE;

    /** Other jobs' load per arc (Gb/s) during one {@link #place} call; zeros when there are none. */
    private double[] background;

    @Override
    public MultipathResult place(Job job, MultipathOptions opt) throws PlacementException {
        return place(job, opt, new double[ix.arcCount]);
    }

    @Override
    public MultipathResult place(Job job, MultipathOptions opt, double[] backgroundGbps) throws PlacementException {
        if (backgroundGbps.length != ix.arcCount) {
            throw new IllegalArgumentException("backgroundGbps: " + backgroundGbps.length + " arcs, the fabric has "
                    + ix.arcCount);
        }
        background = backgroundGbps;
        long deadline = System.nanoTime() + opt.timeBudgetMs() * 1_000_000L;
        PlacementResult integral = single.add(job); // validates the job; the fallback and the first columns
        nicLoads.clear();
        try {
            return solve(job, opt, integral, deadline);
        } finally {
            single.release(job.id());
        }
    }

    private MultipathResult solve(Job job, MultipathOptions opt, PlacementResult integral, long deadline) {
        if (opt.pathLimit() == 1) {
            return fallback(integral, opt, "one path per flow (maxPaths " + opt.maxPaths() + ", granularity "
                    + opt.granularity() + ")");
        }
        List<Flow> flows = job.flows();
        Map<String, PlacedFlow> placed = new HashMap<>();
        for (PlacedFlow pf : integral.placed()) {
            placed.put(pf.flow().id(), pf);
        }
        // Commodities over switch pairs, from the ports the integral path uses (a multi-port NIC keeps
        // the port, so the plane, the engine chose for it); flows that stay on one switch keep their
        // path: a fixed load.
        Map<Long, Commodity> byPair = new LinkedHashMap<>();
        double[] fixed = new double[ix.arcCount];
        for (int a = 0; a < fixed.length; a++) {
            fixed[a] = switchArc(a) ? background[a] : 0; // NIC arcs: in nicLoad
        }
        List<Commodity> comms = new ArrayList<>();
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            int[] path = single.pathArcs(f.id());
            if (path == null) {
                continue;
            }
            int s = ix.arcTo[path[0]];
            int d = ix.arcFrom[path[path.length - 1]];
            if (s == d) {
                for (int j = 1; j < path.length - 1; j++) {
                    fixed[path[j]] += f.demandGbps();
                }
                continue;
            }
            Commodity c = byPair.computeIfAbsent((long) s * ix.nodeCount + d, k -> {
                Commodity n = new Commodity(s, d);
                comms.add(n);
                return n;
            });
            c.flows.add(i);
            c.demand += f.demandGbps();
            c.maxDemand = Math.max(c.maxDemand, f.demandGbps());
        }

        // NIC arcs carry the same load on every routing: their max is a lower bound, and when the
        // integral placement reaches it, one path per flow is already optimal.
        double nic = 0;
        for (PlacedFlow pf : integral.placed()) {
            int[] p = single.pathArcs(pf.flow().id());
            nic = Math.max(nic, Math.max(nicLoad(p[0], integral), nicLoad(p[p.length - 1], integral)));
        }
        if (integralMaxLoad(integral) <= nic * (1 + TOL)) {
            return optimalAsIs(integral, opt, nic);
        }
        loadNative();
        MPSolver lp = MPSolver.createSolver("GLOP");
        try {
            MPVariable lambda = lp.makeNumVar(nic, MPSolver.infinity(), "lambda");
            MPObjective obj = lp.objective();
            obj.setCoefficient(lambda, 1);
            obj.setMinimization();
            MPConstraint[] arcRow = new MPConstraint[ix.arcCount];
            for (int a = 0; a < ix.arcCount; a++) {
                if (fixed[a] > 0) {
                    arcRow(lp, lambda, arcRow, fixed, a);
                }
            }
            int columns = 0;
            for (Commodity c : comms) {
                c.row = lp.makeConstraint(c.demand, c.demand);
                for (int i : c.flows) {
                    int[] p = single.pathArcs(flows.get(i).id());
                    columns += addColumn(lp, lambda, arcRow, fixed, c, Arrays.copyOfRange(p, 1, p.length - 1)) ? 1 : 0;
                }
            }
            // Column generation may use the budget up to its last quarter, kept for the re-solve on
            // the kept paths, the rounding and the encodings.
            long pricingDeadline = deadline - opt.timeBudgetMs() * 250_000L;
            Averaged warm = warmStart(lp, lambda, arcRow, fixed, comms, flows, pricingDeadline);
            columns += warm.columns;
            double single = integralMaxLoad(integral);
            double lower = Math.max(nic, warm.lower);
            double upper = Double.POSITIVE_INFINITY;
            int rounds = 0;
            boolean converged = comms.isEmpty();
            boolean exact = comms.isEmpty();
            boolean averaged = false; // handing out the warm start's splitting (no LP answer in time)
            double[] y = new double[ix.arcCount];
            while (!converged) {
                long left = (pricingDeadline - System.nanoTime()) / 1_000_000L;
                MPSolver.ResultStatus st = null;
                if (left > 0 && rounds < roundLimit) {
                    lp.setTimeLimit(left);
                    st = solveOrRestart(lp, pricingDeadline);
                    rounds++;
                    if (st != MPSolver.ResultStatus.OPTIMAL && System.nanoTime() < pricingDeadline) {
                        return fallback(integral, opt, "LP not solved to optimality (" + st + ") after " + rounds
                                + " rounds");
                    }
                }
                if (st != MPSolver.ResultStatus.OPTIMAL) { // the budget is spent (or the round limit reached)
                    if (upper < single * (1 - TOL)) {
                        break; // the restricted master's answer beats one path: hand it out with its gap
                    }
                    if (Math.max(nic, warm.maxLoad) < single * (1 - TOL)) {
                        for (Commodity c : comms) {
                            c.x = Arrays.copyOf(c.averaged, c.vars.size());
                        }
                        averaged = true;
                        break;
                    }
                    return fallback(integral, opt, String.format(java.util.Locale.ROOT,
                            "time budget %d ms spent after %d LP rounds (gap bound then %.3f)", opt.timeBudgetMs(),
                            rounds, upper < Double.POSITIVE_INFINITY ? upper / lower - 1 : single / lower - 1));
                }
                upper = lambda.solutionValue();
                for (Commodity c : comms) {
                    c.read();
                }
                Arrays.fill(y, 0);
                double yc = 0;
                double priced = 0; // Σ_a y_a·fixed_a + Σ_k D_k·dist_y(k) <= λ·Σ_a y_a·c_a for any routing
                for (int a = 0; a < arcRow.length; a++) {
                    if (arcRow[a] != null) {
                        y[a] = Math.abs(arcRow[a].dualValue());
                        yc += y[a] * ix.capacityGbps[a];
                        priced += y[a] * fixed[a];
                    }
                }
                Map<Long, Leg> legs = new HashMap<>();
                int added = 0;
                for (Commodity c : comms) {
                    // The commodity's current length: its cheapest path carrying flow (reduced cost 0).
                    double sigma = Double.POSITIVE_INFINITY;
                    for (int p = 0; p < c.x.length; p++) {
                        if (c.x[p] > EPS * c.demand) {
                            sigma = Math.min(sigma, length(c.paths.get(p), y));
                        }
                    }
                    Priced best = cheapest(c, y, legs);
                    if (best == null) {
                        throw new IllegalStateException("no candidate path for a commodity that has one");
                    }
                    priced += c.demand * best.bound;
                    if (best.mid != null && best.cost < sigma - TOL * Math.max(sigma, EPS)
                            && addColumn(lp, lambda, arcRow, fixed, c, best.mid)) {
                        added++;
                    }
                }
                columns += added;
                if (yc > 0) {
                    lower = Math.max(lower, priced / yc);
                }
                lower = Math.max(lower, nic);
                // No improving column: the restricted optimum is the optimum over all candidates.
                exact = added == 0;
                converged = exact || upper - lower <= TOL * Math.max(upper, EPS);
            }
            // Stopped early, upper is the restricted master's optimum: not the optimum, so not reported.
            double optimum = comms.isEmpty() ? 0 : converged ? upper : Double.NaN;
            if (exact) {
                lower = optimum;
            }
            // Path-count limit: keep each commodity's heaviest positive paths, re-solve on those only.
            boolean cut = false;
            for (Commodity c : comms) {
                // Columns added in the last round were never solved: value 0.
                double[] x = Arrays.copyOf(c.x, c.vars.size());
                Integer[] order = new Integer[x.length];
                for (int p = 0; p < order.length; p++) {
                    order[p] = p;
                }
                Arrays.sort(order, (u, v) -> Double.compare(x[v], x[u]));
                int positive = 0;
                for (Integer p : order) {
                    if (x[p] > EPS * c.demand) {
                        positive++;
                    }
                }
                cut |= positive > opt.pathLimit();
                for (int k = 0; k < order.length; k++) {
                    if (k >= opt.pathLimit() || x[order[k]] <= EPS * c.demand) {
                        c.vars.get(order[k]).setUb(0);
                        x[order[k]] = 0;
                    }
                }
                c.x = x;
            }
            if (cut && !averaged) { // (the averaged splitting keeps its heaviest paths, renormalised)
                lp.setTimeLimit(Math.max(1, (deadline - System.nanoTime()) / 1_000_000L));
                MPSolver.ResultStatus st = solveOrRestart(lp, deadline);
                if (st != MPSolver.ResultStatus.OPTIMAL) {
                    return fallback(integral, opt, "LP on the kept paths not solved (" + st + ")");
                }
                for (Commodity c : comms) {
                    c.read();
                    for (int p = 0; p < c.x.length; p++) {
                        if (c.vars.get(p).ub() == 0) {
                            c.x[p] = 0;
                        }
                    }
                }
            }
            MultipathResult r = build(job, opt, integral, comms, placed, fixed, optimum, lower, rounds, columns);
            if (r.maxLoad() >= single * (1 - TOL)) {
                // Rounding ate the gain (e.g. an oversubscribed Clos whose integral answer is already optimal).
                MultipathResult f = fallback(integral, opt, String.format(java.util.Locale.ROOT,
                        "the rounded weights (max load %.4f) do not beat one path per flow (%.4f)", r.maxLoad(),
                                single));
                return new MultipathResult(f.flows(), f.unplaced(), f.fallback(), single, r.splittableOptimum(),
                        r.lowerBound(), r.fractionalMaxLoad(), single, r.roundingBound(), single / r.lowerBound() - 1,
                        rounds, columns);
            }
            return r;
        } finally {
            lp.delete();
        }
    }

    private MultipathResult build(Job job, MultipathOptions opt, PlacementResult integral, List<Commodity> comms,
                                  Map<String, PlacedFlow> placed, double[] fixed, double optimum, double lower,
                                  int rounds, int columns) {
        List<Flow> flows = job.flows();
        int g = opt.granularity();
        double[] fractional = fixed.clone();
        double[] roundingSlack = new double[ix.arcCount];
        // Switch-arc loads of the rounded units (fixed flows included), kept up to date by the repair.
        double[] load = fixed.clone();
        List<List<int[]>> kept = new ArrayList<>();
        List<int[][]> units = new ArrayList<>();
        for (Commodity c : comms) {
            List<int[]> k = new ArrayList<>();
            List<Double> w = new ArrayList<>();
            for (int p = 0; p < c.x.length; p++) {
                double x = c.x[p];
                if (x > EPS * c.demand) {
                    k.add(c.paths.get(p));
                    w.add(x);
                    for (int a : c.paths.get(p)) {
                        fractional[a] += x;
                        roundingSlack[a] += c.maxDemand / g;
                    }
                }
            }
            double sum = w.stream().mapToDouble(Double::doubleValue).sum();
            double[] weights = new double[k.size()];
            for (int p = 0; p < weights.length; p++) {
                weights[p] = w.get(p) / sum;
            }
            int[][] u = UnitApportionment.apportion(weights, c.demands(flows), g);
            for (int j = 0; j < u.length; j++) {
                double d = flows.get(c.flows.get(j)).demandGbps();
                for (int p = 0; p < k.size(); p++) {
                    for (int a : k.get(p)) {
                        load[a] += d * u[j][p] / g;
                    }
                }
            }
            kept.add(k);
            units.add(u);
        }
        repair(comms, kept, units, load, flows, g);
        List<WeightedPath>[] out = newLists(flows.size());
        String[] note = new String[flows.size()];
        double[] nicLoad = new double[ix.arcCount];
        for (int ci = 0; ci < comms.size(); ci++) {
            Commodity c = comms.get(ci);
            for (int j = 0; j < c.flows.size(); j++) {
                int fi = c.flows.get(j);
                Flow f = flows.get(fi);
                int[] integralPath = single.pathArcs(f.id());
                int up = integralPath[0];
                int down = integralPath[integralPath.length - 1];
                List<WeightedPath> ws = new ArrayList<>();
                try {
                    for (int p = 0; p < kept.get(ci).size(); p++) {
                        int n = units.get(ci)[j][p];
                        if (n > 0) {
                            int[] path = wrap(up, kept.get(ci).get(p), down);
                            ws.add(new WeightedPath(arcs(path), encoder.encode(ix, path, job.tenant()), n,
                                    n / (double) g));
                        }
                    }
                } catch (FlowEncoder.EncodingFailure e) {
                    note[fi] = "a spread path failed to encode (" + e.getMessage() + "): kept the single path";
                    for (int p = 0; p < kept.get(ci).size(); p++) {
                        for (int a : kept.get(ci).get(p)) {
                            load[a] -= f.demandGbps() * units.get(ci)[j][p] / g;
                        }
                    }
                    continue;
                }
                nicLoad[up] += f.demandGbps();
                nicLoad[down] += f.demandGbps();
                out[fi] = ws;
            }
        }
        List<MultipathFlow> result = new ArrayList<>();
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            PlacedFlow pf = placed.get(f.id());
            if (pf == null) {
                continue;
            }
            List<WeightedPath> ws = out[i];
            if (ws == null) {
                // Same switch, or a spread path that did not encode: the integral path.
                ws = List.of(new WeightedPath(pf.path(), pf.encoding(), g, 1.0));
                int[] p = single.pathArcs(f.id());
                nicLoad[p[0]] += f.demandGbps();
                nicLoad[p[p.length - 1]] += f.demandGbps();
                if (note[i] != null) {
                    for (int j = 1; j < p.length - 1; j++) {
                        load[p[j]] += f.demandGbps();
                    }
                }
            }
            result.add(new MultipathFlow(f, ws, note[i]));
        }
        double nic = 0;
        double max = 0;
        double frac = 0;
        double slack = 0;
        for (int a = 0; a < ix.arcCount; a++) {
            double c = ix.capacityGbps[a];
            if (switchArc(a)) {
                max = Math.max(max, load[a] / c);
                frac = Math.max(frac, fractional[a] / c);
                slack = Math.max(slack, roundingSlack[a] / c);
            } else {
                nic = Math.max(nic, (nicLoad[a] + background[a]) / c);
            }
        }
        max = Math.max(max, nic);
        frac = Math.max(frac, nic);
        double lb = Math.max(nic, lower);
        double opt0 = Math.max(nic, optimum);
        return new MultipathResult(result, integral.unplaced(), null, integralMaxLoad(integral), opt0, lb, frac,
                max, slack, lb > 0 ? max / lb - 1 : 0, rounds, columns);
    }

    private boolean switchArc(int a) {
        return ix.roles[ix.arcFrom[a]].isSwitch() && ix.roles[ix.arcTo[a]].isSwitch();
    }

    /** Repair moves per flow, at most (a bound on the local search, which stops earlier when stuck). */
    private static final int REPAIR_MOVES_PER_FLOW = 4;

    /**
     * Local search after rounding: while every arc at the current max load has a flow with a unit
     * that can move to another of its commodity's kept paths without reaching that max, move it.
     * Stops at the first max arc that cannot be relieved. Never raises the max load and keeps every
     * flow within its kept paths (so within the path limit) and its units summing to g.
     */
    private void repair(List<Commodity> comms, List<List<int[]>> kept, List<int[][]> units, double[] load,
                        List<Flow> flows, int g) {
        List<List<int[]>> through = new ArrayList<>(ix.arcCount); // arc -> {commodity, path}
        for (int a = 0; a < ix.arcCount; a++) {
            through.add(null);
        }
        int totalFlows = 0;
        for (int ci = 0; ci < comms.size(); ci++) {
            totalFlows += comms.get(ci).flows.size();
            for (int p = 0; p < kept.get(ci).size(); p++) {
                if (kept.get(ci).size() < 2) {
                    continue;
                }
                for (int a : kept.get(ci).get(p)) {
                    if (through.get(a) == null) {
                        through.set(a, new ArrayList<>());
                    }
                    through.get(a).add(new int[] {ci, p});
                }
            }
        }
        int budget = REPAIR_MOVES_PER_FLOW * totalFlows;
        while (budget > 0) {
            double max = 0;
            for (int a = 0; a < ix.arcCount; a++) {
                if (switchArc(a)) {
                    max = Math.max(max, load[a] / ix.capacityGbps[a]);
                }
            }
            double level = max * (1 - 1e-12);
            for (int a = 0; a < ix.arcCount && budget > 0; a++) {
                if (!switchArc(a) || load[a] / ix.capacityGbps[a] < level) {
                    continue;
                }
                if (!relieve(a, max, comms, kept, units, load, flows, g, through)) {
                    return;
                }
                budget--;
            }
        }
    }

    /** Moves one unit off arc {@code a} onto a kept path that stays under {@code max}; false if none. */
    private boolean relieve(int a, double max, List<Commodity> comms, List<List<int[]>> kept, List<int[][]> units,
                            double[] load, List<Flow> flows, int g, List<List<int[]>> through) {
        List<int[]> on = through.get(a);
        if (on == null) {
            return false;
        }
        double bestAfter = max * (1 - 1e-9);
        int[] best = null;
        for (int[] cp : on) {
            int ci = cp[0];
            int p = cp[1];
            int[][] u = units.get(ci);
            List<int[]> ks = kept.get(ci);
            for (int j = 0; j < u.length; j++) {
                if (u[j][p] == 0) {
                    continue;
                }
                double unit = flows.get(comms.get(ci).flows.get(j)).demandGbps() / g;
                for (int q = 0; q < ks.size(); q++) {
                    if (q == p) {
                        continue;
                    }
                    double after = 0;
                    int[] from = ks.get(p);
                    for (int b : ks.get(q)) {
                        double extra = contains(from, b) ? 0 : unit;
                        after = Math.max(after, (load[b] + extra) / ix.capacityGbps[b]);
                    }
                    if (after < bestAfter) {
                        bestAfter = after;
                        best = new int[] {ci, j, p, q};
                    }
                }
            }
        }
        if (best == null) {
            return false;
        }
        int ci = best[0];
        int j = best[1];
        double unit = flows.get(comms.get(ci).flows.get(j)).demandGbps() / g;
        units.get(ci)[j][best[2]]--;
        units.get(ci)[j][best[3]]++;
        for (int b : kept.get(ci).get(best[2])) {
            load[b] -= unit;
        }
        for (int b : kept.get(ci).get(best[3])) {
            load[b] += unit;
        }
        return true;
    }

    private static boolean contains(int[] path, int arc) {
        for (int a : path) {
            if (a == arc) {
                return true;
            }
        }
        return false;
    }

    private final Map<Integer, Double> nicLoads = new HashMap<>();

    /** Load / capacity of a NIC arc over the integral placement's flows (memoised per call). */
    private double nicLoad(int arc, PlacementResult integral) {
        if (nicLoads.isEmpty()) {
            for (PlacedFlow pf : integral.placed()) {
                int[] p = single.pathArcs(pf.flow().id());
                nicLoads.merge(p[0], pf.flow().demandGbps(), Double::sum);
                nicLoads.merge(p[p.length - 1], pf.flow().demandGbps(), Double::sum);
            }
        }
        return (nicLoads.getOrDefault(arc, 0.0) + background[arc]) / ix.capacityGbps[arc];
    }

    /** Max utilisation of the job's single-path placement on top of the background load. */
    private double integralMaxLoad(PlacementResult integral) {
        double m = integral.quality().maxLoad();
        double[] own = single.arcLoadsGbps(); // the scratch engine holds this job alone
        for (int a = 0; a < own.length; a++) {
            if (background[a] > 0) {
                m = Math.max(m, (own[a] + background[a]) / ix.capacityGbps[a]);
            }
        }
        return m;
    }

    /** The integral placement already meets the NIC bound: one path per flow is optimal, gap 0. */
    private MultipathResult optimalAsIs(PlacementResult integral, MultipathOptions opt, double nic) {
        List<MultipathFlow> flows = new ArrayList<>();
        for (PlacedFlow pf : integral.placed()) {
            flows.add(new MultipathFlow(pf.flow(), List.of(new WeightedPath(pf.path(), pf.encoding(),
                    opt.granularity(), 1.0)), null));
        }
        return new MultipathResult(flows, integral.unplaced(), null, nic, nic, nic, nic, nic, 0, 0, 0, 0);
    }

    private MultipathResult fallback(PlacementResult integral, MultipathOptions opt, String why) {
        List<MultipathFlow> flows = new ArrayList<>();
        for (PlacedFlow pf : integral.placed()) {
            flows.add(new MultipathFlow(pf.flow(), List.of(new WeightedPath(pf.path(), pf.encoding(),
                    opt.granularity(), 1.0)), null));
        }
        double m = integralMaxLoad(integral);
        return new MultipathResult(flows, integral.unplaced(), why, m, Double.NaN, Double.NaN, m, m, 0, Double.NaN,
                0, 0);
    }

    /**
     * Passes and exponent of {@link #warmStart}: at least the minimum (columns for the LP), then more
     * while half the pricing time is left (each pass improves the answer handed out when no LP round
     * fits: Dragonfly(4,8,4) all-to-all, 4,224 flows, 1.50 single path, 1.10 optimum: 1.17 after 40
     * passes, ~30 ms of CPU each).
     */
    private static final int WARM_PASSES = 8;
    private static final int WARM_PASSES_MAX = 64;
    private static final int WARM_POWER = 8;

    /**
     * The warm start's outcome: columns added, the averaged splitting's max switch-arc load, and the
     * best lower bound its marginal costs proved (0 when none).
     */
    private record Averaged(int columns, double maxLoad, double lower) {
    }

    /**
     * The column pool before the first LP: a few Frank–Wolfe passes on the smooth objective
     * Σ_a (load_a / c_a)^P (a large P approximates the max), from the integral placement: each pass
     * routes every commodity on its cheapest path under the marginal costs (load_a / c_a)^(P-1) / c_a
     * and moves to the mix of that routing and the current one that minimises the objective (golden
     * section). The splitting is kept per commodity ({@code averaged}): the answer when no LP fits in
     * the budget. Without it the LP starts at the integral answer with the duals on one tight arc at a
     * time, and column generation spends most rounds degenerate before the max moves (Slim Fly q=5
     * permutations: 55 of 70 rounds). Its columns are heuristic: optimality still comes from pricing.
     */
    private Averaged warmStart(MPSolver lp, MPVariable lambda, MPConstraint[] rows, double[] fixed,
                               List<Commodity> comms, List<Flow> flows, long deadline) {
        // Start from the integral placement: each flow's demand on its own path.
        double[] load = fixed.clone();
        for (Commodity c : comms) {
            c.averaged = new double[c.paths.size()];
            for (int i : c.flows) {
                int[] p = single.pathArcs(flows.get(i).id());
                double d = flows.get(i).demandGbps();
                c.average(c.indexOf(Arrays.copyOfRange(p, 1, p.length - 1)), d);
                for (int j = 1; j < p.length - 1; j++) {
                    load[p[j]] += d;
                }
            }
        }
        double[] y = new double[ix.arcCount];
        int added = 0;
        double lower = 0;
        long now = System.nanoTime();
        long more = now + Math.max(0, deadline - now) / 2; // extra passes only before this
        for (int pass = 1; pass <= WARM_PASSES_MAX && System.nanoTime() < (pass <= WARM_PASSES ? deadline : more);
                pass++) {
            double max = EPS;
            for (int a = 0; a < load.length; a++) {
                max = Math.max(max, load[a] / ix.capacityGbps[a]);
            }
            double yc = 0;
            double priced = 0; // as in column generation: any y >= 0 proves a lower bound
            for (int a = 0; a < load.length; a++) {
                y[a] = Math.pow(load[a] / (ix.capacityGbps[a] * max), WARM_POWER - 1) / ix.capacityGbps[a];
                yc += y[a] * ix.capacityGbps[a];
                priced += y[a] * fixed[a];
            }
            Map<Long, Leg> legs = new HashMap<>();
            double[] next = fixed.clone();
            int[] chosen = new int[comms.size()];
            for (int ci = 0; ci < comms.size(); ci++) {
                Commodity c = comms.get(ci);
                Priced p = cheapest(c, y, legs);
                priced += p == null ? Double.POSITIVE_INFINITY : c.demand * p.bound;
                chosen[ci] = -1;
                if (p == null || p.mid == null) {
                    for (int k = 0; k < c.averaged.length; k++) { // keeps its current splitting
                        for (int a : c.paths.get(k)) {
                            next[a] += c.averaged[k];
                        }
                    }
                    continue;
                }
                added += addColumn(lp, lambda, rows, fixed, c, p.mid) ? 1 : 0;
                chosen[ci] = c.indexOf(p.mid);
                for (int a : p.mid) {
                    next[a] += c.demand;
                }
            }
            if (yc > 0 && Double.isFinite(priced)) {
                lower = Math.max(lower, priced / yc);
            }
            // Frank-Wolfe step: the share of the new routing that minimises the smooth objective.
            double gamma = lineSearch(load, next, max);
            for (int a = 0; a < load.length; a++) {
                load[a] = (1 - gamma) * load[a] + gamma * next[a];
            }
            for (int ci = 0; ci < comms.size(); ci++) {
                Commodity c = comms.get(ci);
                if (chosen[ci] >= 0) {
                    for (int k = 0; k < c.averaged.length; k++) {
                        c.averaged[k] *= 1 - gamma;
                    }
                    c.average(chosen[ci], gamma * c.demand);
                }
            }
        }
        double max = 0;
        for (int a = 0; a < load.length; a++) {
            if (switchArc(a)) {
                max = Math.max(max, load[a] / ix.capacityGbps[a]);
            }
        }
        return new Averaged(added, max, lower);
    }

    /** Golden-section search of γ in [0, 1] minimising Σ_a (((1-γ)·load_a + γ·next_a) / (c_a·scale))^P. */
    private double lineSearch(double[] load, double[] next, double scale) {
        double lo = 0;
        double hi = 1;
        double phi = (Math.sqrt(5) - 1) / 2;
        double g1 = hi - phi * (hi - lo);
        double g2 = lo + phi * (hi - lo);
        double f1 = smooth(load, next, g1, scale);
        double f2 = smooth(load, next, g2, scale);
        for (int i = 0; i < 30; i++) {
            if (f1 <= f2) {
                hi = g2;
                g2 = g1;
                f2 = f1;
                g1 = hi - phi * (hi - lo);
                f1 = smooth(load, next, g1, scale);
            } else {
                lo = g1;
                g1 = g2;
                f1 = f2;
                g2 = lo + phi * (hi - lo);
                f2 = smooth(load, next, g2, scale);
            }
        }
        return (lo + hi) / 2;
    }

    private double smooth(double[] load, double[] next, double gamma, double scale) {
        double sum = 0;
        for (int a = 0; a < load.length; a++) {
            double u = ((1 - gamma) * load[a] + gamma * next[a]) / (ix.capacityGbps[a] * scale);
            if (u > 0) {
                sum += Math.pow(u, WARM_POWER);
            }
        }
        return sum;
    }

    // ------------------------------------------------------------------ LP helpers


    /**
     * GLOP re-solves from the previous basis after columns are added; when that warm start ends
     * ABNORMAL (seen on Slim Fly after ~60 rounds), the same model is solved once more from scratch.
     */
    private static MPSolver.ResultStatus solveOrRestart(MPSolver lp, long deadline) {
        MPSolver.ResultStatus st = lp.solve();
        if (st != MPSolver.ResultStatus.OPTIMAL && System.nanoTime() < deadline) { // not when out of time
            lp.setTimeLimit(Math.max(1, (deadline - System.nanoTime()) / 1_000_000L));
            lp.reset();
            st = lp.solve();
        }
        return st;
    }

    private MPConstraint arcRow(MPSolver lp, MPVariable lambda, MPConstraint[] rows, double[] fixed, int a) {
        if (rows[a] == null) {
            rows[a] = lp.makeConstraint(-MPSolver.infinity(), -fixed[a]);
            rows[a].setCoefficient(lambda, -ix.capacityGbps[a]);
        }
        return rows[a];
    }

    /** Adds a switch path as a column of commodity c, unless it is already one; true when added. */
    private boolean addColumn(MPSolver lp, MPVariable lambda, MPConstraint[] rows, double[] fixed, Commodity c,
                              int[] mid) {
        for (int[] p : c.paths) {
            if (Arrays.equals(p, mid)) {
                return false;
            }
        }
        MPVariable x = lp.makeNumVar(0, MPSolver.infinity(), "");
        c.row.setCoefficient(x, 1);
        for (int a : mid) {
            arcRow(lp, lambda, rows, fixed, a).setCoefficient(x, 1);
        }
        c.paths.add(mid);
        c.vars.add(x);
        return true;
    }

    private static double length(int[] mid, double[] y) {
        double s = 0;
        for (int a : mid) {
            s += y[a];
        }
        return s;
    }

    // ------------------------------------------------------------------ pricing

    /** A leg's cheapest path under the duals (switch arcs), or no path. */
    private record Leg(double cost, int[] mid, Tree tree) {
        Leg(double cost, int[] mid) {
            this(cost, mid, null);
        }
    }

    /**
     * @param cost length of the cheapest loop-free candidate found ({@code mid}; null when none)
     * @param bound the least length over every candidate, loops allowed: a valid term of the lower bound
     */
    private record Priced(double cost, int[] mid, double bound) {
    }

    private Priced cheapest(Commodity c, double[] y, Map<Long, Leg> legs) {
        if (ix.direct && cands.byDistance(c.s) != null) {
            return cheapestDirect(c, y, legs);
        }
        Leg direct = leg(c.s, c.d, y, legs);
        double cost = direct == null ? Double.POSITIVE_INFINITY : direct.cost;
        int[] mid = direct == null ? null : direct.mid;
        double bound = cost;
        if (ix.direct) {
            List<double[]> better = new ArrayList<>();
            for (int i : cands.intermediates()) {
                if (i == c.s || i == c.d) {
                    continue;
                }
                Leg a = leg(c.s, i, y, legs);
                Leg b = a == null ? null : leg(i, c.d, y, legs);
                if (b == null) {
                    continue;
                }
                double v = a.cost + b.cost;
                bound = Math.min(bound, v);
                if (v < cost - TOL * Math.max(cost, EPS)) {
                    better.add(new double[] {v, i});
                }
            }
            better.sort((u, v) -> Double.compare(u[0], v[0]));
            for (double[] b : better) {
                int i = (int) b[1];
                int[] p = concat(leg(c.s, i, y, legs).mid, leg(i, c.d, y, legs).mid);
                if (loopFree(c.s, p)) {
                    cost = b[0];
                    mid = p;
                    break;
                }
            }
        }
        return mid == null && bound == Double.POSITIVE_INFINITY ? null : new Priced(cost, mid, bound);
    }

    /** Shortest-path trees under y, per source (forward) and per destination (backward), one round. */
    private record Tree(double[] cost, int[] arc) {
    }

    /**
     * Direct networks with a distance matrix: one DP from the source over the switches in distance
     * order gives the cheapest minimal path to every router (a minimal path goes one hop further at
     * each step), and one backwards from the destination the cheapest minimal path from every
     * router; a Valiant path through i costs the sum at i. O(arcs) per distinct source and
     * destination per round instead of a DAG pass per (switch, router) leg.
     */
    private Priced cheapestDirect(Commodity c, double[] y, Map<Long, Leg> legs) {
        Tree f = tree(c.s, y, true, legs);
        Tree b = tree(c.d, y, false, legs);
        double cost = f.cost[c.d];
        if (cost == Double.POSITIVE_INFINITY) {
            return null;
        }
        double bound = cost;
        List<double[]> better = new ArrayList<>();
        for (int i : cands.intermediates()) {
            if (i == c.s || i == c.d) {
                continue;
            }
            double v = f.cost[i] + b.cost[i];
            bound = Math.min(bound, v);
            if (v < cost - TOL * Math.max(cost, EPS)) {
                better.add(new double[] {v, i});
            }
        }
        better.sort((u, v) -> Double.compare(u[0], v[0]));
        for (double[] o : better) {
            int[] p = concat(walkBack(f, c.s, (int) o[1]), walkOn(b, (int) o[1], c.d));
            if (loopFree(c.s, p)) {
                return new Priced(o[0], p, bound);
            }
        }
        return new Priced(cost, walkBack(f, c.s, c.d), bound);
    }

    private int[] walkBack(Tree t, int s, int v) {
        IntList rev = new IntList();
        while (v != s) {
            int a = t.arc[v];
            rev.add(a);
            v = ix.arcFrom[a];
        }
        int[] p = new int[rev.size()];
        for (int i = 0; i < p.length; i++) {
            p[i] = rev.get(p.length - 1 - i);
        }
        return p;
    }

    private int[] walkOn(Tree t, int v, int d) {
        IntList p = new IntList();
        while (v != d) {
            int a = t.arc[v];
            p.add(a);
            v = ix.arcTo[a];
        }
        return p.toArray();
    }

    private Tree tree(int root, double[] y, boolean forward, Map<Long, Leg> legs) {
        long key = forward ? -1 - root : -1 - ix.nodeCount - root;
        Leg memo = legs.get(key);
        if (memo != null) {
            return memo.tree;
        }
        double[] cost = new double[ix.nodeCount];
        int[] arc = new int[ix.nodeCount];
        Arrays.fill(cost, Double.POSITIVE_INFINITY);
        int[] order = cands.byDistance(root);
        int[] tord = cands.transitOrdinals();
        int[] row = cands.distanceRow(root);
        cost[root] = 0;
        if (forward) {
            for (int v : order) {
                if (cost[v] == Double.POSITIVE_INFINITY) {
                    continue;
                }
                int next = row[tord[v]] + 1;
                for (int a : ix.out[v]) {
                    int w = ix.arcTo[a];
                    int ow = tord[w];
                    if (ow < 0 || row[ow] != next || !ix.usable[a]) {
                        continue;
                    }
                    double x = cost[v] + y[a];
                    if (x < cost[w]) {
                        cost[w] = x;
                        arc[w] = a;
                    }
                }
            }
        } else {
            // Backwards: v's cost is its cheapest arc to a switch one hop nearer the root.
            for (int v : order) {
                if (v == root) {
                    continue;
                }
                int prev = row[tord[v]] - 1;
                for (int a : ix.out[v]) {
                    int w = ix.arcTo[a];
                    int ow = tord[w];
                    if (ow < 0 || row[ow] != prev || !ix.usable[a] || cost[w] == Double.POSITIVE_INFINITY) {
                        continue;
                    }
                    double x = cost[w] + y[a];
                    if (x < cost[v]) {
                        cost[v] = x;
                        arc[v] = a;
                    }
                }
            }
        }
        Tree t = new Tree(cost, arc);
        legs.put(key, new Leg(0, null, t));
        return t;
    }

    private Leg leg(int s, int d, double[] y, Map<Long, Leg> legs) {
        long key = (long) s * ix.nodeCount + d;
        Leg l = legs.get(key);
        if (l == null && !legs.containsKey(key)) {
            PathDag g = cands.between(s, d);
            l = g == null ? null : cheapest(g, y);
            legs.put(key, l);
        }
        return l;
    }

    /** Min Σ y_a over the DAG's paths, with the path (one pass in topological order). */
    private static Leg cheapest(PathDag g, double[] y) {
        int nu = g.uNode.length;
        int nd = g.dNode.length;
        double[] bu = new double[nu];
        double[] bd = new double[nd];
        int[] pu = new int[nu];
        int[] pd = new int[nd];
        Arrays.fill(bu, Double.POSITIVE_INFINITY);
        Arrays.fill(bd, Double.POSITIVE_INFINITY);
        bu[0] = 0;
        for (int i = 0; i < g.upArc.length; i++) {
            double v = bu[g.upFrom[i]] + y[g.upArc[i]];
            if (v < bu[g.upTo[i]]) {
                bu[g.upTo[i]] = v;
                pu[g.upTo[i]] = i;
            }
        }
        for (int i = 0; i < g.peakU.length; i++) {
            if (bu[g.peakU[i]] < bd[g.peakD[i]]) {
                bd[g.peakD[i]] = bu[g.peakU[i]];
                pd[g.peakD[i]] = -(i + 1);
            }
        }
        for (int i = 0; i < g.downArc.length; i++) {
            double v = bd[g.downFrom[i]] + y[g.downArc[i]];
            if (v < bd[g.downTo[i]]) {
                bd[g.downTo[i]] = v;
                pd[g.downTo[i]] = i;
            }
        }
        if (bd[g.dTarget] == Double.POSITIVE_INFINITY) {
            return null;
        }
        int[] rev = new int[g.hops];
        int n = 0;
        int x = g.dTarget;
        while (pd[x] >= 0) {
            rev[n++] = g.downArc[pd[x]];
            x = g.downFrom[pd[x]];
        }
        int u = g.peakU[-(pd[x] + 1)];
        while (u != 0) {
            rev[n++] = g.upArc[pu[u]];
            u = g.upFrom[pu[u]];
        }
        int[] mid = new int[n];
        for (int i = 0; i < n; i++) {
            mid[i] = rev[n - 1 - i];
        }
        return new Leg(bd[g.dTarget], mid);
    }

    private boolean loopFree(int s, int[] mid) {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        seen.add(s);
        for (int a : mid) {
            if (!seen.add(ix.arcTo[a])) {
                return false;
            }
        }
        return true;
    }

    private static int[] concat(int[] a, int[] b) {
        int[] p = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, p, a.length, b.length);
        return p;
    }

    private static int[] wrap(int up, int[] mid, int down) {
        int[] p = new int[mid.length + 2];
        p[0] = up;
        System.arraycopy(mid, 0, p, 1, mid.length);
        p[p.length - 1] = down;
        return p;
    }

    private List<Arc> arcs(int[] p) {
        Arc[] a = new Arc[p.length];
        for (int i = 0; i < p.length; i++) {
            a[i] = ix.arcs[p[i]];
        }
        return List.of(a);
    }

    @SuppressWarnings("unchecked")
    private static List<WeightedPath>[] newLists(int n) {
        return new List[n];
    }
}
