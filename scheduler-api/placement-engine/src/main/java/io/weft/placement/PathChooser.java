package io.weft.placement;

import java.util.Arrays;

/**
 * Picks the best candidate path for one flow under the current reservations, by the engine's
 * lexicographic cost: (bottleneck utilisation after adding the flow, arcs newly carrying more than
 * t elephants, sum of utilisations). Lexicographic (max, sum) is not a DP semiring, so two passes
 * over the {@link PathDag}: the min-bottleneck value B first, then the min additive cost among arcs
 * at most B. Ties keep the first arc in fabric order: deterministic.
 *
 * <p>Direct networks: Valiant paths (source to an intermediate router, then to the destination) are
 * considered only when the minimal path would set or raise the global maximum load, and taken only
 * when they lower it.
 */
final class PathChooser {
    private static final double EPS = 1e-9;
    private static final double COLLISION_WEIGHT = 1e6;

    /** A chosen (or evaluated) path and its cost; {@code path == null} with a reason when none exists. */
    static final class Choice {
        final int[] path;
        final double bottleneck;
        final int collisions;
        final String reason;

        Choice(int[] path, double bottleneck, int collisions, String reason) {
            this.path = path;
            this.bottleneck = bottleneck;
            this.collisions = collisions;
            this.reason = reason;
        }

        /**
         * True when this choice is strictly better for the flow than staying on {@code now}: a lower
         * bottleneck or, at the same bottleneck, fewer collisions. The one rule every re-placement uses.
         */
        boolean beats(Choice now) {
            return path != null && (bottleneck < now.bottleneck - EPS
                    || (bottleneck <= now.bottleneck + EPS && collisions < now.collisions));
        }
    }

    private final DenseFabric ix;
    private final CandidatePaths cands;
    private final long[] load;
    private final int[] elephants;
    private final int tolerance;
    private double[] bu = new double[64];
    private double[] bd = new double[64];
    private int[] pu = new int[64];
    private int[] pd = new int[64];
    private long demand;
    private boolean elephant;
    private final double[] invCapKbps;

    PathChooser(DenseFabric ix, CandidatePaths cands, long[] loadKbps, int[] elephants, int tolerance) {
        this.ix = ix;
        this.cands = cands;
        this.load = loadKbps;
        this.elephants = elephants;
        this.tolerance = tolerance;
        invCapKbps = ix.invCapKbps;
    }

    private double after(int a) {
        return (load[a] + demand) * invCapKbps[a];
    }

    private double step(int a) {
        return (elephant && elephants[a] == tolerance ? COLLISION_WEIGHT : 0) + after(a);
    }

    /**
     * @param valiantAbove Valiant paths are considered only when the minimal bottleneck exceeds this:
     *     the current global max for a new flow (a detour must lower the max load), a little under it
     *     for a flow being moved off a max-loaded arc
     */
    Choice choose(int src, int dst, long demandKbps, boolean isElephant, double valiantAbove) {
        return choose(src, dst, demandKbps, isElephant, valiantAbove, false);
    }

    /** The same, with {@code homePortsOnly}: only the NICs' home ports (first working links), see {@link Job}. */
    Choice choose(int src, int dst, long demandKbps, boolean isElephant, double valiantAbove, boolean homePortsOnly) {
        this.demand = demandKbps;
        this.elephant = isElephant;
        int[] ups = homePortsOnly ? home(src) : ix.nicPorts[src];
        int[] downs = homePortsOnly ? home(dst) : ix.nicPorts[dst];
        if (ups.length == 0) {
            return new Choice(null, 0, 0, "the link of " + ix.nodeIds[src] + " is down");
        }
        if (downs.length == 0) {
            return new Choice(null, 0, 0, "the link of " + ix.nodeIds[dst] + " is down");
        }
        int up = ups[0];
        int down = downs[0] ^ 1;
        PathDag dag;
        double bMin;
        if (ups.length == 1 && downs.length == 1) {
            dag = cands.between(ix.arcTo[up], ix.arcTo[downs[0]]);
            if (dag == null) {
                return new Choice(null, 0, 0, "no surviving path from " + ix.nodeIds[ix.arcTo[up]] + " to "
                        + ix.nodeIds[ix.arcTo[downs[0]]]);
            }
            bMin = Math.max(Math.max(after(up), after(down)), bottleneck(dag));
        } else {
            int[] pair = bestPorts(ups, downs);
            if (pair == null) {
                return new Choice(null, 0, 0, "no surviving path from any port of " + ix.nodeIds[src]
                        + " to any port of " + ix.nodeIds[dst]);
            }
            up = pair[0];
            down = pair[1];
            dag = cands.between(ix.arcTo[up], ix.arcFrom[down]);
            bMin = Math.max(Math.max(after(up), after(down)), bottleneck(dag));
        }
        int s = ix.arcTo[up];
        int d = ix.arcFrom[down];
        double base = Math.max(after(up), after(down));
        int[] best = null;
        if (ix.direct && bMin > valiantAbove) {
            best = valiant(s, d, base, bMin, up, down);
        }
        if (best == null) {
            IntList mid = new IntList(dag.hops);
            additive(dag, bMin, mid);
            best = join(up, mid, null, down);
        }
        return evaluate(best, demandKbps, isElephant);
    }

