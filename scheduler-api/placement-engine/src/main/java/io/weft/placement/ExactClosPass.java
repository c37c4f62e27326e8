package io.weft.placement;

import java.util.Arrays;
import java.util.Map;

/**
 * Where the engine uses the exact Clos assignment ({@link ClosExact}: a Kőnig edge colouring, max
 * load 1 for line-rate permutations on a full-bisection Clos): straight away for a batch on an
 * empty engine ({@link #placeFirst}), and after the heuristic when a fabric arc, not a NIC link,
 * sets the max load ({@link #reassignIfLower}). Both only on a Clos, with {@code exactClos} on; the
 * assignment itself returns null where its preconditions (equal demands, ...) fail.
 */
final class ExactClosPass {
    private static final double EPS = ReservationLedger.EPS;

    private final ReservationLedger ledger;
    private final PlacementConfig cfg;

    ExactClosPass(ReservationLedger ledger, PlacementConfig cfg) {
        this.ledger = ledger;
        this.cfg = cfg;
    }

    /**
     * On an otherwise empty engine, places the batch straight from the edge colouring: optimal on
     * two tiers and link-disjoint for permutations, and cheaper than greedy plus local search.
     * Returns false (nothing reserved) when it does not apply.
     */
    boolean placeFirst(DenseFabric ix, int[] slots) {
        if (!cfg.exactClos() || ix.direct || ledger.placedCount() != 0 || slots.length == 0) {
            return false;
        }
        int[][] exact = assign(ix, slots);
        if (exact == null) {
            return false;
        }
        for (int i = 0; i < slots.length; i++) {
            ledger.reserve(slots[i], exact[i]);
        }
        return true;
    }

    /**
     * Tries the edge-colouring assignment of every placed flow and adopts it when it lowers the max
     * load; moved flows get their old path in {@code before}. Skipped when NIC links set the max
     * (fixed whatever the paths) or when some registered flow waits for a path.
     */
    void reassignIfLower(DenseFabric ix, Map<Integer, int[]> before) {
        if (!cfg.exactClos() || ix.direct || !ledger.maxSplit().fabricBound()) {
            return;
        }
        IntList all = new IntList();
        for (int s = 0; s < ledger.slotCount(); s++) {
            if (ledger.registered(s)) {
                if (ledger.path(s) == null) {
                    return; // some flow has no path: not the clean case the exact method covers
                }
                all.add(s);
            }
        }
        int[] slots = all.toArray();
        int[][] exact = assign(ix, slots);
        if (exact == null) {
            return;
        }
        long[] trial = new long[ledger.arcCount()];
        double trialMax = 0;
        for (int i = 0; i < slots.length; i++) {
            for (int a : exact[i]) {
                trial[a] += ledger.demandKbps(slots[i]);
                trialMax = Math.max(trialMax, trial[a] / (ix.capacityGbps[a] * 1e6));
            }
        }
        if (trialMax >= ledger.maxLoad() - EPS) {
            return;
        }
        for (int i = 0; i < slots.length; i++) {
            int s = slots[i];
            if (!Arrays.equals(ledger.path(s), exact[i])) {
                before.putIfAbsent(s, ledger.path(s));
                ledger.unreserve(s);
            }
        }
        for (int i = 0; i < slots.length; i++) {
            if (ledger.path(slots[i]) == null) {
                ledger.reserve(slots[i], exact[i]);
            }
        }
    }

    private int[][] assign(DenseFabric ix, int[] slots) {
        int[] src = new int[slots.length];
        int[] dst = new int[slots.length];
        double[] demand = new double[slots.length];
        boolean homeOnly = false;
        for (int i = 0; i < slots.length; i++) {
            src[i] = ledger.src(slots[i]);
            dst[i] = ledger.dst(slots[i]);
            demand[i] = ledger.flow(slots[i]).demandGbps();
            homeOnly |= ledger.homePortsOnly(slots[i]);
        }
        return ClosExact.assign(ix, src, dst, demand, homeOnly);
    }
}
