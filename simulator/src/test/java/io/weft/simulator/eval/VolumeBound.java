package io.weft.simulator.eval;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Arc;
import io.weft.plan.FabricPlan;
import io.weft.simulator.ArcTable;

/**
 * A lower bound on the max link load of any routing, cheap at any size (where the LP is not solved):
 * every flow crosses at least as many switch-to-switch link directions as the shortest path between
 * its NICs' switches on the surviving fabric, so the load summed over those directions is at least
 * Σ demand × hops, and the busiest one carries at least that sum over their total capacity. Tight on
 * low-diameter fabrics under uniform traffic (Dragonfly, Slim Fly: most pairs need every hop of
 * the diameter), loose where a few links are the bottleneck. NICs count by their home switch.
 */
final class VolumeBound {
    private VolumeBound() {
    }

    /** Σ demand × hops / Σ capacity; infinite when some pair is cut off. */
    static double maxLoad(FabricPlan plan, ArcTable arcs, boolean[] failed, List<String[]> flows, double demandGbps) {
        double capacity = 0;
        for (String sw : plan.switches()) {
            for (Arc a : plan.switchArcs(sw)) {
                if (!failed[arcs.id(a)]) {
                    capacity += arcs.capacityGbps(arcs.id(a));
                }
            }
        }
        Map<String, Map<String, Integer>> hops = new HashMap<>();
        double volume = 0;
        for (String[] f : flows) {
            String from = plan.attachment(f[0]).to();
            String to = plan.attachment(f[1]).to();
            Integer h = hops.computeIfAbsent(from, s -> bfs(plan, arcs, failed, s)).get(to);
            if (h == null) {
                return Double.POSITIVE_INFINITY;
            }
            volume += demandGbps * h;
        }
        return capacity == 0 ? 0 : volume / capacity;
    }

    private static Map<String, Integer> bfs(FabricPlan plan, ArcTable arcs, boolean[] failed, String from) {
        Map<String, Integer> dist = new HashMap<>();
        ArrayDeque<String> queue = new ArrayDeque<>();
        dist.put(from, 0);
        queue.add(from);
        while (!queue.isEmpty()) {
            String v = queue.poll();
            for (Arc a : plan.switchArcs(v)) {
                if (!failed[arcs.id(a)] && !dist.containsKey(a.to())) {
                    dist.put(a.to(), dist.get(v) + 1);
                    queue.add(a.to());
                }
            }
        }
        return dist;
    }
}