    /**
     * A multi-port NIC pair: the (source port, destination port) whose best path has the least
     * bottleneck, then the least additive cost counting both NIC arcs (so ties go to the less loaded
     * ports and planes), then fabric order. Pairs the fabric does not connect (a port in another
     * plane) have no DAG and are skipped. Returns {up arc, down arc}, or null when no pair connects.
     */
    private int[] bestPorts(int[] ups, int[] downs) {
        double bestB = Double.MAX_VALUE;
        double[] b = new double[ups.length * downs.length];
        for (int i = 0; i < ups.length; i++) {
            for (int j = 0; j < downs.length; j++) {
                int k = i * downs.length + j;
                PathDag g = cands.between(ix.arcTo[ups[i]], ix.arcTo[downs[j]]);
                b[k] = g == null ? Double.MAX_VALUE
                        : Math.max(Math.max(after(ups[i]), after(downs[j] ^ 1)), bottleneck(g));
                bestB = Math.min(bestB, b[k]);
            }
        }
        if (bestB == Double.MAX_VALUE) {
            return null;
        }
        int[] best = null;
        double bestCost = Double.MAX_VALUE;
        for (int i = 0; i < ups.length; i++) {
            for (int j = 0; j < downs.length; j++) {
                if (b[i * downs.length + j] > bestB + EPS) {
                    continue;
                }
                int down = downs[j] ^ 1;
                double c = step(ups[i]) + step(down)
                        + additive(cands.between(ix.arcTo[ups[i]], ix.arcTo[downs[j]]), bestB, null);
                if (c < bestCost) {
                    bestCost = c;
                    best = new int[] {ups[i], down};
                }
            }
        }
        return best;
    }

    private int[] home(int nic) {
        int[] ports = ix.nicPorts[nic];
        return ports.length <= 1 ? ports : new int[] {ports[0]};
    }

    /** The cost of putting the flow on this path (the flow itself not reserved). */
    Choice evaluate(int[] path, long demandKbps, boolean isElephant) {
        this.demand = demandKbps;
        this.elephant = isElephant;
        double b = 0;
        int c = 0;
        for (int a : path) {
            b = Math.max(b, after(a));
            if (isElephant && elephants[a] == tolerance) {
                c++;
            }
        }
        return new Choice(path, b, c, null);
    }

    private int[] valiant(int s, int d, double base, double bMin, int up, int down) {
        int[] inter = cands.intermediates();
        if (base >= bMin - EPS) {
            return null; // every detour crosses the NIC links too: none can beat the minimal paths
        }
        if (levels && cands.byDistance(s) != null && cands.byDistance(d) != null) {
            int[] byLevels = valiantByLevels(s, d, base, bMin, up, down);
            if (byLevels != null) {
                return byLevels == NONE ? null : byLevels;
            }
        }
        if (legBottlenecks(s, d, bMin)) {
            return valiantReached(s, d, base, bMin, up, down);
        }
        double[] b = new double[inter.length];
        double bestB = Double.MAX_VALUE;
        for (int k = 0; k < inter.length; k++) {
            int i = inter[k];
            b[k] = Double.MAX_VALUE;
            if (i == s || i == d) {
                continue;
            }
            PathDag d1 = cands.between(s, i);
            PathDag d2 = d1 == null ? null : cands.between(i, d);
            if (d2 == null) {
                continue;
            }
            // The first leg alone already loses to the best so far: it can neither win nor tie (the
            // tie phase below only looks at b <= bestB + EPS, and bestB only falls), so skip leg two.
            double b1 = Math.max(base, bottleneck(d1));
            if (b1 > bestB + EPS) {
                b[k] = b1;
                continue;
            }
            b[k] = Math.max(b1, bottleneck(d2));
            bestB = Math.min(bestB, b[k]);
        }
        if (!(bestB < bMin - EPS)) {
            return null;
        }
        // Among the intermediates reaching the best bottleneck: least additive cost, loop-free. Costs
        // first (no path extraction), then paths in cost order until one has no loop.
        int n = 0;
        double[] cost = new double[inter.length];
        int[] tied = new int[inter.length];
        for (int k = 0; k < inter.length; k++) {
            if (b[k] > bestB + EPS) {
                continue;
            }
            int i = inter[k];
            cost[k] = additive(cands.between(s, i), bestB, null) + additive(cands.between(i, d), bestB, null);
            tied[n++] = k;
        }
        return cheapestSimple(s, d, bestB, up, down, tied, n, cost);
    }

