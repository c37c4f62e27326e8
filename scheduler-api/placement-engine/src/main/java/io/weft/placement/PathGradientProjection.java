package io.weft.placement;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * Min-max-utilisation splittable routing over candidate paths, approximately, with a proven lower
 * bound: path-based gradient projection on an exponential potential, with column generation from
 * the candidate pricer.
 *
 * <p><b>What is computed.</b> Commodities (switch pairs with a demand) are spread over a small pool
 * of paths each. The potential Φ = Σ_a exp(β·(u_a − M)), u_a = load_a / c_a over switch arcs,
 * approximates the max utilisation (its minimiser is within ln(m)/β of the optimum); its gradient
 * y_a = exp(β·(u_a − M)) / c_a prices the arcs. Each pass (1) prices every commodity's cheapest
 * candidate path under y (trees per switch, {@link CandidatePricer}); a cheaper path joins the pool;
 * the same prices prove the lower bound (Σ_a y_a·fixed_a + Σ_k D_k·dist_y(k)) / Σ_a y_a·c_a on
 * every splittable routing over the candidates (weak LP duality, any y ≥ 0); (2) sweeps the
 * commodities Gauss–Seidel, each moving flow from its dearer paths to its cheapest one by a
 * projected Newton step (the difference of path prices over the sum of second derivatives on the
 * arcs the two paths do not share), prices updated as loads change. β grows each pass (continuation)
 * so early passes move much flow and later ones aim at the max. It stops when the max utilisation
 * is within the target gap of the lower bound, when it stalls, or at the deadline. When its answer
 * is handed out (not a warm start for column generation), a stall is judged finely while the call
 * has used less than the caller's share of CPU time: near the optimum the max falls slowly but
 * steadily (Dragonfly(4,8,4) permutation: 1.2991, 1.2633, 1.2521, 1.2491 at passes 50, 200, 350,
 * 450, ~11 ms of CPU each; the optimum is 1.246), and whether whole units reach a level can hang
 * on the last 0.5 %.
 *
 * <p><b>Why this and not Frank–Wolfe or Garg–Könemann.</b> Frank–Wolfe moves all commodities by one
 * common step toward an all-or-nothing routing: on a Dragonfly(4,8,4) all-to-all (4,224 flows) it
 * needed 64 passes for 1.049 × the optimum, and Garg–Könemann needs O(ε⁻² m log m) shortest paths.
 * Per-commodity steps (Bertsekas and Gafni 1983, "Projected Newton methods and optimization of
 * multicommodity flows"; path-based gradient projection as in Jayakrishnan et al. 1994) move each
 * commodity by its own Newton step and keep each commodity on few paths, which the hardware's path
 * limit needs anyway.
 *
 * <p><b>Path limit.</b> A pool holds at most max(2·limit, initial paths) paths; a new path replaces
 * the pool's lightest (taking over its flow). A commodity with more than its own limit
 * ({@link Pool#limit}: the caller's is per flow, so a commodity of several flows may keep more)
 * paths carrying flow keeps its heaviest ones, which take over the others' flow in proportion, and
 * every pool is swept again: at the end, or, for an answer handed out, when the passes first stall,
 * after which the passes go on with pools of the limit (the cut alone took a Dragonfly(4,8,4)
 * permutation from 1.2491 to 1.2733; 16 passes within the limit brought it back to 1.2496).
 *
 * <p><b>Complexity.</b> Per pass: one tree per distinct source and destination switch (O(arcs)
 * each) plus O(routers) per commodity on direct networks (a DAG pass per leg elsewhere), and
 * O(paths × hops) per commodity per sweep. Arrays of primitives throughout; not thread-safe.
 */
final class PathGradientProjection {
    /** β·M on the first pass, growth per pass, and the most (ln(arcs)/β is the potential's slack). */
    private static final double B_FIRST = 8;
    private static final double B_GROWTH = 1.35;
    private static final double B_MAX = 600;
    /** Newton sweeps per pricing pass: a sweep costs a few percent of a pricing pass. */
    private static final int SWEEPS = 3;
    private static final double TOL = 1e-9;
    /** Sweeps over every pool after the path limit cut pools down. */
    private static final int FINAL_SWEEPS = 12;
    /**
     * Pools may hold this many times the path limit while iterating; the limit is enforced at the
     * end (as column generation cuts its basis): pools of exactly the limit fill with the first
     * passes' paths and stall (Slim Fly q=5, limit 4: 1.328 vs 1.301 with room for 8).
     */
    private static final int POOL_FACTOR = 2;
    /** A full pool drops a path for a new one only when it carries less than this share. */
    private static final double DROP_SHARE = 0.05;
    /**
     * A priced path joins a pool only when this much (relative) cheaper than the pool's cheapest:
     * on a Dragonfly many Valiant paths cost nearly the same, and without a margin thousands of
     * paths per pass replace each other for no gain.
     */
    private static final double ENTRY_MARGIN = 1e-2;
    /**
     * Stop when the max fell by less than this fraction over the last {@link #STALL_PASSES} passes
     * at full β (Dragonfly(4,8,4) all-to-all: 1.1243 → 1.1206 → 1.1172 → 1.1146 at passes 16, 26,
     * 38, 48, ~15-30 ms of CPU each; the optimum is 1.1026). A full-bisection k=4 fat-tree with a
     * core link down gains ~0.1 % per ten passes around 1.107 and still reaches 1.05 × the optimum
     * (1.0) later: 1 % stopped it there.
     */
    private static final double STALL = 0.0025;
    private static final int STALL_PASSES = 10;
    /**
     * The stall rule while the caller's patience lasts: near the end the max falls ~0.02 % per ten
     * passes on Dragonfly(4,8,4) permutations (1.2521, 1.2503, 1.2491 at passes 350, 400, 450;
     * the optimum is 1.246), and whole sixteenths need it under 1.25.
     */
    private static final double STALL_PATIENT = 0.0001;
    /**
     * Passes at least after the cut to the path limit while patient (Dragonfly(4,8,4) permutation:
     * 1.273 back to 1.250 in 16; with 11 the stall rule stopped it early and rounding missed 20/16).
     */
    private static final int LIMITED_PASSES = 30;

    /** One commodity: its switch pair, demand and path pool ({@code n} paths, flow {@code x[p]}). */
    static final class Pool {
        final int s;
        final int d;
        final double demand;
        int[][] paths;
        double[] x;
        int n;
        /** Most paths carrying flow at the end (0: the limit given to {@link #run}). */
        int limit;

        Pool(int s, int d, double demand, int capacity) {
            this.s = s;
            this.d = d;
            this.demand = demand;
            paths = new int[capacity][];
            x = new double[capacity];
        }

        /** Adds flow on a path, as a new pool entry unless the pool has it already. */
        void add(int[] path, double flow) {
            for (int p = 0; p < n; p++) {
                if (Arrays.equals(paths[p], path)) {
                    x[p] += flow;
                    return;
                }
            }
            if (n == paths.length) {
                paths = Arrays.copyOf(paths, n * 2);
                x = Arrays.copyOf(x, n * 2);
            }
            paths[n] = path;
            x[n++] = flow;
        }

        int indexOf(int[] path) {
            for (int p = 0; p < n; p++) {
                if (Arrays.equals(paths[p], path)) {
                    return p;
                }
            }
            return -1;
        }
    }

    /**
     * @param maxLoad max switch-arc utilisation of the pools' flows (fixed load included)
     * @param lower best proven lower bound on any splittable routing's max switch-arc utilisation
     * @param passes pricing passes run
     * @param columns paths that joined a pool
     */
    record Result(double maxLoad, double lower, int passes, int columns) {
    }

    private final DenseFabric ix;
    private final CandidatePricer pricer;
    private final boolean[] switchArc;
    private double[] load;
    private double[] y;
    private double beta;
    private double shift;

    PathGradientProjection(DenseFabric ix, CandidatePricer pricer, boolean[] switchArc) {
        this.ix = ix;
        this.pricer = pricer;
        this.switchArc = switchArc;
    }

    /**
     * Spreads the pools' flow (modified in place) until the max utilisation is within
     * {@code targetGap} of the proven lower bound, or until {@code deadlineNanos}.
     *
     * @param fixed load per arc that does not move (other jobs, same-switch flows)
     * @param limit most paths per commodity at the end
     * @param minPasses passes to run even when the gap is met earlier (0: stop at the gap)
     * @param handedOut the answer is the caller's (not a warm start for column generation): when the
     *     passes first stall, pools are cut to the limit and the passes go on within it, and until
     *     this thread has used {@code patientCpuNanos} of CPU time in the call a stall is judged by
     *     {@link #STALL_PATIENT} instead of {@link #STALL} (CPU time: on a shared machine wall time
     *     would cut the passes short as other work runs)
     */
    Result run(Pool[] pools, double[] fixed, int limit, double targetGap, long deadlineNanos, int minPasses,
               boolean handedOut, long patientCpuNanos) {
        long patientUntil = cpuNanos() + patientCpuNanos;
        load = fixed.clone();
        for (Pool k : pools) {
            for (int p = 0; p < k.n; p++) {
                for (int a : k.paths[p]) {
                    load[a] += k.x[p];
                }
            }
        }
        y = new double[ix.arcCount];
        double bm = B_FIRST;
        double lower = 0;
        int passes = 0;
        int columns = 0;
        double[] history = new double[STALL_PASSES];
        boolean limited = false;
        int least = minPasses;
        while (true) {
            double max = maxLoad();
            if (max <= 0) {
                return new Result(0, 0, passes, columns);
            }
            setPrices(bm / max, max);
            // The bound needs one set of prices for every commodity: pool moves below change y.
            double[] at = y.clone();
            pricer.newRound(at);
            double yc = 0;
            double priced = 0;
            for (int a = 0; a < at.length; a++) {
                yc += at[a] * ix.capacityGbps[a];
                priced += at[a] * fixed[a];
            }
            for (Pool k : pools) {
                CandidatePricer.Priced best = pricer.cheapest(k.s, k.d);
                if (best == null) {
                    throw new IllegalStateException("no candidate path for a commodity that has one");
                }
                priced += k.demand * best.bound();
                if (best.mid() != null && best.cost() < cheapestInPool(k, at) * (1 - ENTRY_MARGIN)
                        && k.indexOf(best.mid()) < 0) {
                    enter(k, best.mid(), limited ? keep(k, limit) : POOL_FACTOR * limit);
                    columns++;
                }
            }
            passes++;
            if (yc > 0) {
                lower = Math.max(lower, priced / yc);
            }
            for (int s = 0; s < SWEEPS; s++) {
                for (Pool k : pools) {
                    equalise(k, k.n);
                }
            }
            double now = maxLoad();
            history[passes % STALL_PASSES] = now;
            double stall = handedOut && cpuNanos() < patientUntil ? STALL_PATIENT : STALL;
            boolean stalled = bm >= B_MAX && passes > STALL_PASSES
                    && now > history[(passes + 1) % STALL_PASSES] * (1 - stall);
            boolean reached = now <= lower * (1 + targetGap);
            boolean done = (reached || stalled && targetGap > 0) && passes >= least;
            if (done && !reached && handedOut && !limited && cut(pools, limit)) {
                // Within the limit from here on: the sweeps and passes below win back what the cut cost.
                limited = true;
                sweep(pools, FINAL_SWEEPS);
                Arrays.fill(history, Double.POSITIVE_INFINITY);
                // (Out of patience, just enough passes for the stall rule: a 1 s budget has no more.)
                least = passes + (stall == STALL_PATIENT ? LIMITED_PASSES : STALL_PASSES + 1);
                continue;
            }
            if (done || System.nanoTime() >= deadlineNanos) {
                break;
            }
            bm = Math.min(B_MAX, bm * B_GROWTH);
        }
        enforceLimit(pools, limit);
        return new Result(maxLoad(), lower, passes, columns);
    }

    private static long cpuNanos() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    /** The arc prices of the last pass (the potential's gradient: scarce arcs cost most). */
    double[] prices() {
        return y.clone();
    }

    private double maxLoad() {
        double m = 0;
        for (int a = 0; a < load.length; a++) {
            if (switchArc[a]) {
                m = Math.max(m, load[a] / ix.capacityGbps[a]);
            }
        }
        return m;
    }

    private void setPrices(double b, double max) {
        beta = b;
        shift = max;
        for (int a = 0; a < y.length; a++) {
            y[a] = switchArc[a] ? price(a) : 0;
        }
    }

    private double price(int a) {
        double c = ix.capacityGbps[a];
        return Math.exp(beta * (load[a] / c - shift)) / c;
    }

    private double cheapestInPool(Pool k, double[] prices) {
        double m = Double.POSITIVE_INFINITY;
        for (int p = 0; p < k.n; p++) {
            m = Math.min(m, cost(k.paths[p], prices));
        }
        return m;
    }

    private double cost(int[] path) {
        return cost(path, y);
    }

    private static double cost(int[] path, double[] prices) {
        double s = 0;
        for (int a : path) {
            s += prices[a];
        }
        return s;
    }

    /**
     * A cheaper path joins the pool. A full pool makes room only by dropping a path that carries
     * less than {@link #DROP_SHARE} of the demand (its flow goes to the pool's cheapest path); the new
     * path starts empty and the sweeps move flow to it. Moving a heavier path's flow at once made
     * pools of 4 oscillate (Slim Fly q=5: the max rose from 1.34 to 1.36 as β grew).
     */
    private void enter(Pool k, int[] path, int limit) {
        if (k.n < limit) {
            k.add(path, 0);
            return;
        }
        int light = 0;
        int cheap = 0;
        for (int p = 1; p < k.n; p++) {
            if (k.x[p] < k.x[light]) {
                light = p;
            }
            if (cost(k.paths[p]) < cost(k.paths[cheap])) {
                cheap = p;
            }
        }
        if (k.x[light] > DROP_SHARE * k.demand || light == cheap) {
            return;
        }
        move(k.paths[light], k.paths[cheap], k.x[light]);
        k.x[cheap] += k.x[light];
        k.x[light] = 0;
        k.paths[light] = path;
    }

    /** Moves flow f from path p to path q, prices of the arcs they do not share updated. */
    private void move(int[] p, int[] q, double f) {
        if (f == 0) {
            return;
        }
        for (int a : p) {
            load[a] -= f;
            y[a] = price(a);
        }
        for (int a : q) {
            load[a] += f;
            y[a] = price(a);
        }
    }

    /** Projected Newton step of commodity k over its first {@code n} paths toward the cheapest. */
    private void equalise(Pool k, int n) {
        if (n < 2) {
            return;
        }
        int q = 0;
        double cq = Double.POSITIVE_INFINITY;
        for (int p = 0; p < n; p++) {
            double c = cost(k.paths[p]);
            if (c < cq) {
                cq = c;
                q = p;
            }
        }
        for (int p = 0; p < n; p++) {
            if (p == q || k.x[p] <= 0) {
                continue;
            }
            double cp = cost(k.paths[p]);
            cq = cost(k.paths[q]);
            double diff = cp - cq;
            if (diff <= TOL * cq) {
                continue;
            }
            double second = curvature(k.paths[p], k.paths[q]) + curvature(k.paths[q], k.paths[p]);
            double step = second > 0 ? Math.min(k.x[p], diff / second) : k.x[p];
            k.x[p] -= step;
            k.x[q] += step;
            if (k.x[p] < TOL * k.demand) {
                k.x[q] += k.x[p];
                step += k.x[p];
                k.x[p] = 0;
            }
            move(k.paths[p], k.paths[q], step);
        }
    }

    /** Σ over arcs of p not on q of the price's derivative in the arc's load (β·y_a / c_a). */
    private double curvature(int[] p, int[] q) {
        double s = 0;
        for (int a : p) {
            if (!contains(q, a)) {
                s += beta * y[a] / ix.capacityGbps[a];
            }
        }
        return s;
    }

    static boolean contains(int[] path, int arc) {
        for (int a : path) {
            if (a == arc) {
                return true;
            }
        }
        return false;
    }

    /** Paths pool k may keep carrying flow at the end. */
    private static int keep(Pool k, int limit) {
        return k.limit > 0 ? k.limit : limit;
    }

    /**
     * Pools keep only paths carrying flow; those with more than {@code limit} keep their heaviest,
     * which take over the others' flow in proportion; then every pool is swept again.
     */
    private void enforceLimit(Pool[] pools, int limit) {
        if (cut(pools, limit)) {
            sweep(pools, FINAL_SWEEPS);
        }
    }

    private void sweep(Pool[] pools, int sweeps) {
        for (int s = 0; s < sweeps; s++) {
            for (Pool k : pools) {
                equalise(k, k.n);
            }
        }
    }

    /** Cuts every pool to its limit (heaviest paths kept, the rest's flow to them); true if any was cut. */
    private boolean cut(Pool[] pools, int limit) {
        boolean cut = false;
        for (Pool k : pools) {
            // Empty paths leave the pool first: the final sweeps must not put flow back on them.
            int positive = 0;
            for (int p = 0; p < k.n; p++) {
                if (k.x[p] > 0) {
                    k.paths[positive] = k.paths[p];
                    k.x[positive++] = k.x[p];
                }
            }
            k.n = positive;
            int keep = keep(k, limit);
            if (positive <= keep) {
                continue;
            }
            // Heaviest first (selection: n is small).
            for (int i = 0; i < k.n; i++) {
                int h = i;
                for (int j = i + 1; j < k.n; j++) {
                    if (k.x[j] > k.x[h]) {
                        h = j;
                    }
                }
                int[] tp = k.paths[i];
                k.paths[i] = k.paths[h];
                k.paths[h] = tp;
                double tx = k.x[i];
                k.x[i] = k.x[h];
                k.x[h] = tx;
            }
            // The dropped paths' flow spreads over the kept ones in proportion (as a renormalised cut).
            double kept = 0;
            double dropped = 0;
            for (int p = 0; p < k.n; p++) {
                if (p < keep) {
                    kept += k.x[p];
                } else {
                    dropped += k.x[p];
                }
            }
            for (int p = keep; p < k.n; p++) {
                for (int a : k.paths[p]) {
                    load[a] -= k.x[p];
                }
                k.x[p] = 0;
            }
            for (int p = 0; p < keep; p++) {
                double add = kept > 0 ? dropped * k.x[p] / kept : dropped / keep;
                k.x[p] += add;
                for (int a : k.paths[p]) {
                    load[a] += add;
                }
            }
            k.n = keep;
            cut = true;
        }
        if (cut) {
            for (int a = 0; a < y.length; a++) {
                y[a] = switchArc[a] ? price(a) : 0;
            }
        }
        return cut;
    }
}
