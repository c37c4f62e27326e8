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
 * engine's candidate paths, approached by path-based gradient projection
 * ({@link PathGradientProjection}) and, where GLOP is fast or the exact optimum is asked for, solved
 * as a path LP by column generation; then cut to a few paths per flow and rounded to the hardware's
 * weight granularity.
 *
 * <p><b>What is computed.</b> Flows are grouped into commodities by (ingress switch, egress switch):
 * a single-homed NIC's own arc carries its flows whatever the switch path, so NIC arcs are a
 * constant and the grouping is exact. Gradient projection starts from the engine's own single-path
 * placement and spreads each commodity over a small pool of candidate paths, pricing arcs by an
 * exponential potential; every pass proves a lower bound from its prices (any y ≥ 0 gives
 * Σ_k D_k·dist_y(k) / Σ_a y_a·c_a on every splittable routing over the candidates, by weak
 * duality). It stops at {@link MultipathOptions#targetGap} (its share of it: the rest is left to
 * rounding), when it stalls, or at the budget. Its answer is handed out when the job has more
 * than {@link #LP_COMMODITIES} commodities; on smaller jobs it only warms up column generation,
 * which starts from its pools. The LP is: minimise λ subject to, per commodity k, Σ_p x_p = D_k, and per
 * switch arc a, Σ_{p ∋ a} x_p ≤ λ·c_a, over the paths generated so far (the restricted master).
 * Its duals price a new path by its length Σ_{a ∈ p} y_a ({@link CandidatePricer}: one pass over
 * the candidate {@link PathDag}, on direct networks also the Valiant paths through each
 * intermediate router); it enters when shorter than the commodity's current paths, and the same
 * pass proves the lower bound. Target gap 0 ({@link MultipathOptions#exact}) asks for this LP's
 * optimum whatever the size.
 *
 * <p><b>Multi-port NICs</b> (one port per plane): a flow's commodity keeps the port pair, so the
 * plane, of its integral path; the LP spreads it within that plane only. The optimum, the lower
 * bound and the gap are then those of that choice of ports, not of every port (splitting one flow
 * over two planes is not tried).
 *
 * <p><b>Rounding.</b> A basic LP solution has at most (commodities + tight arcs) positive paths, so
 * most commodities use one or two. The path limit ({@link MultipathOptions#pathLimit}) is per flow:
 * a commodity of n flows keeps its heaviest limit·n paths (the LP is solved once more on the kept
 * paths only), and {@link FlowSplit} deals them out so that each flow takes at most the limit; when
 * a flow had to drop pieces, the LP is solved once more over each flow group's own paths. Each
 * group's share is then rounded to units of 1/g by {@link UnitApportionment}, which adds less than
 * max d_f / g per path of a group ({@link MultipathResult#roundingBound} is that sum per arc, over
 * c_a), then {@link UnitRepair} moves single units between a group's paths to lower the max load
 * (never raising it, so the bound still holds). {@link MultipathResult#granularBound} says what no
 * routing in units of 1/g can beat ({@link GranularBound}). When gradient projection's answer is
 * handed out and its rounding stays above the lowest level whole units can make at or above its
 * fractional max, {@link UnitReroute} moves units onto fresh candidate paths, level by level down to
 * that one (never raising the max), for at most 1/{@link #PATIENT_SHARE} of the budget.
 *
 * <p><b>Budget.</b> Gradient projection and column generation price until three quarters of the
 * time budget are spent (the last quarter is for the re-solve on the kept paths, the rounding and
 * the encodings). Column generation stopped there hands out the better of the restricted master's
 * solution and gradient projection's, if it beats one path per flow, with its proven gap bound and
 * no optimum claimed ({@link MultipathResult#splittableOptimum} NaN, as whenever the LP did not
 * converge).
 *
 * <p><b>Fallback</b> to the integral placement (one path per flow, weight 1), with the reason in
 * {@link MultipathResult#fallback}: when the job allows one path ({@code maxPaths} 1), when one path
 * per flow is already within the target gap, when the time budget runs out before a spread answer
 * beats one path per flow, or when GLOP does not report an optimum.
 *
 * <p><b>Why gradient projection first, and column generation only on small jobs.</b> The goal is
 * within 5 % of the optimum within a second for ~4,000 flows, with a reported gap. GLOP's first LP
 * round alone took ~32 s CPU on a Dragonfly(4,8,4) all-to-all (4,224 flows, 4,090 commodities);
 * Frank–Wolfe on a smooth max needed 64 passes (1.9 s CPU) for 1.049 × the optimum, and
 * multiplicative weights (Garg and Könemann 1998) need O(ε⁻² m log m) shortest paths. Gradient
 * projection moves each commodity by its own Newton step and reached 1.15 in 8 passes and 1.12 in
 * 30 on that case (the optimum is 1.1026), each pass ~10–20 ms of CPU over primitive arrays. Its
 * proven lower bound converges more slowly than its answer (1.04 after 30 passes), so the reported
 * gap is wider than the real one. Column generation (Ford and Fulkerson 1958; the path formulation
 * as in Ahuja, Magnanti and Orlin, Network Flows, 17.4) converges to the exact optimum over the
 * same candidates in a few rounds on a few hundred commodities, with sparse basic solutions: it
 * closes the gap there. GLOP is OR-Tools' simplex; the native library ships inside the ortools jar.
 *
 * <p><b>How the Dragonfly permutations reach 20/16.</b> On Dragonfly(4,8,4) ring and permutation
 * jobs (~1,000 commodities: gradient projection alone) the optima are 1.241 and 1.246, and 5 %
 * above them needs 20/16 = 1.25 in sixteenths: at the optimum the busiest arcs are within 0.7 % of
 * it. Three steps each lost part of it, and each now keeps it:
 * <ul>
 * <li>gradient projection stalled near 1.30 (< 0.25 % in ten passes) while still converging: an
 *     answer handed out now judges a stall by 0.01 % until it has used 1/{@link #PATIENT_SHARE} of
 *     the budget in CPU time (~450 passes, ~5 s of CPU: permutation 1.2493, ring 1.2451);</li>
 * <li>the cut to 8 paths per flow at the end took 1.2491 to 1.2733 (12 sweeps after it); it now
 *     comes at the first stall, and at least 30 more passes (while patient) run within the limit
 *     (1.2493);</li>
 * <li>rounding and {@link UnitRepair} over the kept paths end at 21/16 from any fractional start
 *     (from 1.2497: 80 units over 20/16); {@link UnitReroute} reroutes units onto fresh candidate
 *     paths by negotiated congestion, its costs weighted by gradient projection's final prices,
 *     and reaches 20/16 in ~1–2 s of CPU (without the prices' term it stopped 16–22 units over,
 *     its detours spending more global-link capacity than there is).</li>
 * </ul>
 * {@link FlowSplit} still scales up pieces of the few two-flow commodities it cannot deal out
 * (fractional 1.2493 to 1.278 on the permutation); rerouting absorbs it there. Tried and not kept:
 * one restricted-master solve over gradient projection's pools with GLOP (primal or dual simplex)
 * or PDLP, unfinished after 45–100 s of wall time; a MILP over every flow's rounded paths plus one
 * fresh candidate (SCIP, CP-SAT: no better integer point found in 30 / 240 s, though the LP
 * relaxation has none over 20/16).
 *
 * <p><b>Complexity.</b> Per gradient projection pass: a shortest-path tree per distinct switch
 * (direct networks) or a DAG pass per leg, O(routers) per commodity, and a few sweeps over the
 * pools. Per LP round: one LP re-solve and the same pricing. Rounding O(F·g·P). Not thread-safe (one candidate cache
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

    /**
     * With an exact answer asked for (target gap 0), gradient projection only warms the LP up: to
     * this gap. Otherwise it aims at this share of the target gap, leaving the rest to rounding.
     */
    private static final double WARM_GAP = 0.02;
    private static final double CORE_SHARE_OF_GAP = 0.7;
    /**
     * Column generation follows gradient projection up to this many commodities: GLOP's first solve
     * took ~32 s CPU on 4,090 (Dragonfly(4,8,4) all-to-all), a few rounds well under a second on a
     * few hundred (Slim Fly q=5 permutations, where gradient projection with a pool of 4 paths per
     * flow stalls ~6 % above the optimum).
     */
    static final int LP_COMMODITIES = 600;

    /**
     * Gradient projection's answer, handed out, may take this share of the budget before its
     * coarse stall rule applies, and rerouting its rounding as much again: Dragonfly(4,8,4)
     * permutations need ~450 passes (~5 s of CPU) to come within whole sixteenths of 20/16.
     */
    static final int PATIENT_SHARE = 12;

    /** {@link #LP_COMMODITIES}, or another limit: a test's way to run gradient projection alone. */
    int lpCommodities = LP_COMMODITIES;

    private static volatile boolean loaded;

    private final DenseFabric ix;
    private final FlowEncoder encoder;
    private final CandidatePricer pricer;
    private final boolean[] switchArcs;
    private final PlacementEngine single;

    public ColumnGenerationMultipath(DenseFabric ix, FlowEncoder encoder, PlacementConfig config) {
        this.ix = ix;
        this.encoder = encoder;
        this.pricer = new CandidatePricer(ix, new CandidatePaths(ix));
        this.switchArcs = new boolean[ix.arcCount];
        for (int a = 0; a < switchArcs.length; a++) {
            switchArcs[a] = ix.roles[ix.arcFrom[a]].isSwitch() && ix.roles[ix.arcTo[a]].isSwitch();
        }
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
        /** The gradient projection's splitting of the demand over {@link #paths}. */
        double[] averaged = new double[0];

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

    /** Tests and benches: keep the last rounding before and after the repair (copies cost memory). */
    boolean keepRounding;
    UnitRepair.Problem roundedBeforeRepair;
    UnitRepair.Problem roundedAfterRepair;
    /** Wall time of the last repair. */
    long repairNanos;

    /** Other jobs' load per arc (Gb/s) during one {@link #place} call; zeros when there are none. */
    private double[] background;
    /** Gradient projection's last arc prices in the current call (what rerouting keeps paths short by). */
    private double[] prices;
    /** Gradient projection's fractional max load in the current call. */
    private double fractionalMax;
    /** The current call's deadline ({@link System#nanoTime}). */
    private long deadline;

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
        roundedBeforeRepair = null;
        roundedAfterRepair = null;
        deadline = System.nanoTime() + opt.timeBudgetMs() * 1_000_000L;
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
        // Gradient projection first (the answer when it proves the target gap; else the LP's columns).
        long pricingDeadline = deadline - opt.timeBudgetMs() * 250_000L;
        if (System.nanoTime() >= pricingDeadline) {
            return fallback(integral, opt, "time budget " + opt.timeBudgetMs()
                    + " ms spent after the single-path placement, before any spreading");
        }
        PathGradientProjection.Pool[] pools = pools(comms, flows, opt);
        // The LP when asked for, or when GLOP solves it fast; then gradient projection only warms it up.
        boolean lpWanted = opt.targetGap() == 0 || comms.size() <= lpCommodities;
        double target = lpWanted ? WARM_GAP : opt.targetGap() * CORE_SHARE_OF_GAP;
        PathGradientProjection gpr = new PathGradientProjection(ix, pricer, switchArcs);
        PathGradientProjection.Result gp = gpr.run(pools, fixed, opt.pathLimit(), target, pricingDeadline, 0,
                !lpWanted, opt.timeBudgetMs() * 1_000_000L / PATIENT_SHARE);
        prices = gpr.prices();
        fractionalMax = gp.maxLoad();
        int columns = 0;
        for (int ci = 0; ci < comms.size(); ci++) {
            Commodity c = comms.get(ci);
            PathGradientProjection.Pool k = pools[ci];
            c.paths.clear();
            c.paths.addAll(Arrays.asList(k.paths).subList(0, k.n));
            c.averaged = Arrays.copyOf(k.x, k.n);
            columns += k.n;
        }
        double single = integralMaxLoad(integral);
        double lower = Math.max(nic, gp.lower());
        if (!lpWanted || System.nanoTime() >= pricingDeadline) {
            if (Math.max(nic, gp.maxLoad()) >= single * (1 - TOL)) {
                String why = single <= lower * (1 + opt.targetGap())
                        ? "one path per flow is within the target gap (max load %.4f, proven lower bound %.4f)"
                        : "time budget %d ms spent after %d passes that did not beat one path per flow (%.4f,"
                                + " proven lower bound %.4f)";
                return fallback(integral, opt, why.startsWith("one")
                        ? String.format(java.util.Locale.ROOT, why, single, lower)
                        : String.format(java.util.Locale.ROOT, why, opt.timeBudgetMs(), gp.passes(), single, lower));
            }
            for (Commodity c : comms) {
                c.x = c.averaged;
            }
            return finish(job, opt, integral, comms, placed, fixed, Double.NaN, lower, 0, columns, single, false);
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
            for (Commodity c : comms) {
                c.row = lp.makeConstraint(c.demand, c.demand);
                List<int[]> pool = new ArrayList<>(c.paths);
                c.paths.clear();
                for (int[] mid : pool) {
                    addColumn(lp, lambda, arcRow, fixed, c, mid);
                }
            }
            double upper = Double.POSITIVE_INFINITY;
            int rounds = 0;
            boolean converged = comms.isEmpty();
            boolean exact = comms.isEmpty();
            boolean averaged = false; // handing out the gradient projection's splitting (no LP answer in time)
            double[] y = new double[ix.arcCount];
            while (!converged) {
                long left = (pricingDeadline - System.nanoTime()) / 1_000_000L;
                MPSolver.ResultStatus st = null;
                if (left > 0 && rounds < roundLimit) {
                    lp.setTimeLimit(left);
                    st = solveOrRestart(lp, pricingDeadline);
                    rounds++;
                    if (st != MPSolver.ResultStatus.OPTIMAL && System.nanoTime() < pricingDeadline) {
                        if (Math.max(nic, gp.maxLoad()) < single * (1 - TOL)) {
                            // GLOP gave up (seen: FEASIBLE on ~1,000 Dragonfly commodities): gradient
                            // projection's splitting still beats one path per flow, with its proven gap.
                            for (Commodity c : comms) {
                                c.x = Arrays.copyOf(c.averaged, c.vars.size());
                            }
                            averaged = true;
                            break;
                        }
                        return fallback(integral, opt, "LP not solved to optimality (" + st + ") after " + rounds
                                + " rounds");
                    }
                }
                if (st != MPSolver.ResultStatus.OPTIMAL) { // the budget is spent (or the round limit reached)
                    if (upper < single * (1 - TOL) && upper <= gp.maxLoad()) {
                        break; // the restricted master's answer beats one path: hand it out with its gap
                    }
                    if (Math.max(nic, gp.maxLoad()) < single * (1 - TOL)) {
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
                pricer.newRound(y);
                int added = 0;
                for (Commodity c : comms) {
                    // The commodity's current length: its cheapest path carrying flow (reduced cost 0).
                    double sigma = Double.POSITIVE_INFINITY;
                    for (int p = 0; p < c.x.length; p++) {
                        if (c.x[p] > EPS * c.demand) {
                            sigma = Math.min(sigma, length(c.paths.get(p), y));
                        }
                    }
                    CandidatePricer.Priced best = pricer.cheapest(c.s, c.d);
                    if (best == null) {
                        throw new IllegalStateException("no candidate path for a commodity that has one");
                    }
                    priced += c.demand * best.bound();
                    if (best.mid() != null && best.cost() < sigma - TOL * Math.max(sigma, EPS)
                            && addColumn(lp, lambda, arcRow, fixed, c, best.mid())) {
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
                int keep = keptPaths(c, opt);
                cut |= positive > keep;
                for (int k = 0; k < order.length; k++) {
                    if (k >= keep || x[order[k]] <= EPS * c.demand) {
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
            return finish(job, opt, integral, comms, placed, fixed, optimum, lower, rounds, columns, single, true);
        } finally {
            lp.delete();
        }
    }

    /** Rounds and encodes the commodities' splitting ({@code x}); one path per flow if rounding ate the gain. */
    private MultipathResult finish(Job job, MultipathOptions opt, PlacementResult integral, List<Commodity> comms,
                                   Map<String, PlacedFlow> placed, double[] fixed, double optimum, double lower,
                                   int rounds, int columns, double single, boolean resolve) {
        MultipathResult r = build(job, opt, integral, comms, placed, fixed, optimum, lower, rounds, columns, resolve);
        if (r.maxLoad() >= single * (1 - TOL)) {
            // Rounding ate the gain (e.g. an oversubscribed Clos whose integral answer is already optimal).
            MultipathResult f = fallback(integral, opt, String.format(java.util.Locale.ROOT,
                    "the rounded weights (max load %.4f) do not beat one path per flow (%.4f)", r.maxLoad(),
                            single));
            return new MultipathResult(f.flows(), f.unplaced(), f.fallback(), single, r.splittableOptimum(),
                    r.lowerBound(), r.fractionalMaxLoad(), single, r.roundingBound(), single / r.lowerBound() - 1,
                    rounds, columns, r.granularBound());
        }
        return r;
    }

    /**
     * Paths a commodity may keep: the path limit per flow, so up to that many times its flows
     * (each flow then takes at most the limit of them, {@link FlowSplit}). Keeping the limit per
     * commodity made a leaf pair's 12 flows share 4 paths on a 2:1 16x8x16 leaf-spine: the kept-path
     * LP was 3.0 where 8 paths reach the optimum 1.5.
     */
    private static int keptPaths(Commodity c, MultipathOptions opt) {
        return opt.pathLimit() * Math.min(c.flows.size(), MAX_FLOWS_PER_LIMIT);
    }

    /** Kept paths per commodity stop growing at this many times the path limit. */
    private static final int MAX_FLOWS_PER_LIMIT = 8;

    /** Each commodity's pool: its flows' integral paths with their demands. */
    private PathGradientProjection.Pool[] pools(List<Commodity> comms, List<Flow> flows, MultipathOptions opt) {
        PathGradientProjection.Pool[] pools = new PathGradientProjection.Pool[comms.size()];
        for (int ci = 0; ci < pools.length; ci++) {
            Commodity c = comms.get(ci);
            pools[ci] = new PathGradientProjection.Pool(c.s, c.d, c.demand, 4);
            pools[ci].limit = keptPaths(c, opt);
            for (int i : c.flows) {
                int[] p = single.pathArcs(flows.get(i).id());
                pools[ci].add(Arrays.copyOfRange(p, 1, p.length - 1), flows.get(i).demandGbps());
            }
        }
        return pools;
    }

    private MultipathResult build(Job job, MultipathOptions opt, PlacementResult integral, List<Commodity> comms,
                                  Map<String, PlacedFlow> placed, double[] fixed, double optimum, double lower,
                                  int rounds, int columns, boolean resolve) {
        List<Flow> flows = job.flows();
        int g = opt.granularity();
        double[] fractional = fixed.clone();
        double[] roundingSlack = new double[ix.arcCount];
        // Switch-arc loads of the rounded units (fixed flows included), kept up to date by the repair.
        double[] load = fixed.clone();
        // Rounding groups: a commodity's flows with the same kept paths (all of them when the
        // commodity keeps no more paths than one flow may use), flows as indices into the job.
        List<int[]> groupFlows = new ArrayList<>();
        List<List<int[]>> kept = new ArrayList<>();
        List<int[][]> units = new ArrayList<>();
        boolean[] exact = {true};
        List<List<FlowSplit.Group>> splits = new ArrayList<>();
        for (Commodity c : comms) {
            splits.add(FlowSplit.split(c.x, c.demands(flows), opt.pathLimit(), exact));
        }
        if (!exact[0] && resolve) {
            // Some flow covered more paths than it may use and dropped its smallest pieces: the LP
            // once more, over each group's own paths.
            solveGroups(comms, splits, fixed, flows);
        }
        for (int ci = 0; ci < comms.size(); ci++) {
            Commodity c = comms.get(ci);
            double[] demands = c.demands(flows);
            for (FlowSplit.Group grp : splits.get(ci)) {
                int[] members = new int[grp.flows().length];
                double[] dem = new double[members.length];
                double maxDemand = 0;
                for (int m = 0; m < members.length; m++) {
                    members[m] = c.flows.get(grp.flows()[m]);
                    dem[m] = demands[grp.flows()[m]];
                    maxDemand = Math.max(maxDemand, dem[m]);
                }
                List<int[]> k = new ArrayList<>();
                double sum = Arrays.stream(grp.amounts()).sum();
                double groupDemand = Arrays.stream(dem).sum();
                double[] weights = new double[grp.paths().length];
                for (int p = 0; p < weights.length; p++) {
                    k.add(c.paths.get(grp.paths()[p]));
                    weights[p] = grp.amounts()[p] / sum;
                    for (int a : k.get(p)) {
                        fractional[a] += weights[p] * groupDemand;
                        if (weights.length > 1) {
                            roundingSlack[a] += maxDemand / g;
                        }
                    }
                }
                int[][] u = UnitApportionment.apportion(weights, dem, g);
                for (int j = 0; j < u.length; j++) {
                    for (int p = 0; p < k.size(); p++) {
                        for (int a : k.get(p)) {
                            load[a] += dem[j] * u[j][p] / g;
                        }
                    }
                }
                groupFlows.add(members);
                kept.add(k);
                units.add(u);
            }
        }
        UnitRepair.Problem rounding = rounding(groupFlows, kept, units, load, flows, g);
        if (keepRounding) {
            roundedBeforeRepair = rounding.copy();
        }
        long t0 = System.nanoTime();
        // Chains and sweeps get half of what is left of the budget: the encodings follow.
        UnitRepair.repair(rounding, t0 + Math.max(0, deadline - t0) / 2);
        // Rerouting aims at levels the fractional answer reaches (none below it: on the Dragonfly
        // permutation with failed links, optimum 1.316, trying 21/16 = 1.3125 only cost time).
        double floor = resolve ? Double.POSITIVE_INFINITY : GranularBound.of(Math.max(lower, fractionalMax),
                movingDemands(comms, flows), g, fixed, ix.capacityGbps, switchArcs);
        if (rounding.maxLoad() > floor * (1 + TOL)) {
            // Gradient projection's rounding above that level: reroute units on fresh paths.
            long t1 = System.nanoTime();
            long stop = t1 + Math.min(Math.max(0, deadline - t1) / 2, opt.timeBudgetMs() * 1_000_000L / PATIENT_SHARE);
            UnitReroute.run(rounding, prices, ix, pricer, opt.pathLimit(), floor, stop);
            for (int gi = 0; gi < kept.size(); gi++) { // paths and units as rerouting left them
                kept.set(gi, Arrays.asList(rounding.paths()[gi]));
                units.set(gi, rounding.units()[gi]);
            }
        }
        repairNanos = System.nanoTime() - t0;
        if (keepRounding) {
            roundedAfterRepair = rounding;
        }
        List<WeightedPath>[] out = newLists(flows.size());
        String[] note = new String[flows.size()];
        double[] nicLoad = new double[ix.arcCount];
        for (int gi = 0; gi < groupFlows.size(); gi++) {
            int[] members = groupFlows.get(gi);
            for (int j = 0; j < members.length; j++) {
                int fi = members[j];
                Flow f = flows.get(fi);
                int[] integralPath = single.pathArcs(f.id());
                int up = integralPath[0];
                int down = integralPath[integralPath.length - 1];
                List<WeightedPath> ws = new ArrayList<>();
                try {
                    for (int p = 0; p < kept.get(gi).size(); p++) {
                        int n = units.get(gi)[j][p];
                        if (n > 0) {
                            int[] path = wrap(up, kept.get(gi).get(p), down);
                            ws.add(new WeightedPath(arcs(path), encoder.encode(ix, path, job.tenant()), n,
                                    n / (double) g));
                        }
                    }
                } catch (FlowEncoder.EncodingFailure e) {
                    note[fi] = "a spread path failed to encode (" + e.getMessage() + "): kept the single path";
                    for (int p = 0; p < kept.get(gi).size(); p++) {
                        for (int a : kept.get(gi).get(p)) {
                            load[a] -= f.demandGbps() * units.get(gi)[j][p] / g;
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
        double granular = Math.max(nic, GranularBound.of(lb, movingDemands(comms, flows), g, fixed, ix.capacityGbps,
                switchArcs));
        return new MultipathResult(result, integral.unplaced(), null, integralMaxLoad(integral), opt0, lb, frac,
                max, slack, lb > 0 ? max / lb - 1 : 0, rounds, columns, granular);
    }

    /** The demands of the flows that move (those of every commodity), in commodity order. */
    private static double[] movingDemands(List<Commodity> comms, List<Flow> flows) {
        double[] moving = new double[0];
        for (Commodity c : comms) {
            int at = moving.length;
            moving = Arrays.copyOf(moving, at + c.flows.size());
            System.arraycopy(c.demands(flows), 0, moving, at, c.flows.size());
        }
        return moving;
    }

    /**
     * The min-max LP over each rounding group's own paths (their flow in {@code amounts}, replaced
     * by the optimum's); left as they are if GLOP does not report an optimum.
     */
    private void solveGroups(List<Commodity> comms, List<List<FlowSplit.Group>> splits, double[] fixed,
                             List<Flow> flows) {
        MPSolver lp = MPSolver.createSolver("GLOP");
        try {
            MPVariable lambda = lp.makeNumVar(0, MPSolver.infinity(), "lambda");
            lp.objective().setCoefficient(lambda, 1);
            lp.objective().setMinimization();
            MPConstraint[] rows = new MPConstraint[ix.arcCount];
            List<MPVariable[]> vars = new ArrayList<>();
            for (int ci = 0; ci < comms.size(); ci++) {
                Commodity c = comms.get(ci);
                double[] demands = c.demands(flows);
                for (FlowSplit.Group grp : splits.get(ci)) {
                    double demand = 0;
                    for (int j : grp.flows()) {
                        demand += demands[j];
                    }
                    MPConstraint sum = lp.makeConstraint(demand, demand);
                    MPVariable[] v = new MPVariable[grp.paths().length];
                    for (int p = 0; p < v.length; p++) {
                        v[p] = lp.makeNumVar(0, MPSolver.infinity(), "");
                        sum.setCoefficient(v[p], 1);
                        for (int a : c.paths.get(grp.paths()[p])) {
                            arcRow(lp, lambda, rows, fixed, a).setCoefficient(v[p], 1);
                        }
                    }
                    vars.add(v);
                }
            }
            lp.setTimeLimit(Math.max(1, (deadline - System.nanoTime()) / 2_000_000L));
            if (lp.solve() != MPSolver.ResultStatus.OPTIMAL) {
                return;
            }
            int k = 0;
            for (List<FlowSplit.Group> groups : splits) {
                for (FlowSplit.Group grp : groups) {
                    MPVariable[] v = vars.get(k++);
                    for (int p = 0; p < v.length; p++) {
                        grp.amounts()[p] = Math.max(v[p].solutionValue(), 0); // an empty path gets no unit
                    }
                }
            }
        } finally {
            lp.delete();
        }
    }

    private boolean switchArc(int a) {
        return switchArcs[a];
    }

    /** The rounding as {@link UnitRepair} sees it; its units and loads are {@code units}' and {@code load}. */
    private UnitRepair.Problem rounding(List<int[]> groupFlows, List<List<int[]>> kept, List<int[][]> units,
                                        double[] load, List<Flow> flows, int g) {
        int[][][] paths = new int[groupFlows.size()][][];
        double[][] unitGbps = new double[groupFlows.size()][];
        int[][][] u = new int[groupFlows.size()][][];
        for (int gi = 0; gi < paths.length; gi++) {
            int[] members = groupFlows.get(gi);
            paths[gi] = kept.get(gi).toArray(new int[0][]);
            u[gi] = units.get(gi);
            unitGbps[gi] = new double[members.length];
            for (int j = 0; j < members.length; j++) {
                unitGbps[gi][j] = flows.get(members[j]).demandGbps() / g;
            }
        }
        return new UnitRepair.Problem(paths, unitGbps, u, load, ix.capacityGbps, switchArcs, g);
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
        return new MultipathResult(flows, integral.unplaced(), null, nic, nic, nic, nic, nic, 0, 0, 0, 0, nic);
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
