package io.weft.placement;

import java.util.Arrays;

/**
 * Negotiated rerouting of rounded multipath units onto fresh candidate paths: lowers the max link
 * utilisation of a rounding by whole unit levels where {@link UnitRepair}, which only moves units
 * between a flow's kept paths, is stuck.
 *
 * <p><b>What is computed.</b> With M the max utilisation and τ the level one unit below it, an arc
 * is <i>over</i> when its utilisation exceeds τ. Each round prices every switch arc by the marginal
 * cost of one more unit under f_a(v) = (W + h_a)·max(0, v − τ) + D·ŷ_a·v + S·v² (v in units),
 * asks the {@link CandidatePricer} for each commodity's cheapest candidate under those prices, and
 * moves single units off paths that cross an over arc, onto that candidate or another of the
 * flow's paths, whenever the move lowers Σ f_a. W makes any drop in overflow worth more than the
 * other terms. ŷ_a are the fractional solver's final arc prices (normalised to mean 1): the linear
 * term keeps units on paths the fractional optimum finds short, so rerouting does not spend the
 * scarce arcs' capacity on detours; the small squared term breaks ties toward even loads. Arcs
 * that stay over gain history h_a each round (McMurchie and Ebeling 1995, PathFinder's
 * "negotiated congestion"), so units on arcs many flows want leave them for arcs fewer want. No
 * move raises any arc above M; the state with the fewest over units is kept. When no arc is over,
 * M has dropped one level and the next is tried, down to the floor the caller names (in the planner
 * the lowest level whole units make at or above the fractional answer's max: a level the fractional
 * answer does not reach was never reached and only cost time), until the time limit or
 * {@link #PATIENCE} rounds without progress.
 *
 * <p><b>Why.</b> On a Dragonfly(4,8,4) permutation in sixteenths the splittable optimum is 1.246
 * and 5 % above it needs 20/16 = 1.25, where the 1,056 global arcs have room for only a few dozen
 * units beyond what the optimum puts on them. From gradient projection's 1.2496 the rounding and
 * {@link UnitRepair} leave 80 units over 20/16 (at 21/16); rerouting with the squared term alone
 * got to 16–22 (the detours it chose used more global capacity than there is: 1,023 global arcs
 * at 20/16, 22 at 21, 11 at 19), with the prices' term to none: 20/16. Tried and not kept: a MILP
 * over every flow's paths and one fresh candidate (SCIP 30 s, CP-SAT 240 s on two threads: no
 * solution better than the start, though the LP relaxation has none over) and SCIP on
 * neighbourhoods of 300–400 flows.
 *
 * <p>Each flow keeps at most the path limit of paths carrying units, and its units sum to g.
 * Per round: one pricing round (trees per switch) and O(paths × hops) per unit on an over arc.
 * Not thread-safe; changes the problem's paths, units and loads in place.
 */
final class UnitReroute {
    private static final double REL = 1e-9;
    /** W: one unit over τ, against the other terms' few hundred per unit at most. */
    private static final double OVER = 1_000;
    /** D: the prices' term per unit (at a price of mean 1). */
    private static final double DUAL = 300;
    /** S: the squared term, v ≈ 20 on the Dragonfly rows (~4 per unit). */
    private static final double SQUARE = 0.1;
    /** History an arc gains per round it stays over, as a share of {@link #OVER}. */
    private static final double HISTORY = 0.03;
    /**
     * Rounds without a new best (fewest over units) before a level is given up, each round counting
     * one more per {@link #STALE_OVER} units still over: Dragonfly(4,8,4) permutations reached 20/16
     * after ~1,250 rounds of ~1.5 ms, the best improving every few dozen rounds.
     */
    private static final int PATIENCE = 1_000;
    private static final int STALE_OVER = 16;

    private final UnitRepair.Problem pr;
    private final DenseFabric ix;
    private final CandidatePricer pricer;
    private final int limit;
    private final double[] hist;
    private final double[] dual;
    private final double[] y;
    /** One unit level in utilisation (the smallest unit over the largest capacity). */
    private final double step;
    private double tau;
    private double max;

    private UnitReroute(UnitRepair.Problem pr, DenseFabric ix, CandidatePricer pricer, int limit) {
        this.pr = pr;
        this.ix = ix;
        this.pricer = pricer;
        this.limit = limit;
        this.hist = new double[pr.load().length];
        this.dual = new double[pr.load().length];
        this.y = new double[pr.load().length];
        double unit = Double.POSITIVE_INFINITY;
        for (double[] us : pr.unitGbps()) {
            for (double u : us) {
                unit = Math.min(unit, u);
            }
        }
        double cap = 0;
        for (int a = 0; a < pr.capacity().length; a++) {
            if (pr.counted()[a]) {
                cap = Math.max(cap, pr.capacity()[a]);
            }
        }
        step = unit / cap;
    }