    /**
     * {@link #valiant} over the intermediates the leg DPs reached under {@code bMin} (the others
     * cannot beat the minimal paths): the same bottlenecks, ties and costs, without a scan of
     * every router.
     */
    private int[] valiantReached(int s, int d, double base, double bMin, int up, int down) {
        int[] inter = cands.intermediates();
        int[] kOf = intermediateIndex();
        double bestB = Double.MAX_VALUE;
        for (int j = 0; j < n1; j++) {
            int i = q1[j];
            if (i == s || i == d || kOf[i] < 0 || leg2[i] == Double.MAX_VALUE) {
                continue;
            }
            bestB = Math.min(bestB, Math.max(base, Math.max(leg1[i], leg2[i])));
        }
        if (!(bestB < bMin - EPS)) {
            return null;
        }
        // Scratch reused across calls (a loaded Dragonfly ties dozens of intermediates per call):
        // cheapestSimple reads only the entries written here.
        if (tiedScratch == null) {
            tiedScratch = new int[inter.length];
            costScratch = new double[inter.length];
        }
        int[] tied = tiedScratch;
        double[] cost = costScratch;
        int n = 0;
        for (int j = 0; j < n1; j++) {
            int i = q1[j];
            if (i == s || i == d || kOf[i] < 0 || leg2[i] == Double.MAX_VALUE
                    || Math.max(base, Math.max(leg1[i], leg2[i])) > bestB + EPS) {
                continue;
            }
            tied[n++] = kOf[i];
        }
        // Costs only order the tied intermediates: one alone needs none (two more leg DPs saved).
        if (n > 1) {
            legCosts(s, d, bestB);
            for (int j = 0; j < n; j++) {
                int i = inter[tied[j]];
                cost[tied[j]] = cost1[i] + cost2[i];
            }
        }
        return cheapestSimple(s, d, bestB, up, down, tied, n, cost);
    }

    /** False only in tests: every Valiant choice the long way, to compare with {@link #valiantByLevels}. */
    private boolean levels = true;

    /** For tests: {@code false} makes every Valiant choice go the long way (the bottleneck and cost DPs). */
    void valiantByLevels(boolean on) {
        levels = on;
    }

    /** {@link #valiantByLevels}: the detours were decided and none is loop-free. */
    private static final int[] NONE = new int[0];
    /** At most this many levels before {@link #valiantByLevels} leaves the choice to the bottleneck DPs. */
    private static final int MAX_LEVELS = 3;
    /** Per node: leg one / leg two bottleneck and additive cost under the level ({@link #valiantByLevels}). */
    private double[] levelMax1;
    private double[] levelSum1;
    private double[] levelMax2;
    private double[] levelSum2;
    private int[] ql1;
    private int[] ql2;
    private int nl1;
    private int nl2;
    /** Set by {@link #sweep}: the least {@link #after} of an arc it left out (above its limit). */
    private double minSkipped;

