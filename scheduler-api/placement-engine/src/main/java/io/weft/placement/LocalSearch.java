package io.weft.placement;

import java.util.Arrays;
import java.util.Map;

/**
 * Rip-up and reroute: flows on the most loaded fabric arcs (and on arcs where one move clears a
 * collision) are taken off and put back on their best path under the others' reservations; a move
 * is kept only when it {@linkplain PathChooser.Choice#beats beats} staying. Passes repeat while the
 * potential (max load, arcs at it, collisions) falls lexicographically, within a move budget of
 * 4 per fresh flow (plus 1,024 when older flows may move too) and the configured pass count.
 *
 * <p>Each pass scans the arcs once (O(arcs)) and costs one {@link PathChooser#choose} per victim.
 * Victims: fresh flows first, then larger demands, then slot order, so the result is deterministic.
 */
final class LocalSearch {
    private static final double EPS = ReservationLedger.EPS;

    private final ReservationLedger ledger;
    private final PlacementConfig cfg;

    LocalSearch(ReservationLedger ledger, PlacementConfig cfg) {
        this.ledger = ledger;
        this.cfg = cfg;
    }

    /**
     * @param fresh     the flows just (re-)placed: preferred victims, and the budget's base
     * @param before    filled with the old path of every flow that moves (first move only)
     * @param onlyFresh when true only fresh flows move (other jobs stay where they are)
     */
    void improve(PathChooser chooser, int[] fresh, Map<Integer, int[]> before, boolean onlyFresh) {
        boolean[] isFresh = new boolean[ledger.slotCount()];
        for (int s : fresh) {
            isFresh[s] = true;
        }
        int budget = 4 * fresh.length + (onlyFresh ? 0 : 1024);
        double[] potential = null;
        for (int pass = 0; pass < cfg.localSearchPasses() && budget > 0; pass++) {
            double m = ledger.maxLoad();
            if (m <= EPS) {
                return;
            }
            // Stop when a pass lowered neither the max load, nor the arcs at it, nor the collisions.
            double[] pot = potential();
            if (potential != null && !lower(pot, potential)) {
                return;
            }
            potential = pot;
            // A single-port NIC's arcs carry the same load on every path: when they set the maximum, no move can
            // lower it (a multi-port NIC's flows can change port, so its arcs count as movable).
            ReservationLedger.MaxSplit split = ledger.maxSplit();
            boolean loadMoves = split.fabricBound();
            int[] victims = victims(loadMoves, split.fabricMax(), isFresh, onlyFresh);
            boolean improved = false;
            for (int s : victims) {
                if (budget-- <= 0) {
                    break;
                }
                int[] old = ledger.path(s);
                ledger.unreserve(s);
                long d = ledger.demandKbps(s);
                boolean e = ledger.elephant(s);
                PathChooser.Choice now = chooser.evaluate(old, d, e);
                PathChooser.Choice best = chooser.choose(ledger.src(s), ledger.dst(s), d, e, m - 2 * EPS,
                        ledger.homePortsOnly(s));
                if (best.beats(now)) {
                    before.putIfAbsent(s, old);
                    ledger.reserve(s, best.path);
                    improved = true;
                } else {
                    ledger.reserve(s, old);
                }
            }
            if (!improved) {
                return;
            }
        }
    }

    /** Flows on hot fabric arcs, in move order: fresh first, then larger demand, then slot. */
    private int[] victims(boolean loadMoves, double fabricMax, boolean[] isFresh, boolean onlyFresh) {
        boolean[] seen = new boolean[ledger.slotCount()];
        IntList victims = new IntList();
        int clears = cfg.elephantTolerance() + 1;
        int[] elephants = ledger.elephants();
        for (int a = 0; a < ledger.arcCount(); a++) {
            IntList on = ledger.flowsOn(a);
            if (on == null || on.size() == 0 || ledger.fixedArc(a)) {
                continue;
            }
            // Collision victims only where one move can clear the collision (t + 1 elephants).
            boolean hot = (loadMoves && ledger.util(a) >= fabricMax - EPS)
                    || (!ledger.nicArc(a) && elephants[a] == clears);
            if (!hot) {
                continue;
            }
            for (int i = 0; i < on.size(); i++) {
                int s = on.get(i);
                if (!seen[s] && (!onlyFresh || isFresh[s])) {
                    seen[s] = true;
                    victims.add(s);
                }
            }
        }
        Integer[] boxed = Arrays.stream(victims.toArray()).boxed().toArray(Integer[]::new);
        Arrays.sort(boxed, (x, y) -> {
            if (isFresh[x] != isFresh[y]) {
                return isFresh[x] ? -1 : 1;
            }
            int c = Long.compare(ledger.demandKbps(y), ledger.demandKbps(x));
            return c != 0 ? c : Integer.compare(x, y);
        });
        int[] out = new int[boxed.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = boxed[i];
        }
        return out;
    }

    /** (max load, arcs at it, collisions): what local search must lower, lexicographically. */
    private double[] potential() {
        double m = ledger.maxLoad();
        int atMax = 0;
        long[] load = ledger.loadKbps();
        for (int a = 0; a < load.length; a++) {
            if (load[a] != 0 && ledger.util(a) >= m - EPS) {
                atMax++;
            }
        }
        return new double[] {m, atMax, ledger.collisions()};
    }

    private static boolean lower(double[] x, double[] y) {
        for (int i = 0; i < x.length; i++) {
            if (x[i] < y[i] - EPS) {
                return true;
            }
            if (x[i] > y[i] + EPS) {
                return false;
            }
        }
        return false;
    }
}
