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
 * when they lower it. Arcs marked in {@code avoid} cost an extra 1e9 utilisation: used only when no
 * other path exists.
 */
final class PathChooser {
    private static final double EPS = 1e-9;
    private static final double AVOID_PENALTY = 1e9;
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
    }

    private final DenseFabric ix;
    private final CandidatePaths cands;
    private final long[] load;
    private final int[] elephants;
    private final boolean[] avoid;
    private final int tolerance;
    private double[] bu = new double[64];
    private double[] bd = new double[64];
    private int[] pu = new int[64];
    private int[] pd = new int[64];
    private long demand;
    private boolean elephant;
    private final double[] invCapKbps;

    PathChooser(DenseFabric ix, CandidatePaths cands, long[] loadKbps, int[] elephants,
            boolean[] avoid, int tolerance) {
        this.ix = ix;
        this.cands = cands;
        this.load = loadKbps;
        this.elephants = elephants;
        this.avoid = avoid;
        this.tolerance = tolerance;
        invCapKbps = new double[ix.arcCount];
        for (int a = 0; a < invCapKbps.length; a++) {
            invCapKbps[a] = 1.0 / (ix.capacityGbps[a] * 1e6);
        }
    }

    private double after(int a) {
        double u = (load[a] + demand) * invCapKbps[a];
        return avoid[a] ? u + AVOID_PENALTY : u;
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
        this.demand = demandKbps;
        this.elephant = isElephant;
        int up = ix.nicUpArc[src];
        int down = ix.nicDownArc[dst];
        if (up < 0 || !ix.usable[up]) {
            return new Choice(null, 0, 0, "the link of " + ix.nodeIds[src] + " is down");
        }
        if (down < 0 || !ix.usable[down]) {
            return new Choice(null, 0, 0, "the link of " + ix.nodeIds[dst] + " is down");
        }
        int s = ix.attach[src];
        int d = ix.attach[dst];
        PathDag dag = cands.between(s, d);
        if (dag == null) {
            return new Choice(null, 0, 0, "no surviving path from " + ix.nodeIds[s] + " to " + ix.nodeIds[d]);
        }
        double base = Math.max(after(up), after(down));
        double bMin = Math.max(base, bottleneck(dag));
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
        double[] b = new double[inter.length];
        double bestB = Double.MAX_VALUE;
        if (legBottlenecks(s, d)) {
            for (int k = 0; k < inter.length; k++) {
                int i = inter[k];
                b[k] = Double.MAX_VALUE;
                if (i == s || i == d || cands.distance(s, i) < 0 || cands.distance(i, d) < 0) {
                    continue;
                }
                b[k] = Math.max(base, Math.max(leg1[i], leg2[i]));
                bestB = Math.min(bestB, b[k]);
            }
        }
        for (int k = 0; k < inter.length && leg1 == null; k++) {
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
        Integer[] order = new Integer[inter.length];
        for (int k = 0; k < inter.length; k++) {
            if (b[k] > bestB + EPS) {
                continue;
            }
            int i = inter[k];
            cost[k] = additive(cands.between(s, i), bestB, null) + additive(cands.between(i, d), bestB, null);
            order[n++] = k;
        }
        Arrays.sort(order, 0, n, (x, y) -> {
            int c = Double.compare(cost[x], cost[y]);
            return c != 0 ? c : Integer.compare(x, y);
        });
        for (int j = 0; j < n; j++) {
            int i = inter[order[j]];
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
     * i; the same backwards from d gives leg two. The values are the very maxima and minima the
     * per-pair DAG pass computes (same arcs, same {@link #after}), so the choice is unchanged, at
     * O(arcs) per Valiant call instead of O(routers x DAG size). False without a distance matrix.
     */
    private boolean legBottlenecks(int s, int d) {
        leg1 = null;
        leg2 = null;
        int[] fromS = cands.byDistance(s);
        int[] fromD = cands.byDistance(d);
        if (fromS == null || fromD == null) {
            return false;
        }
        if (leg1Scratch == null) {
            leg1Scratch = new double[ix.nodeCount];
            leg2Scratch = new double[ix.nodeCount];
        }
        double[] l1 = leg1Scratch;
        double[] l2 = leg2Scratch;
        int[] tord = cands.transitOrdinals();
        int[] rowS = cands.distanceRow(s);
        int[] rowD = cands.distanceRow(d);
        for (int v : fromS) {
            l1[v] = Double.MAX_VALUE;
        }
        l1[s] = 0;
        for (int v : fromS) {
            int next = rowS[tord[v]] + 1;
            double bv = l1[v];
            for (int a : ix.out[v]) {
                int w = ix.arcTo[a];
                int ow = tord[w];
                if (ow < 0 || rowS[ow] != next) {
                    continue;
                }
                double x = Math.max(bv, after(a));
                if (x < l1[w]) {
                    l1[w] = x;
                }
            }
        }
        for (int v : fromD) {
            if (v == d) {
                l2[v] = 0;
                continue;
            }
            int prev = rowD[tord[v]] - 1;
            double best = Double.MAX_VALUE;
            for (int a : ix.out[v]) {
                int w = ix.arcTo[a];
                int ow = tord[w];
                if (ow < 0 || rowD[ow] != prev) {
                    continue;
                }
                best = Math.min(best, Math.max(after(a), l2[w]));
            }
            l2[v] = best;
        }
        leg1 = l1;
        leg2 = l2;
        return true;
    }

    /**
     * For tests: leg one (s to i) and leg two (i to d) bottlenecks for a flow of {@code demandKbps},
     * by the one-pass DP and by the per-pair DAGs: {dp1, dp2, dag1, dag2}; null without a matrix.
     */
    double[] legsBothWays(int s, int i, int d, long demandKbps) {
        this.demand = demandKbps;
        this.elephant = false;
        if (!legBottlenecks(s, d)) {
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