    /**
     * {@link #valiantReached} by levels of load, for the common case of a loaded fabric whose detours
     * differ in few load values: one sweep per leg over the arcs at most {@code L + EPS}, from L = base
     * (the flow's own NIC links, below which no detour goes), gives at once the bottleneck of every
     * switch reached (exact: its best path has no other arc) and the additive cost {@link #legCosts}
     * computes for {@code bestB = L} (the same arcs in the same breadth-first order, so the same
     * doubles). When an intermediate then sits at L exactly, L is the best bottleneck (every switch
     * not reached needs an arc above L + EPS), the intermediates reached from both ends are exactly
     * those {@link #valiantReached} ties, and the choice is the same. When none is reached, the best
     * bottleneck is at least the least arc left out: at or above {@code bMin - EPS} no detour beats
     * the minimal paths, else that arc's load is the next level. Two sweeps a level instead of four
     * DPs; returns null when the levels do not decide (the caller goes the long way), {@link #NONE}
     * for no (loop-free) detour.
     */
    private int[] valiantByLevels(int s, int d, double base, double bMin, int up, int down) {
        if (levelMax1 == null) {
            levelMax1 = unset(ix.nodeCount);
            levelSum1 = unset(ix.nodeCount);
            levelMax2 = unset(ix.nodeCount);
            levelSum2 = unset(ix.nodeCount);
            ql1 = new int[ix.nodeCount];
            ql2 = new int[ix.nodeCount];
        }
        int[] inter = cands.intermediates();
        int[] kIndex = intermediateIndex();
        if (tiedScratch == null) {
            tiedScratch = new int[inter.length];
            costScratch = new double[inter.length];
        }
        double level = base;
        for (int round = 0; round < MAX_LEVELS; round++) {
            double limit = level + EPS;
            minSkipped = Double.MAX_VALUE;
            nl1 = sweep(s, limit, levelMax1, levelSum1, ql1, nl1, 0);
            nl2 = sweep(d, limit, levelMax2, levelSum2, ql2, nl2, 1);
            // Every intermediate reached from both ends ties within EPS of the level; one must sit at the
            // level itself, else the best bottleneck lies a little above it and its ties are not all reached.
            int n = 0;
            boolean atLevel = false;
            for (int j = 0; j < nl1; j++) {
                int i = ql1[j];
                if (i == s || i == d || kIndex[i] < 0 || levelMax2[i] == Double.MAX_VALUE) {
                    continue;
                }
                atLevel |= Math.max(base, Math.max(levelMax1[i], levelMax2[i])) == level;
                tiedScratch[n] = kIndex[i];
                costScratch[kIndex[i]] = levelSum1[i] + levelSum2[i];
                n++;
            }
            if (n > 0) {
                if (!atLevel) {
                    return null;
                }
                int[] path = cheapestSimple(s, d, level, up, down, tiedScratch, n, costScratch);
                return path == null ? NONE : path;
            }
            if (minSkipped >= bMin - EPS) {
                return NONE;
            }
            level = minSkipped;
        }
        return null;
    }

    /**
     * One breadth-first sweep from {@code root} (leg two: towards it, {@code flip} 1) over the minimal-walk
     * arcs with {@link #after} at most {@code limit}: min-max in {@code max}, min-sum of {@link #step} in
     * {@code sum}, as {@link #spread} computes each; lowers {@link #minSkipped} to the arcs it leaves out.
     * Resets the nodes of the previous sweep first.
     */
    private int sweep(int root, double limit, double[] max, double[] sum, int[] queue, int reached, int flip) {
        for (int j = 0; j < reached; j++) {
            max[queue[j]] = Double.MAX_VALUE;
            sum[queue[j]] = Double.MAX_VALUE;
        }
        int[][] fwd = cands.forwardArcs(root);
        int[] start = fwd[0];
        int[] arcs = fwd[1];
        final int[] to = ix.arcTo;
        queue[0] = root;
        max[root] = 0;
        sum[root] = 0;
        int n = 1;
        double skipped = minSkipped;
        for (int h = 0; h < n; h++) {
            int v = queue[h];
            double bv = max[v];
            double cv = sum[v];
            for (int j = start[v], end = start[v + 1]; j < end; j++) {
                int a = arcs[j];
                int arc = a ^ flip;
                double u = after(arc);
                if (u > limit) {
                    skipped = Math.min(skipped, u);
                    continue;
                }
                int w = to[a];
                if (max[w] == Double.MAX_VALUE) {
                    queue[n++] = w;
                }
                double x = Math.max(bv, u);
                if (x < max[w]) {
                    max[w] = x;
                }
                double c = cv + step(arc);
                if (c < sum[w]) {
                    sum[w] = c;
                }
            }
        }
        minSkipped = skipped;
        return n;
    }

    private int[] kOf;
    private int[] tiedScratch;
    private double[] costScratch;

