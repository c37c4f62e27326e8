package io.weft.placement;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The cheapest candidate path between two switches under arc prices y ≥ 0, and the least price of
 * any candidate (loops allowed), which is what a dual lower bound needs. Candidates are the
 * engine's: the paths of the {@link CandidatePaths} DAG, and on direct networks also the Valiant
 * paths through each intermediate router.
 *
 * <p>Prices change between rounds; within a round ({@link #newRound}) the shortest-path trees and
 * legs are memoised per switch, in arrays indexed by node (no boxing: a pass over 4,000
 * commodities of a Dragonfly prices each from 2 × 264 trees).
 */
final class CandidatePricer {
    private static final double EPS = 1e-9;

    private final DenseFabric ix;
    private final CandidatePaths cands;
    private final boolean trees;
    private final Tree[] forward;
    private final Tree[] backward;
    private final int[] forwardRound;
    private final int[] backwardRound;
    /** Legs of non-distance-ordered fabrics, keyed s·n+d; cleared per round. */
    private final Map<Long, Leg> legs = new HashMap<>();
    private final int[] seen;
    private int seenStamp;
    private int round = 1;
    private double[] y;

    CandidatePricer(DenseFabric ix, CandidatePaths cands) {
        this.ix = ix;
        this.cands = cands;
        this.trees = ix.direct;
        forward = new Tree[ix.nodeCount];
        backward = new Tree[ix.nodeCount];
        forwardRound = new int[ix.nodeCount];
        backwardRound = new int[ix.nodeCount];
        seen = new int[ix.nodeCount];
    }

    /** Prices for the next calls; memoised trees and legs of earlier prices are forgotten. */
    void newRound(double[] prices) {
        y = prices;
        round++;
        legs.clear();
    }

    /**
     * @param cost length of the cheapest loop-free candidate found ({@code mid}; null when none)
     * @param bound the least length over every candidate, loops allowed: a valid term of the lower bound
     */
    record Priced(double cost, int[] mid, double bound) {
    }

    /** The cheapest candidate from switch s to switch d, or null when there is none. */
    Priced cheapest(int s, int d) {
        if (trees && cands.byDistance(s) != null) {
            return cheapestDirect(s, d);
        }
        Leg direct = leg(s, d);
        double cost = direct == null ? Double.POSITIVE_INFINITY : direct.cost;
        int[] mid = direct == null ? null : direct.mid;
        double bound = cost;
        if (ix.direct) {
            int best = -1;
            double bestCost = cost;
            for (int i : cands.intermediates()) {
                if (i == s || i == d) {
                    continue;
                }
                Leg a = leg(s, i);
                Leg b = a == null ? null : leg(i, d);
                if (b == null) {
                    continue;
                }
                double v = a.cost + b.cost;
                bound = Math.min(bound, v);
                if (v < bestCost - relTol(bestCost)) {
                    int[] p = concat(a.mid, b.mid);
                    if (loopFree(s, p)) {
                        best = i;
                        bestCost = v;
                        mid = p;
                    }
                }
            }
            cost = best < 0 ? cost : bestCost;
        }
        return mid == null && bound == Double.POSITIVE_INFINITY ? null : new Priced(cost, mid, bound);
    }

    private static double relTol(double cost) {
        return 1e-7 * Math.max(cost, EPS);
    }

    /** A leg's cheapest path under the prices (switch arcs), or no path. */
    private record Leg(double cost, int[] mid) {
    }

    /** Shortest-path tree under y from (forward) or to (backward) one switch, over minimal paths. */
    private record Tree(double[] cost, int[] arc) {
    }

    /**
     * Direct networks with a distance matrix: one DP from the source over the switches in distance
     * order gives the cheapest minimal path to every router (a minimal path goes one hop further at
     * each step), and one backwards from the destination the cheapest minimal path from every
     * router; a Valiant path through i costs the sum at i. O(arcs) per distinct source and
     * destination per round, then O(routers) per commodity.
     */
    private Priced cheapestDirect(int s, int d) {
        Tree f = tree(s, true);
        Tree b = tree(d, false);
        double cost = f.cost[d];
        if (cost == Double.POSITIVE_INFINITY) {
            return null;
        }
        double bound = cost;
        int[] mids = cands.intermediates();
        // Cheapest Valiant detours first; one that loops is skipped for the next cheapest.
        double floor = Double.NEGATIVE_INFINITY;
        int floorAt = -1;
        while (true) {
            int best = -1;
            double bestCost = cost - relTol(cost);
            for (int i : mids) {
                if (i == s || i == d) {
                    continue;
                }
                double v = f.cost[i] + b.cost[i];
                if (floorAt < 0) {
                    bound = Math.min(bound, v);
                }
                if (v < bestCost && (v > floor || (v == floor && i > floorAt))) {
                    best = i;
                    bestCost = v;
                }
            }
            if (best < 0) {
                return new Priced(cost, walkBack(f, s, d), bound);
            }
            int[] p = concat(walkBack(f, s, best), walkOn(b, best, d));
            if (loopFree(s, p)) {
                return new Priced(bestCost, p, bound);
            }
            floor = bestCost;
            floorAt = best;
        }
    }

    private int[] walkBack(Tree t, int s, int v) {
        int n = 0;
        for (int x = v; x != s; x = ix.arcFrom[t.arc[x]]) {
            n++;
        }
        int[] p = new int[n];
        for (int x = v; x != s; x = ix.arcFrom[t.arc[x]]) {
            p[--n] = t.arc[x];
        }
        return p;
    }

    private int[] walkOn(Tree t, int v, int d) {
        int n = 0;
        for (int x = v; x != d; x = ix.arcTo[t.arc[x]]) {
            n++;
        }
        int[] p = new int[n];
        n = 0;
        for (int x = v; x != d; x = ix.arcTo[t.arc[x]]) {
            p[n++] = t.arc[x];
        }
        return p;
    }

    private Tree tree(int root, boolean fwd) {
        Tree[] memo = fwd ? forward : backward;
        int[] stamp = fwd ? forwardRound : backwardRound;
        Tree t = memo[root];
        if (t != null && stamp[root] == round) {
            return t;
        }
        if (t == null) {
            t = new Tree(new double[ix.nodeCount], new int[ix.nodeCount]);
            memo[root] = t;
        }
        stamp[root] = round;
        double[] cost = t.cost;
        int[] arc = t.arc;
        Arrays.fill(cost, Double.POSITIVE_INFINITY);
        int[] order = cands.byDistance(root);
        int[] tord = cands.transitOrdinals();
        int[] row = cands.distanceRow(root);
        cost[root] = 0;
        if (fwd) {
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
        return t;
    }

    private Leg leg(int s, int d) {
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
        seenStamp++;
        seen[s] = seenStamp;
        for (int a : mid) {
            int v = ix.arcTo[a];
            if (seen[v] == seenStamp) {
                return false;
            }
            seen[v] = seenStamp;
        }
        return true;
    }

    private static int[] concat(int[] a, int[] b) {
        int[] p = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, p, a.length, b.length);
        return p;
    }
}
