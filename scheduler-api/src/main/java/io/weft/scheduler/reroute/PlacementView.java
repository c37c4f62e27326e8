package io.weft.scheduler.reroute;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.weft.fabric.Role;
import io.weft.placement.Candidates;
import io.weft.placement.DenseFabric;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementEngine;

/**
 * A read-only copy of what {@link ReunionPolicy} needs from the engine: reservations per arc, the
 * placed flows with their paths, and their candidate paths. Built through the engine's public API
 * only, under the caller's lock; the policy then runs on the copy without touching the engine.
 * Cost: one scan over every placed flow's path.
 */
public final class PlacementView {
    /** Most candidate paths looked at per flow: every shortest path of the fabrics Weft generates fits. */
    static final int CANDIDATE_LIMIT = 256;

    /** One placed flow slice. */
    record FlowInfo(String id, int srcNic, int dstNic, long demandKbps, boolean elephant, int[] path) {
    }

    private final DenseFabric ix;
    private final Candidates candidates;
    private final long[] loadKbps;
    private final int[] elephants;
    private final Map<String, FlowInfo> flows = new HashMap<>();
    private final Map<Integer, List<String>> flowsOnArc = new HashMap<>();
    private final Set<Integer> downArcs;

    private PlacementView(PlacementEngine engine, Candidates candidates, Set<Integer> downArcs) {
        this.ix = engine.index();
        this.candidates = candidates;
        this.downArcs = Set.copyOf(downArcs);
        this.loadKbps = engine.arcLoadsKbps();
        this.elephants = engine.arcElephants();
        double elephantMinGbps = engine.config().elephantMinGbps();
        for (String job : engine.jobIds()) {
            for (PlacedFlow p : engine.placedFlows(job)) {
                String id = p.flow().id();
                int[] path = engine.pathArcs(id);
                FlowInfo f = new FlowInfo(id, ix.node(p.flow().srcNic()), ix.node(p.flow().dstNic()),
                        Math.round(p.flow().demandGbps() * 1e6), p.flow().demandGbps() >= elephantMinGbps, path);
                flows.put(id, f);
                for (int a : path) {
                    flowsOnArc.computeIfAbsent(a, k -> new ArrayList<>()).add(id);
                }
            }
        }
        flowsOnArc.values().forEach(l -> l.sort(null));
    }

    /** Copies the engine's state; the caller holds the engine's lock. */
    public static PlacementView of(PlacementEngine engine) {
        return new PlacementView(engine, new Candidates(engine.index()), Set.of());
    }

    /**
     * Same, reusing candidate paths enumerated for this very index (they are cached per switch
     * pair, so a long-lived {@link Candidates} saves the search on every pass).
     */
    public static PlacementView of(PlacementEngine engine, Candidates candidates) {
        return of(engine, candidates, Set.of());
    }

    /**
     * Same, with arcs known down that the engine's index still calls usable (a link-down event
     * ahead of the controller's snapshot): no path over them is {@link #usable}.
     */
    public static PlacementView of(PlacementEngine engine, Candidates candidates, Set<Integer> downArcs) {
        if (candidates.index() != engine.index()) {
            throw new IllegalStateException("candidates belong to another fabric index than the engine's");
        }
        return new PlacementView(engine, candidates, downArcs);
    }

    public DenseFabric index() {
        return ix;
    }

    FlowInfo flow(String id) {
        return flows.get(id);
    }

    /** Ids of the flows whose path crosses the arc, sorted (deterministic policy). */
    List<String> flowsOn(int arc) {
        return flowsOnArc.getOrDefault(arc, List.of());
    }

    List<int[]> candidates(FlowInfo f) {
        return candidates.enumerate(f.srcNic(), f.dstNic(), true, CANDIDATE_LIMIT);
    }

    /** The arc is up and not drained, in the index and in the link-down events it was given. */
    boolean usable(int arc) {
        return ix.usable(arc) && !downArcs.contains(arc);
    }

    long loadKbps(int arc) {
        return loadKbps[arc];
    }

    int elephants(int arc) {
        return elephants[arc];
    }

    double capacityKbps(int arc) {
        return ix.capacityGbps(arc) * 1e6;
    }

    /**
     * A NIC's own access link carries all of the NIC's slices whatever their paths, so the
     * tolerance applies to switch-to-switch arcs only (as in the engine's collision count).
     */
    boolean nicArc(int arc) {
        return ix.role(ix.from(arc)) == Role.NIC || ix.role(ix.to(arc)) == Role.NIC;
    }
}