    /** Per node: its index in {@link CandidatePaths#intermediates}, or -1. */
    private int[] intermediateIndex() {
        if (kOf == null) {
            int[] k = new int[ix.nodeCount];
            Arrays.fill(k, -1);
            int[] inter = cands.intermediates();
            for (int j = 0; j < inter.length; j++) {
                k[inter[j]] = j;
            }
            kOf = k;
        }
        return kOf;
    }

    /**
     * Among the tied intermediates ({@code tied[0..n)}, indices into the intermediates), the
     * cheapest whose joined path has no loop; ties by fabric order. Usually the first one has no
     * loop, so select, not sort.
     */
    private int[] cheapestSimple(int s, int d, double bestB, int up, int down, int[] tied, int n, double[] cost) {
        int[] inter = cands.intermediates();
        for (int left = n; left > 0; left--) {
            int at = 0;
            for (int j = 1; j < left; j++) {
                int x = tied[j];
                int y = tied[at];
                if (cost[x] < cost[y] || (cost[x] == cost[y] && x < y)) {
                    at = j;
                }
            }
            int i = inter[tied[at]];
            tied[at] = tied[left - 1];
            IntList p1 = new IntList(8);
            IntList p2 = new IntList(8);
            additive(cands.between(s, i), bestB, p1);
            additive(cands.between(i, d), bestB, p2);
            int[] path = join(up, p1, p2, down);
            if (simple(path)) {
                return path;
            }
        }
        return null;
    }

    /** Per node: min additive cost of leg one (from the source) / leg two (to the destination) under a limit. */
    private double[] cost1;
    private double[] cost2;

    /**
     * The additive cost {@link #additive} gives {@code between(s, i)} and {@code between(i, d)} under
     * {@code limit}, for every switch i at once, by the distance-order DPs of {@link #legBottlenecks}
     * with sums instead of maxima: O(arcs) per Valiant choice instead of two DAG passes per tied
     * intermediate (dozens on a loaded Dragonfly). Leg one sums in path order from s, as the DAG pass
     * does, so its value is the same double; leg two sums from d backwards, which may differ in the
     * last bits and only matters between intermediates of equal cost. Only after {@link #legBottlenecks}.
     */
    private void legCosts(int s, int d, double limit) {
        n3 = spread(s, limit + EPS, cost1, q3, n3, false, true);
        n4 = spread(d, limit + EPS, cost2, q4, n4, true, true);
    }

    /** Per node: min bottleneck over the minimal paths from the source (leg one) / to the destination (leg two). */
    private double[] leg1Scratch;
    private double[] leg2Scratch;
    /** Set by {@link #legBottlenecks} for the current Valiant call, null when it could not run. */
    private double[] leg1;
    private double[] leg2;

    /**
     * The bottleneck of {@code between(s, i)} and of {@code between(i, d)} for every switch i at
     * once: a minimal path from s is a walk whose distance from s grows by one at every hop (and
     * every such walk is minimal), so a min-max DP in distance order from s gives leg one for every
     * i; the same backwards from d (over the reverse arcs: a link's two arcs are {@code a} and
     * {@code a ^ 1}) gives leg two. Arcs at or above {@code limit} are left out: a leg value under
     * the limit is exact (its best path has no such arc), any other is {@code MAX_VALUE}, and only
     * the switches reached under the limit are expanded (on a loaded fabric, few). The values are the
     * very maxima and minima the per-pair DAG pass computes (same arcs, same {@link #after}), so the
     * choice is unchanged, at O(arcs reached) per Valiant call instead of O(routers x DAG size).
     * False without a distance matrix.
     */
    private boolean legBottlenecks(int s, int d, double limit) {
        leg1 = null;
        leg2 = null;
        if (cands.byDistance(s) == null || cands.byDistance(d) == null) {
            return false;
        }
        if (leg1Scratch == null) {
            leg1Scratch = unset(ix.nodeCount);
            leg2Scratch = unset(ix.nodeCount);
            cost1 = unset(ix.nodeCount);
            cost2 = unset(ix.nodeCount);
            q1 = new int[ix.nodeCount];
            q2 = new int[ix.nodeCount];
            q3 = new int[ix.nodeCount];
            q4 = new int[ix.nodeCount];
        }
        leg1 = leg1Scratch;
        leg2 = leg2Scratch;
        n1 = spread(s, limit, leg1, q1, n1, false, false);
        n2 = spread(d, limit, leg2, q2, n2, true, false);
        return true;
    }

