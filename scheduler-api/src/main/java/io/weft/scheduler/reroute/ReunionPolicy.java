package io.weft.scheduler.reroute;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Chooses which flows leave hot or failed links in one statistics interval, after Reunion's
 * discipline (Wang et al., "Reunion: receiver-driven network load balancing", elephant tolerance
 * t): per hot arc move at most {@code k} elephant flows, each the one with the best alternative
 * (lowest highest utilisation along its new path, then fewest hops), onto a path on which every
 * switch-to-switch arc it newly enters carries at most {@code t} elephants once every move of the
 * interval is counted, and no arc is hot. Moves of one pass are checked against each other
 * (pending deltas), so a burst of hotspots cannot herd flows onto the same spare arc. A flow moves
 * at most once per interval. A hot arc with no acceptable alternative keeps its flows.
 *
 * <p>On link-down every flow on the link moves at once, onto its surviving candidate with the
 * lowest highest utilisation (then fewest newly collided arcs, then fewest hops); the tolerance
 * does not forbid a move there, since staying is not an option.
 *
 * <p>Pure: reads a {@link PlacementView}, returns moves, changes nothing. Cost per hot arc:
 * flows on it x candidates x path length.
 */
public final class ReunionPolicy {
    private static final double EPS = 1e-9;

    private final int k;
    private final int t;

    /**
     * @param k most flows moved off one hot arc per interval (at least 1)
     * @param t elephant tolerance: most elephants an arc may carry after a move (at least 1)
     */
    public ReunionPolicy(int k, int t) {
        if (k < 1) {
            throw new IllegalArgumentException("k: must be >= 1, got " + k);
        }
        if (t < 1) {
            throw new IllegalArgumentException("t: must be >= 1, got " + t);
        }
        this.k = k;
        this.t = t;
    }

    public int k() {
        return k;
    }

    public int t() {
        return t;
    }

    /**
     * Moves for one pass over the hot arcs.
     *
     * @param hot active hotspots, in the order they are served (oldest first)
     * @param usedBudget moves already made this interval per hot arc (not modified)
     * @param movedThisInterval flows already moved this interval: they stay (not modified)
     */
    public List<Move> onHotspots(PlacementView view, List<HotArc> hot, Map<Integer, Integer> usedBudget,
                                 Set<String> movedThisInterval) {
        Set<Integer> hotArcs = new HashSet<>();
        hot.forEach(h -> hotArcs.add(h.arc()));
        Pending pending = new Pending();
        Set<String> moved = new HashSet<>(movedThisInterval);
        List<Move> out = new ArrayList<>();
        for (HotArc h : hot) {
            int budget = k - usedBudget.getOrDefault(h.arc(), 0);
            for (int i = 0; i < budget; i++) {
                Move best = null;
                for (String id : view.flowsOn(h.arc())) {
                    PlacementView.FlowInfo f = view.flow(id);
                    if (!f.elephant() || moved.contains(id) || !pending.stillOn(id, h.arc(), f.path())) {
                        continue;
                    }
                    Move m = bestTolerated(view, f, hotArcs, pending, Move.HOTSPOT + h.hotspotId());
                    if (m != null && (best == null || better(m, best))) {
                        best = m;
                    }
                }
                if (best == null) {
                    break;
                }
                pending.apply(view, view.flow(best.flowId()), best.toArcs());
                moved.add(best.flowId());
                out.add(best);
            }
        }
        return out;
    }

    /**
     * Moves every flow crossing either direction of the failed link, biggest demand first.
     *
     * @param linkArcs both arcs of the failed link
     */
    public List<Move> onLinkDown(PlacementView view, String linkId, int[] linkArcs, Collection<HotArc> hot) {
        Set<Integer> avoid = new HashSet<>();
        hot.forEach(h -> avoid.add(h.arc()));
        Set<String> ids = new HashSet<>();
        for (int a : linkArcs) {
            ids.addAll(view.flowsOn(a));
        }
        List<PlacementView.FlowInfo> affected = new ArrayList<>();
        ids.forEach(id -> affected.add(view.flow(id)));
        affected.sort(Comparator.comparingLong(PlacementView.FlowInfo::demandKbps).reversed()
                .thenComparing(PlacementView.FlowInfo::id));
        Pending pending = new Pending();
        List<Move> out = new ArrayList<>();
        for (PlacementView.FlowInfo f : affected) {
            int[] best = null;
            double bestUtil = 0;
            int bestCollided = 0;
            for (int[] p : view.candidates(f)) {
                if (contains(p, linkArcs[0]) || contains(p, linkArcs[1]) || !usable(view, p)) {
                    continue;
                }
                double util = maxUtil(view, f, p, pending);
                int collided = newlyCollided(view, f, p, pending);
                // A hot arc is a last resort: any cool path beats it.
                boolean hotPath = crossesAny(p, avoid);
                double key = util + (hotPath ? 1e6 : 0);
                double bestKey = best == null ? 0 : bestUtil + (crossesAny(best, avoid) ? 1e6 : 0);
                if (best == null || key < bestKey - EPS
                        || (key <= bestKey + EPS && (collided < bestCollided
                        || (collided == bestCollided && p.length < best.length)))) {
                    best = p;
                    bestUtil = util;
                    bestCollided = collided;
                }
            }
            if (best != null) {
                pending.apply(view, f, best);
                out.add(new Move(f.id(), f.path(), best, Move.LINK_DOWN + linkId, bestUtil));
            }
        }
        return out;
    }