    /**
     * Lowers {@code pr}'s max load level by level, not below {@code floor}, until
     * {@code stopNanos}; true when it dropped. {@code prices}: the fractional solver's arc prices.
     */
    static boolean run(UnitRepair.Problem pr, double[] prices, DenseFabric ix, CandidatePricer pricer, int pathLimit,
                       double floor, long stopNanos) {
        if (pr.paths().length == 0) {
            return false;
        }
        UnitReroute r = new UnitReroute(pr, ix, pricer, pathLimit);
        double sum = 0;
        int n = 0;
        for (int a = 0; a < prices.length; a++) {
            if (pr.counted()[a] && prices[a] > 0) {
                sum += prices[a] * pr.capacity()[a];
                n++;
            }
        }
        for (int a = 0; a < prices.length; a++) {
            // Per unit of utilisation, as the potential's gradient is per Gb/s.
            r.dual[a] = n > 0 && pr.counted()[a] ? prices[a] * pr.capacity()[a] / (sum / n) : 0;
        }
        double start = pr.maxLoad();
        while (System.nanoTime() < stopNanos) {
            r.max = pr.maxLoad();
            if (r.max <= floor * (1 + REL) || !r.level(stopNanos, floor)) {
                break;
            }
        }
        return pr.maxLoad() < start * (1 - REL);
    }

    /** One level down: true when no arc is over τ any more. */
    private boolean level(long stopNanos, double floor) {
        tau = Math.max(max - step * (1 - 1e-6), floor * (1 + REL));
        Arrays.fill(hist, 0);
        Snapshot best = null;
        int bestOver = overUnits();
        int stale = 0;
        while (bestOver > 0 && stale < PATIENCE && System.nanoTime() < stopNanos) {
            round();
            int over = overUnits();
            if (over < bestOver) {
                bestOver = over;
                best = over > 0 ? snapshot() : null;
                stale = 0;
            } else {
                stale += 1 + over / STALE_OVER; // a level far out of reach (many units over) is left sooner
            }
            for (int a = 0; a < hist.length; a++) {
                if (pr.counted()[a] && util(a) > tau) {
                    hist[a] += HISTORY * OVER;
                }
            }
        }
        if (bestOver > 0 && overUnits() > bestOver && best != null) {
            best.restore();
        }
        return overUnits() == 0;
    }

    private double util(int a) {
        return pr.load()[a] / pr.capacity()[a];
    }

    /** Over units in all: Σ over arcs of ⌈(u − τ) / step⌉ where u > τ. */
    private int overUnits() {
        int n = 0;
        for (int a = 0; a < pr.load().length; a++) {
            if (pr.counted()[a]) {
                double o = util(a) - tau;
                if (o > 0) {
                    n += (int) Math.ceil(o / step - 1e-6);
                }
            }
        }
        return n;
    }

    private double f(int a, double u) {
        double v = u / step;
        double o = Math.max(0, (u - tau) / step);
        return (OVER + hist[a]) * o + DUAL * dual[a] * v + SQUARE * v * v;
    }

    private void round() {
        double[] load = pr.load();
        double[] cap = pr.capacity();
        double unit = step * maxCapacity();
        for (int a = 0; a < y.length; a++) {
            y[a] = pr.counted()[a] ? f(a, (load[a] + unit) / cap[a]) - f(a, load[a] / cap[a]) : 0;
        }
        pricer.newRound(y);
        for (int c = 0; c < pr.paths().length; c++) {
            int[][] ks = pr.paths()[c];
            int[] any = ks[0];
            int s = ix.arcFrom[any[0]];
            int d = ix.arcTo[any[any.length - 1]];
            int[] fresh = null;
            boolean priced = false;
            for (int j = 0; j < pr.units()[c].length; j++) {
                for (int p = 0; p < pr.paths()[c].length; p++) {
                    while (pr.units()[c][j][p] > 0 && crossesOver(pr.paths()[c][p])) {
                        if (!priced) {
                            CandidatePricer.Priced best = pricer.cheapest(s, d);
                            fresh = best == null ? null : best.mid();
                            priced = true;
                        }
                        if (!moveBest(c, j, p, fresh)) {
                            break;
                        }
                    }
                }
            }
            compact(c);
        }
    }

    private double maxCapacity() {
        double m = 0;
        for (int a = 0; a < pr.capacity().length; a++) {
            if (pr.counted()[a]) {
                m = Math.max(m, pr.capacity()[a]);
            }
        }
        return m;
    }