    /** Switches reached by the last leg DPs (in distance order) and how many; the rest hold MAX_VALUE. */
    private int[] q1;
    private int[] q2;
    private int[] q3;
    private int[] q4;
    private int n1;
    private int n2;
    private int n3;
    private int n4;

    private static double[] unset(int n) {
        double[] v = new double[n];
        Arrays.fill(v, Double.MAX_VALUE);
        return v;
    }

    /**
     * One leg DP from {@code root} over minimal walks (breadth-first, so in distance order), or
     * towards it over the reverse arcs ({@code reverse}). Min-max of {@link #after} leaving out arcs
     * at or above {@code limit}, or ({@code additive}) min sum of {@link #step} leaving out arcs above
     * {@code limit}. The sums add the arc nearer the root first, like the DAG pass for leg one.
     * Resets the {@code reached} nodes of the previous run first; returns how many it reached.
     */
    private int spread(int root, double limit, double[] val, int[] queue, int reached, boolean reverse,
                       boolean additive) {
        for (int j = 0; j < reached; j++) {
            val[queue[j]] = Double.MAX_VALUE;
        }
        int[][] fwd = cands.forwardArcs(root);
        queue[0] = root;
        val[root] = 0;
        // Two loops, each without a test per arc for the direction (arc a, or its reverse a ^ 1) or the kind;
        // the same sums and maxima as after() and step(), in the same order (a sum of two doubles is
        // commutative, so leg two's step + value equals value + step).
        int flip = reverse ? 1 : 0;
        return additive ? spreadSum(fwd[0], fwd[1], flip, limit, val, queue)
                : spreadMax(fwd[0], fwd[1], flip, limit, val, queue);
    }

    /** {@link #spread}'s min-max: arcs at or above {@code limit} left out. */
    private int spreadMax(int[] start, int[] arcs, int flip, double limit, double[] val, int[] queue) {
        final int[] to = ix.arcTo;
        final long[] ld = load;
        final double[] inv = invCapKbps;
        final long dem = demand;
        int n = 1;
        for (int h = 0; h < n; h++) {
            int v = queue[h];
            double bv = val[v];
            for (int j = start[v], end = start[v + 1]; j < end; j++) {
                int a = arcs[j];
                int arc = a ^ flip;
                double u = (ld[arc] + dem) * inv[arc];
                if (u >= limit) {
                    continue;
                }
                int w = to[a];
                double x = Math.max(bv, u);
                double vw = val[w];
                if (vw == Double.MAX_VALUE) {
                    queue[n++] = w;
                }
                if (x < vw) {
                    val[w] = x;
                }
            }
        }
        return n;
    }

    /** {@link #spread}'s min-sum of {@link #step}: arcs above {@code limit} left out. */
    private int spreadSum(int[] start, int[] arcs, int flip, double limit, double[] val, int[] queue) {
        final int[] to = ix.arcTo;
        final long[] ld = load;
        final double[] inv = invCapKbps;
        final int[] el = elephants;
        final long dem = demand;
        final boolean eleph = elephant;
        final int tol = tolerance;
        int n = 1;
        for (int h = 0; h < n; h++) {
            int v = queue[h];
            double bv = val[v];
            for (int j = start[v], end = start[v + 1]; j < end; j++) {
                int a = arcs[j];
                int arc = a ^ flip;
                double u = (ld[arc] + dem) * inv[arc];
                if (u > limit) {
                    continue;
                }
                int w = to[a];
                double x = bv + ((eleph && el[arc] == tol ? COLLISION_WEIGHT : 0) + u);
                double vw = val[w];
                if (vw == Double.MAX_VALUE) {
                    queue[n++] = w;
                }
                if (x < vw) {
                    val[w] = x;
                }
            }
        }
        return n;
    }

    /**
     * For tests: leg one (s to i) and leg two (i to d) bottlenecks for a flow of {@code demandKbps},
     * by the one-pass DP and by the per-pair DAGs: {dp1, dp2, dag1, dag2}; null without a matrix.
     */
    double[] legsBothWays(int s, int i, int d, long demandKbps) {
        return legsBothWays(s, i, d, demandKbps, Double.POSITIVE_INFINITY);
    }

