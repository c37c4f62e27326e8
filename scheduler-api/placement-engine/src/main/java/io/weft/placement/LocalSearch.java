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
 * <p>Each pass scans the arcs once (O(arcs)) and costs one {@link PathChooser#choose} per victim
 * still on a hot arc at its turn and not known to be refused again (see {@link #dirty}). Victims:
 * fresh flows first, then larger demands, then slot order, so the result is deterministic.
 */
final class LocalSearch {
    private static final double EPS = ReservationLedger.EPS;

    private final ReservationLedger ledger;
    private final PlacementConfig cfg;
    /**
     * Scratch kept between calls (per slot: fresh, seen, refused at; per arc: changed at; per node: touched
     * at), grown with the ledger and cleared per call: a placement allocates none of it.
     */
    private boolean[] isFresh = new boolean[0];
    private boolean[] seen = new boolean[0];
    private long[] refusedAt = new long[0];
    private long[] changedAt = new long[0];
    private long[] touchedAt = new long[0];

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
        DenseFabric ix = ledger.index();
        clearScratch(ledger.slotCount(), ledger.arcCount(), ix.nodeCount);
        for (int s : fresh) {
            isFresh[s] = true;
        }
        int budget = 4 * fresh.length + (onlyFresh ? 0 : 1024);
        double[] potential = null;
        // Dirty sets, by a clock that ticks per evaluation: when a flow was refused, when an arc's
        // load last changed, when a move last freed an arc at a switch.
        long clock = 0;
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
                if (budget <= 0) {
                    break;
                }
                int[] old = ledger.path(s);
                // Victims were listed at the pass's start: one whose hot arcs a move has cooled since
                // (the other flow of a collision moved off) has nothing left to gain for the potential.
                if (!onHotArc(old, loadMoves, split.fabricMax())
                        || !dirty(ix, old, refusedAt[s], changedAt, touchedAt)) {
                    continue;
                }
                ledger.unreserve(s);
                long d = ledger.demandKbps(s);
                boolean e = ledger.elephant(s);
                PathChooser.Choice now = chooser.evaluate(old, d, e);
                PathChooser.Choice best = chooser.choose(ledger.src(s), ledger.dst(s), d, e, m - 2 * EPS,
                        ledger.homePortsOnly(s));
                budget--;
                clock++;
                if (best.beats(now)) {
                    before.putIfAbsent(s, old);
                    ledger.reserve(s, best.path);
                    improved = true;
                    stamp(ix, old, clock, changedAt, touchedAt);
                    stamp(ix, best.path, clock, changedAt, null);
                    refusedAt[s] = -1;
                } else {
                    ledger.reserve(s, old);
                    refusedAt[s] = clock;
                }
            }
            if (!improved) {
                return;
            }
        }
    }

    private void clearScratch(int slots, int arcs, int nodes) {
        if (isFresh.length < slots) {
            int n = Math.max(slots, 2 * isFresh.length);
            isFresh = new boolean[n];
            seen = new boolean[n];
            refusedAt = new long[n];
        }
        if (changedAt.length != arcs || touchedAt.length != nodes) {
            changedAt = new long[arcs];
            touchedAt = new long[nodes];
        }
        Arrays.fill(isFresh, 0, slots, false);
        Arrays.fill(refusedAt, 0, slots, -1);
        Arrays.fill(changedAt, 0);
        Arrays.fill(touchedAt, 0);
    }

    /**
     * True when the flow was never refused, or since its refusal a move changed the load on one of
     * its arcs or freed an arc at its source or destination switch (where its detours start and
     * end). A heuristic, not a proof: a move farther away can open a detour for a clean flow; but
     * refused flows rarely move later, and on a loaded Dragonfly each re-evaluation is a Valiant scan
     * (the df(4,8,4) ring: about half the choices gone, the same max load and collisions).
     */
    private static boolean dirty(DenseFabric ix, int[] path, long refusedAt, long[] changedAt, long[] touchedAt) {
        if (refusedAt < 0 || touchedAt[ix.arcTo[path[0]]] > refusedAt
                || touchedAt[ix.arcFrom[path[path.length - 1]]] > refusedAt) {
            return true;
        }
        for (int a : path) {
            if (changedAt[a] > refusedAt) {
                return true;
            }
        }
        return false;
    }

    /** A move's old path ({@code touchedAt} given: its arcs were freed) or new path. */
    private static void stamp(DenseFabric ix, int[] path, long clock, long[] changedAt, long[] touchedAt) {
        for (int a : path) {
            changedAt[a] = clock;
            if (touchedAt != null) {
                touchedAt[ix.arcFrom[a]] = clock;
                touchedAt[ix.arcTo[a]] = clock;
            }
        }
    }

    /**
     * An arc a move could improve: at the fabric max (when a fabric arc sets it), or, off the NIC
     * links, with t + 1 elephants (one move can clear the collision). Fixed arcs never are.
     */
    private boolean hot(int a, boolean loadMoves, double fabricMax) {
        if (ledger.fixedArc(a)) {
            return false;
        }
        return (loadMoves && ledger.util(a) >= fabricMax - EPS)
                || (!ledger.nicArc(a) && ledger.elephants()[a] == cfg.elephantTolerance() + 1);
    }

    private boolean onHotArc(int[] path, boolean loadMoves, double fabricMax) {
        for (int a : path) {
            if (hot(a, loadMoves, fabricMax)) {
                return true;
            }
        }
        return false;
    }

    /** Flows on hot fabric arcs, in move order: fresh first, then larger demand, then slot. */
    private int[] victims(boolean loadMoves, double fabricMax, boolean[] isFresh, boolean onlyFresh) {
        Arrays.fill(seen, 0, ledger.slotCount(), false);
        IntList victims = new IntList();
        for (int a = 0; a < ledger.arcCount(); a++) {
            IntList on = ledger.flowsOn(a);
            if (on == null || on.size() == 0) {
                continue;
            }
            if (!hot(a, loadMoves, fabricMax)) {
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
        return inMoveOrder(victims.toArray(), isFresh);
    }

    /** Slot numbers and demands that fit {@link #inMoveOrder}'s packed keys (else it sorts boxed). */
    private static final int SLOT_BITS = 23;
    private static final long DEMAND_CAP = (1L << 39) - 1;

    /**
     * Fresh first, then larger demand, then slot. Packed in longs (fresh bit, demand descending, slot) and
     * sorted as primitives: a Dragonfly add sorts its victims on every pass. Slots past 2^23 or a demand
     * of 2^39 kbit/s or more take the boxed comparator, so the order is always exactly this one.
     */
    int[] inMoveOrder(int[] victims, boolean[] isFresh) {
        long[] keys = new long[victims.length];
        for (int i = 0; i < victims.length; i++) {
            int s = victims[i];
            long d = ledger.demandKbps(s);
            if (s >= 1 << SLOT_BITS || d >= DEMAND_CAP) {
                return inMoveOrderBoxed(victims, isFresh);
            }
            keys[i] = (isFresh[s] ? 0 : 1L << 62) | (DEMAND_CAP - d) << SLOT_BITS | s;
        }
        Arrays.sort(keys);
        int[] out = new int[victims.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (int) (keys[i] & ((1 << SLOT_BITS) - 1));
        }
        return out;
    }

    int[] inMoveOrderBoxed(int[] victims, boolean[] isFresh) {
        Integer[] boxed = Arrays.stream(victims).boxed().toArray(Integer[]::new);
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