    private boolean crossesOver(int[] path) {
        for (int a : path) {
            if (pr.counted()[a] && util(a) > tau) {
                return true;
            }
        }
        return false;
    }

    /** Moves one unit of flow j off path p to the best of its group's paths or {@code fresh}. */
    private boolean moveBest(int c, int j, int p, int[] fresh) {
        int[][] ks = pr.paths()[c];
        int[] u = pr.units()[c][j];
        double unit = pr.unitGbps()[c][j];
        int used = 0;
        for (int n : u) {
            if (n > 0) {
                used++;
            }
        }
        boolean mayOpen = used < limit || u[p] == 1;
        double bestDelta = -1e-9;
        int bestQ = -1;
        boolean freshKnown = fresh == null;
        for (int q = 0; q < ks.length; q++) {
            if (!freshKnown && Arrays.equals(ks[q], fresh)) {
                freshKnown = true;
            }
            if (q == p || u[q] == 0 && !mayOpen) {
                continue;
            }
            double delta = delta(ks[p], ks[q], unit);
            if (delta < bestDelta) {
                bestDelta = delta;
                bestQ = q;
            }
        }
        if (!freshKnown && mayOpen) {
            double delta = delta(ks[p], fresh, unit);
            if (delta < bestDelta) {
                bestQ = add(c, fresh);
            }
        }
        if (bestQ < 0) {
            return false;
        }
        int[] from = pr.paths()[c][p];
        int[] to = pr.paths()[c][bestQ];
        pr.units()[c][j][p]--;
        pr.units()[c][j][bestQ]++;
        for (int a : from) {
            pr.load()[a] -= unit;
        }
        for (int a : to) {
            pr.load()[a] += unit;
        }
        return true;
    }

    /** Change of Σ f when a unit moves from one path to another; +∞ if an arc would pass the max. */
    private double delta(int[] from, int[] to, double unit) {
        double[] load = pr.load();
        double[] cap = pr.capacity();
        double d = 0;
        for (int a : to) {
            if (pr.counted()[a] && !PathGradientProjection.contains(from, a)) {
                double after = (load[a] + unit) / cap[a];
                if (after > max * (1 + REL)) {
                    return Double.POSITIVE_INFINITY;
                }
                d += f(a, after) - f(a, load[a] / cap[a]);
            }
        }
        for (int a : from) {
            if (pr.counted()[a] && !PathGradientProjection.contains(to, a)) {
                d += f(a, (load[a] - unit) / cap[a]) - f(a, load[a] / cap[a]);
            }
        }
        return d;
    }

    /** Appends a path to group c (no units yet); its index. */
    private int add(int c, int[] path) {
        int[][] ks = Arrays.copyOf(pr.paths()[c], pr.paths()[c].length + 1);
        ks[ks.length - 1] = path;
        pr.paths()[c] = ks;
        for (int j = 0; j < pr.units()[c].length; j++) {
            pr.units()[c][j] = Arrays.copyOf(pr.units()[c][j], ks.length);
        }
        return ks.length - 1;
    }

    /** Drops group c's paths that no flow uses any more. */
    private void compact(int c) {
        int[][] ks = pr.paths()[c];
        int[][] u = pr.units()[c];
        int n = 0;
        for (int p = 0; p < ks.length; p++) {
            boolean used = false;
            for (int[] uj : u) {
                used |= uj[p] > 0;
            }
            if (used) {
                ks[n] = ks[p];
                for (int[] uj : u) {
                    uj[n] = uj[p];
                }
                n++;
            }
        }
        if (n < ks.length) {
            pr.paths()[c] = Arrays.copyOf(ks, n);
            for (int j = 0; j < u.length; j++) {
                u[j] = Arrays.copyOf(u[j], n);
            }
        }
    }

    private Snapshot snapshot() {
        int[][][] paths = new int[pr.paths().length][][];
        int[][][] units = new int[paths.length][][];
        for (int c = 0; c < paths.length; c++) {
            paths[c] = pr.paths()[c].clone();
            units[c] = new int[pr.units()[c].length][];
            for (int j = 0; j < units[c].length; j++) {
                units[c][j] = pr.units()[c][j].clone();
            }
        }
        return new Snapshot(paths, units, pr.load().clone());
    }

    private final class Snapshot {
        final int[][][] paths;
        final int[][][] units;
        final double[] load;

        Snapshot(int[][][] paths, int[][][] units, double[] load) {
            this.paths = paths;
            this.units = units;
            this.load = load;
        }

        void restore() {
            for (int c = 0; c < paths.length; c++) {
                pr.paths()[c] = paths[c];
                pr.units()[c] = units[c];
            }
            System.arraycopy(load, 0, pr.load(), 0, load.length);
        }
    }
}