    /** The flow's best candidate that respects the tolerance and avoids hot arcs, or null. */
    private Move bestTolerated(PlacementView view, PlacementView.FlowInfo f, Set<Integer> hotArcs, Pending pending,
                               String cause) {
        Move best = null;
        int[] current = pending.pathOf(f);
        for (int[] p : view.candidates(f)) {
            if (java.util.Arrays.equals(p, current) || crossesAny(p, hotArcs) || !usable(view, p)) {
                continue;
            }
            boolean fits = true;
            for (int a : p) {
                if (!contains(current, a) && !view.nicArc(a) && pending.elephants(view, a) + 1 > t) {
                    fits = false;
                    break;
                }
            }
            if (!fits) {
                continue;
            }
            Move m = new Move(f.id(), current, p, cause, maxUtil(view, f, p, pending));
            if (best == null || better(m, best)) {
                best = m;
            }
        }
        return best;
    }

    private static boolean better(Move a, Move b) {
        if (a.maxUtilAfter() < b.maxUtilAfter() - EPS) {
            return true;
        }
        if (a.maxUtilAfter() > b.maxUtilAfter() + EPS) {
            return false;
        }
        return a.toArcs().length < b.toArcs().length;
    }

    /** Highest utilisation along {@code p} with the flow on it and every pending move applied. */
    private static double maxUtil(PlacementView view, PlacementView.FlowInfo f, int[] p, Pending pending) {
        int[] current = pending.pathOf(f);
        double max = 0;
        for (int a : p) {
            long load = pending.loadKbps(view, a) + (contains(current, a) ? 0 : f.demandKbps());
            max = Math.max(max, load / view.capacityKbps(a));
        }
        return max;
    }

    private int newlyCollided(PlacementView view, PlacementView.FlowInfo f, int[] p, Pending pending) {
        if (!f.elephant()) {
            return 0;
        }
        int[] current = pending.pathOf(f);
        int n = 0;
        for (int a : p) {
            if (!contains(current, a) && !view.nicArc(a) && pending.elephants(view, a) + 1 > t) {
                n++;
            }
        }
        return n;
    }

    private static boolean usable(PlacementView view, int[] p) {
        for (int a : p) {
            if (!view.usable(a)) {
                return false;
            }
        }
        return true;
    }

    private static boolean crossesAny(int[] p, Set<Integer> arcs) {
        for (int a : p) {
            if (arcs.contains(a)) {
                return true;
            }
        }
        return false;
    }

    static boolean contains(int[] p, int arc) {
        for (int a : p) {
            if (a == arc) {
                return true;
            }
        }
        return false;
    }

    /** The moves chosen so far in this pass, as deltas over the view's reservations. */
    private static final class Pending {
        private final Map<Integer, Long> loadDelta = new HashMap<>();
        private final Map<Integer, Integer> elephantDelta = new HashMap<>();
        private final Map<String, int[]> newPaths = new HashMap<>();

        long loadKbps(PlacementView view, int arc) {
            return view.loadKbps(arc) + loadDelta.getOrDefault(arc, 0L);
        }

        int elephants(PlacementView view, int arc) {
            return view.elephants(arc) + elephantDelta.getOrDefault(arc, 0);
        }

        int[] pathOf(PlacementView.FlowInfo f) {
            return newPaths.getOrDefault(f.id(), f.path());
        }

        boolean stillOn(String id, int arc, int[] original) {
            return contains(newPaths.getOrDefault(id, original), arc);
        }

        void apply(PlacementView view, PlacementView.FlowInfo f, int[] to) {
            int[] from = pathOf(f);
            for (int a : from) {
                if (!contains(to, a)) {
                    loadDelta.merge(a, -f.demandKbps(), Long::sum);
                    if (f.elephant()) {
                        elephantDelta.merge(a, -1, Integer::sum);
                    }
                }
            }
            for (int a : to) {
                if (!contains(from, a)) {
                    loadDelta.merge(a, f.demandKbps(), Long::sum);
                    if (f.elephant()) {
                        elephantDelta.merge(a, 1, Integer::sum);
                    }
                }
            }
            newPaths.put(f.id(), to);
        }
    }
}