    /** The same with the DPs leaving out arcs at or above {@code limit}. */
    double[] legsBothWays(int s, int i, int d, long demandKbps, double limit) {
        this.demand = demandKbps;
        this.elephant = false;
        if (!legBottlenecks(s, d, limit)) {
            return null;
        }
        PathDag d1 = cands.between(s, i);
        PathDag d2 = cands.between(i, d);
        return new double[] {leg1[i], leg2[i], d1 == null ? Double.NaN : bottleneck(d1),
            d2 == null ? Double.NaN : bottleneck(d2)};
    }

    private boolean simple(int[] path) {
        // Paths are short (at most a handful of hops): a quadratic check allocates nothing.
        for (int i = 0; i < path.length; i++) {
            for (int j = i + 1; j < path.length; j++) {
                if (ix.arcTo[path[i]] == ix.arcTo[path[j]]) {
                    return false;
                }
            }
        }
        return true;
    }

    private static int[] join(int up, IntList mid, IntList mid2, int down) {
        int n = mid.size() + (mid2 == null ? 0 : mid2.size());
        int[] p = new int[n + 2];
        p[0] = up;
        for (int i = 0; i < mid.size(); i++) {
            p[1 + i] = mid.get(i);
        }
        if (mid2 != null) {
            for (int i = 0; i < mid2.size(); i++) {
                p[1 + mid.size() + i] = mid2.get(i);
            }
        }
        p[n + 1] = down;
        return p;
    }

    private void ensure(PathDag g) {
        int n = Math.max(g.uNode.length, g.dNode.length);
        if (bu.length < n) {
            int m = Math.max(n, bu.length * 2);
            bu = new double[m];
            bd = new double[m];
            pu = new int[m];
            pd = new int[m];
        }
    }

    /** Min over the DAG's paths of the max {@link #after} over its arcs. */
    private double bottleneck(PathDag g) {
        ensure(g);
        int nu = g.uNode.length;
        int nd = g.dNode.length;
        Arrays.fill(bu, 0, nu, Double.MAX_VALUE);
        Arrays.fill(bd, 0, nd, Double.MAX_VALUE);
        bu[0] = 0;
        for (int i = 0; i < g.upArc.length; i++) {
            double v = Math.max(bu[g.upFrom[i]], after(g.upArc[i]));
            if (v < bu[g.upTo[i]]) {
                bu[g.upTo[i]] = v;
            }
        }
        for (int i = 0; i < g.peakU.length; i++) {
            bd[g.peakD[i]] = Math.min(bd[g.peakD[i]], bu[g.peakU[i]]);
        }
        for (int i = 0; i < g.downArc.length; i++) {
            double v = Math.max(bd[g.downFrom[i]], after(g.downArc[i]));
            if (v < bd[g.downTo[i]]) {
                bd[g.downTo[i]] = v;
            }
        }
        return bd[g.dTarget];
    }

    /**
     * Min additive {@link #step} cost over paths whose arcs all stay at or under {@code limit};
     * appends the path's arcs to {@code out} (unless null) and returns its cost.
     */
    private double additive(PathDag g, double limit, IntList out) {
        ensure(g);
        int nu = g.uNode.length;
        int nd = g.dNode.length;
        Arrays.fill(bu, 0, nu, Double.MAX_VALUE);
        Arrays.fill(bd, 0, nd, Double.MAX_VALUE);
        bu[0] = 0;
        pu[0] = -1;
        for (int i = 0; i < g.upArc.length; i++) {
            int a = g.upArc[i];
            if (bu[g.upFrom[i]] == Double.MAX_VALUE || after(a) > limit + EPS) {
                continue;
            }
            double v = bu[g.upFrom[i]] + step(a);
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
            int a = g.downArc[i];
            if (bd[g.downFrom[i]] == Double.MAX_VALUE || after(a) > limit + EPS) {
                continue;
            }
            double v = bd[g.downFrom[i]] + step(a);
            if (v < bd[g.downTo[i]]) {
                bd[g.downTo[i]] = v;
                pd[g.downTo[i]] = i;
            }
        }
        if (bd[g.dTarget] == Double.MAX_VALUE) {
            throw new IllegalStateException("no path under the bottleneck found by the first pass");
        }
        if (out == null) {
            return bd[g.dTarget];
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
        for (int i = n - 1; i >= 0; i--) {
            out.add(rev[i]);
        }
        return bd[g.dTarget];
    }
}
