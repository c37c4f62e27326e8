package io.weft.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Local search on rounded multipath units: lowers the max link utilisation of a rounding
 * ({@link UnitApportionment}) by moving single units of 1/g of a flow between its commodity's kept
 * paths. Every move keeps each flow on its kept paths (so within the path limit) with units summing
 * to g, and none ever raises the max load:
 * <ul>
 * <li><b>Relieve</b>: for every arc at the max load, the move off a kept path through it whose
 *     target path stays lowest, if it stays under the max. When every such arc is relieved the max
 *     drops; each relief lowers the number of arcs at the max.</li>
 * <li><b>Chain</b>, for an arc no plain relief helps: a move off it onto a path that reaches the
 *     max on a few arcs (not above), each of which is then relieved (by a chain again, up to
 *     {@link #CHAIN_DEPTH} moves deep); undone unless all succeed, so it too lowers the count.</li>
 * <li><b>Smooth</b>, when some arc at the max resists both: one sweep over all flows taking every
 *     move that lowers the sum of squared utilisations and keeps its target under the max. It frees
 *     room next to the busiest arcs for the next reliefs. The squared sum falls by a fixed amount
 *     per move, so sweeps end; the search stops when a sweep moves nothing.</li>
 * </ul>
 * Why more than the first: with units of 1/8 of a line-rate flow, loads sit a unit apart; an arc
 * at the max whose flows' other paths all cross arcs one unit below it cannot be relieved until one
 * of those arcs sheds a unit elsewhere. Measured against the exact best rounding (a MILP over the
 * same kept paths, in the tests) on seeded leaf-spine, Dragonfly and Slim Fly permutations, the
 * repair reached it wherever the solver proved it; plain reliefs alone stayed a unit above on a
 * Dragonfly(2,4,2) (1.375 against 1.25). Deterministic (fixed scan order, first of equal moves)
 * unless a time limit stops chains and sweeps ({@link #repair(Problem, long)}).
 * O(F·P²·L) per sweep for F flows, P kept paths of L arcs; chains evaluate at most
 * {@link #CHAIN_WORK_PER_FLOW} path pairs per flow in all.
 */
final class UnitRepair {
    /** Moves per flow, at most (a bound on the local search, which stops earlier when stuck). */
    static final int MOVES_PER_FLOW = 16;
    /** Smoothing sweeps, at most: each costs a scan of every flow's moves. */
    static final int SWEEPS = 64;
    private static final double REL = 1e-9;
    /** First moves a chain tries per stuck arc (each costs a relief per arc it brings to the max). */
    static final int CHAIN_TRIES = 8;
    /** Moves a chain may make in a row before the arcs it reaches must be relievable outright. */
    static final int CHAIN_DEPTH = 3;
    /** Path pairs the chains may evaluate, per flow: keeps the repair's time linear in the flows. */
    static final long CHAIN_WORK_PER_FLOW = 2_000;

    /**
     * A rounding: commodity c's kept paths {@code paths[c][p]} (arcs), its flows' unit sizes
     * {@code unitGbps[c][j]} (d_j / g) and units {@code units[c][j][p]}; {@code load} is every
     * arc's load in Gb/s (fixed flows included) and only {@code counted} arcs enter the max.
     * {@link #repair} changes {@code units} and {@code load} in place.
     */
    record Problem(int[][][] paths, double[][] unitGbps, int[][][] units, double[] load, double[] capacity,
                   boolean[] counted, int g) {
        double maxLoad() {
            double m = 0;
            for (int a = 0; a < load.length; a++) {
                if (counted[a]) {
                    m = Math.max(m, load[a] / capacity[a]);
                }
            }
            return m;
        }

        /** A deep copy (units, loads and path lists; {@link UnitReroute} changes those in place, never a path). */
        Problem copy() {
            int[][][] u = new int[units.length][][];
            int[][][] ps = new int[paths.length][][];
            for (int c = 0; c < u.length; c++) {
                ps[c] = paths[c].clone();
                u[c] = new int[units[c].length][];
                for (int j = 0; j < u[c].length; j++) {
                    u[c][j] = units[c][j].clone();
                }
            }
            return new Problem(ps, unitGbps, u, load.clone(), capacity, counted, g);
        }
    }

    private final Problem pr;
    /** arc -> {commodity, path} pairs of commodities with two kept paths or more. */
    private final int[][][] through;
    private int budget;
    /** Moves since the last commit, for undoing a chain that fails. */
    private final List<int[]> done = new ArrayList<>();
    private final boolean chains;
    private long work;
    private final long workLimit;
    private long stopNanos = Long.MAX_VALUE;

    private UnitRepair(Problem pr, boolean chains) {
        this.pr = pr;
        int n = pr.load.length;
        int[] count = new int[n];
        int flows = 0;
        for (int c = 0; c < pr.paths.length; c++) {
            flows += pr.units[c].length;
            if (pr.paths[c].length < 2) {
                continue;
            }
            for (int[] path : pr.paths[c]) {
                for (int a : path) {
                    count[a]++;
                }
            }
        }
        through = new int[n][][];
        for (int a = 0; a < n; a++) {
            through[a] = new int[count[a]][];
            count[a] = 0;
        }
        for (int c = 0; c < pr.paths.length; c++) {
            if (pr.paths[c].length < 2) {
                continue;
            }
            for (int p = 0; p < pr.paths[c].length; p++) {
                for (int a : pr.paths[c][p]) {
                    through[a][count[a]++] = new int[] {c, p};
                }
            }
        }
        budget = MOVES_PER_FLOW * flows;
        workLimit = CHAIN_WORK_PER_FLOW * flows;
        this.chains = chains;
    }

    /** Improves {@code pr}'s units in place; returns the moves made. */
    static int repair(Problem pr) {
        return repair(pr, SWEEPS, true, Long.MAX_VALUE);
    }

    /**
     * As {@link #repair(Problem)}, with no chain or sweep started after {@code stopNanos}
     * ({@link System#nanoTime}); single-unit reliefs, which are cheap, still run to the end.
     */
    static int repair(Problem pr, long stopNanos) {
        return repair(pr, SWEEPS, true, stopNanos);
    }

    /** As {@link #repair(Problem)} with at most {@code maxSweeps} smoothing sweeps, chains or not. */
    static int repair(Problem pr, int maxSweeps, boolean chains) {
        return repair(pr, maxSweeps, chains, Long.MAX_VALUE);
    }

    private static int repair(Problem pr, int maxSweeps, boolean chains, long stopNanos) {
        UnitRepair r = new UnitRepair(pr, chains);
        r.stopNanos = stopNanos;
        int start = r.budget;
        int sweeps = 0;
        while (r.budget > 0) {
            if (r.relieveAll()) {
                continue;
            }
            if (sweeps++ >= maxSweeps || System.nanoTime() > stopNanos || !r.smooth()) {
                break;
            }
        }
        return start - r.budget;
    }

    /** Relieves every arc at the max once; false when one of them cannot be relieved. */
    private boolean relieveAll() {
        double max = pr.maxLoad();
        double level = max * (1 - 1e-12);
        for (int a = 0; a < pr.load.length && budget > 0; a++) {
            if (!pr.counted[a] || pr.load[a] / pr.capacity[a] < level) {
                continue;
            }
            boolean relieved = relieve(a, max) || chains && relieveByChain(a, max, CHAIN_DEPTH);
            budget -= done.size();
            done.clear();
            if (!relieved) {
                return false;
            }
        }
        return budget > 0;
    }

    /** Moves one unit off arc {@code a} onto a kept path that stays under {@code max}; false if none. */
    private boolean relieve(int a, double max) {
        double bestAfter = max * (1 - REL);
        int[] best = null;
        for (int[] cp : through[a]) {
            int c = cp[0];
            int p = cp[1];
            int[][] u = pr.units[c];
            int[][] ks = pr.paths[c];
            for (int j = 0; j < u.length; j++) {
                if (u[j][p] == 0) {
                    continue;
                }
                double unit = pr.unitGbps[c][j];
                for (int q = 0; q < ks.length; q++) {
                    if (q != p) {
                        double after = peakAfter(ks[p], ks[q], unit);
                        if (after < bestAfter) {
                            bestAfter = after;
                            best = new int[] {c, j, p, q};
                        }
                    }
                }
            }
        }
        if (best == null) {
            return false;
        }
        move(best[0], best[1], best[2], best[3]);
        done.add(best);
        return true;
    }

    /**
     * Moves one unit off arc {@code a} onto a kept path that reaches the max on a few arcs but not
     * above, then relieves each of those arcs by a plain relief; undone unless all succeed. Tries
     * the {@link #CHAIN_TRIES} candidates that bring fewest arcs to the max.
     */
    private boolean relieveByChain(int a, double max, int depth) {
        if (depth == 0 || work > workLimit || System.nanoTime() > stopNanos) {
            return false;
        }
        double level = max * (1 - REL);
        List<int[]> cands = new ArrayList<>(); // {c, j, p, q, arcs reaching the max}
        for (int[] cp : through[a]) {
            int c = cp[0];
            int p = cp[1];
            int[][] ks = pr.paths[c];
            for (int j = 0; j < pr.units[c].length; j++) {
                if (pr.units[c][j][p] == 0) {
                    continue;
                }
                double unit = pr.unitGbps[c][j];
                for (int q = 0; q < ks.length; q++) {
                    if (q == p || PathGradientProjection.contains(ks[q], a)
                            || peakAfter(ks[p], ks[q], unit) > max * (1 + REL)) {
                        continue;
                    }
                    int hits = 0;
                    for (int b : ks[q]) {
                        if (pr.counted[b] && !PathGradientProjection.contains(ks[p], b)
                                && (pr.load[b] + unit) / pr.capacity[b] >= level) {
                            hits++;
                        }
                    }
                    cands.add(new int[] {c, j, p, q, hits});
                }
            }
        }
        cands.sort(Comparator.comparingInt(x -> x[4]));
        for (int t = 0; t < Math.min(CHAIN_TRIES, cands.size()); t++) {
            int[] m = cands.get(t);
            int mark = done.size();
            move(m[0], m[1], m[2], m[3]);
            done.add(m);
            boolean ok = true;
            for (int b : pr.paths[m[0]][m[3]]) {
                if (pr.counted[b] && pr.load[b] / pr.capacity[b] >= level && !relieve(b, max)
                        && !relieveByChain(b, max, depth - 1)) {
                    ok = false;
                    break;
                }
            }
            if (ok) {
                return true; // the caller commits (or undoes, if it is a chain that fails later)
            }
            while (done.size() > mark) {
                int[] u = done.remove(done.size() - 1);
                move(u[0], u[1], u[3], u[2]);
            }
        }
        return false;
    }

    /** One sweep of squared-sum-lowering moves under the max; true if any was made. */
    private boolean smooth() {
        double cap = pr.maxLoad() * (1 - REL);
        boolean moved = false;
        for (int c = 0; c < pr.paths.length && budget > 0; c++) {
            int[][] ks = pr.paths[c];
            if (ks.length < 2) {
                continue;
            }
            for (int j = 0; j < pr.units[c].length && budget > 0; j++) {
                double unit = pr.unitGbps[c][j];
                double bestGain = 1e-12;
                int bp = -1;
                int bq = -1;
                for (int p = 0; p < ks.length; p++) {
                    if (pr.units[c][j][p] == 0) {
                        continue;
                    }
                    for (int q = 0; q < ks.length; q++) {
                        if (q == p || peakAfter(ks[p], ks[q], unit) >= cap) {
                            continue;
                        }
                        double gain = squaredGain(ks[p], ks[q], unit);
                        if (gain > bestGain) {
                            bestGain = gain;
                            bp = p;
                            bq = q;
                        }
                    }
                }
                if (bp >= 0) {
                    move(c, j, bp, bq);
                    budget--;
                    moved = true;
                }
            }
        }
        return moved;
    }

    /** Highest utilisation on {@code to} after moving a unit there from {@code from}. */
    private double peakAfter(int[] from, int[] to, double unit) {
        work++;
        double after = 0;
        for (int b : to) {
            double extra = PathGradientProjection.contains(from, b) ? 0 : unit;
            if (pr.counted[b]) {
                after = Math.max(after, (pr.load[b] + extra) / pr.capacity[b]);
            }
        }
        return after;
    }

    /** Drop in the sum of squared utilisations when a unit moves from {@code from} to {@code to}. */
    private double squaredGain(int[] from, int[] to, double unit) {
        double gain = 0;
        for (int b : from) {
            if (pr.counted[b] && !PathGradientProjection.contains(to, b)) {
                double c = pr.capacity[b];
                gain += (2 * pr.load[b] - unit) * unit / (c * c);
            }
        }
        for (int b : to) {
            if (pr.counted[b] && !PathGradientProjection.contains(from, b)) {
                double c = pr.capacity[b];
                gain -= (2 * pr.load[b] + unit) * unit / (c * c);
            }
        }
        return gain;
    }

    private void move(int c, int j, int p, int q) {
        double unit = pr.unitGbps[c][j];
        pr.units[c][j][p]--;
        pr.units[c][j][q]++;
        for (int b : pr.paths[c][p]) {
            pr.load[b] -= unit;
        }
        for (int b : pr.paths[c][q]) {
            pr.load[b] += unit;
        }
    }
}
