package io.weft.simulator.eval;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.ortools.Loader;
import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import io.weft.fabric.Arc;
import io.weft.plan.FabricPlan;
import io.weft.simulator.ArcTable;

/**
 * LP bounds for a set of equal-demand NIC-to-NIC flows on the surviving fabric, for every routing
 * at once: the multicommodity flow in arc form (one commodity per source switch, any path, flows
 * splittable), solved with OR-Tools GLOP. Links of single-homed NICs enter with their fixed loads;
 * a NIC with a port in each plane (multi-plane fabrics) may split its traffic over them, through a
 * virtual node per set of switches its NICs attach to. Valid for ECMP, for Weft's minimal and
 * non-minimal paths, and for anything else.
 *
 * <p>{@code minMaxLoad}: the least possible max link load (load / capacity). {@code maxMinRate}:
 * the largest rate every flow can get at once (maximum concurrent flow), an upper bound on any
 * routing's slowest max-min rate; size / maxMinRate bounds the collective's completion time.
 */
final class LpBounds {
    record Result(double minMaxLoad, double maxMinRateGbps, int variables) {
    }

    private static boolean loaded;

    private LpBounds() {
    }

    /** A directed edge of the LP's graph, sharing capacity constraint {@code cap} with others of its key. */
    private record Edge(String from, String to, String cap) {
    }

    static synchronized Result of(FabricPlan plan, ArcTable arcs, boolean[] failed, List<String[]> flows,
                                  double demandGbps) {
        if (!loaded) {
            Loader.loadNativeLibraries();
            loaded = true;
        }
        // Capacity constraints by key: a switch arc's id, or a multi-homed NIC set's aggregate port.
        Map<String, Double> capacity = new LinkedHashMap<>();
        Map<String, Double> fixedFlows = new LinkedHashMap<>();
        List<Edge> edges = new ArrayList<>();
        Set<String> nodes = new LinkedHashSet<>(plan.switches());
        Map<String, String> srcNode = new HashMap<>();
        Map<String, String> dstNode = new HashMap<>();
        for (String[] f : flows) {
            for (int end = 0; end < 2; end++) {
                String nic = f[end];
                Map<String, String> memo = end == 0 ? srcNode : dstNode;
                if (memo.containsKey(nic)) {
                    continue;
                }
                List<Arc> ports = ports(plan, arcs, failed, nic);
                if (ports.size() == 1) {
                    memo.put(nic, ports.get(0).to());
                    continue;
                }
                // One port per plane: the NIC's traffic may split over its planes. NICs on the same
                // switches share one virtual node whose edges carry the sum of their ports' capacity
                // (a relaxation of the per-port limits, so still a bound).
                List<String> key = new ArrayList<>();
                ports.forEach(a -> key.add(a.to()));
                String v = (end == 0 ? "src:" : "dst:") + String.join(",", key);
                memo.put(nic, v);
                boolean first = nodes.add(v);
                for (Arc a : ports) {
                    String cap = v + ">" + a.to();
                    capacity.merge(cap, arcs.capacityGbps(arcs.id(a)), Double::sum);
                    if (first) {
                        edges.add(end == 0 ? new Edge(v, a.to(), cap) : new Edge(a.to(), v, cap));
                    }
                }
            }
        }
        // source node -> (destination node -> flow count)
        Map<String, Map<String, Integer>> commodities = new LinkedHashMap<>();
        for (String[] f : flows) {
            String from = srcNode.get(f[0]);
            String to = dstNode.get(f[1]);
            if (!from.contains(":")) {
                fixedFlows.merge("nic" + arcs.id(plan.attachment(f[0])), 1.0, Double::sum);
                capacity.putIfAbsent("nic" + arcs.id(plan.attachment(f[0])),
                        arcs.capacityGbps(arcs.id(plan.attachment(f[0]))));
            }
            if (!to.contains(":")) {
                Arc home = plan.attachment(f[1]);
                String cap = "nic" + arcs.id(new Arc(home.link(), home.to()));
                fixedFlows.merge(cap, 1.0, Double::sum);
                capacity.putIfAbsent(cap, arcs.capacityGbps(arcs.id(new Arc(home.link(), home.to()))));
            }
            if (!from.equals(to)) {
                commodities.computeIfAbsent(from, k -> new LinkedHashMap<>()).merge(to, 1, Integer::sum);
            }
        }
        for (String sw : plan.switches()) {
            for (Arc a : plan.switchArcs(sw)) {
                if (!failed[arcs.id(a)]) {
                    String cap = "arc" + arcs.id(a);
                    capacity.put(cap, arcs.capacityGbps(arcs.id(a)));
                    edges.add(new Edge(a.from(), a.to(), cap));
                }
            }
        }
        double minMax = solve(new ArrayList<>(nodes), edges, capacity, fixedFlows, commodities, demandGbps, true);
        double maxMin = solve(new ArrayList<>(nodes), edges, capacity, fixedFlows, commodities, demandGbps, false);
        return new Result(minMax, maxMin, commodities.size() * edges.size());
    }

    /** The NIC's working ports to switches, in file order (its home first). */
    private static List<Arc> ports(FabricPlan plan, ArcTable arcs, boolean[] failed, String nic) {
        List<Arc> out = new ArrayList<>();
        for (Arc a : plan.fabric().arcsFrom(nic)) {
            if (plan.fabric().node(a.to()).role().isSwitch() && !failed[arcs.id(a)]) {
                out.add(a);
            }
        }
        if (out.isEmpty()) {
            out.add(plan.attachment(nic));
        }
        return out;
    }

    /**
     * loadMode: minimise U, every flow routed at its demand, load <= U * capacity. Otherwise
     * maximise t, every flow routed at rate t, load <= capacity. Fixed flows: NIC links of
     * single-homed NICs, which every routing loads alike.
     */
    private static double solve(List<String> nodes, List<Edge> edges, Map<String, Double> capacities,
                                Map<String, Double> fixedFlows, Map<String, Map<String, Integer>> commodities,
                                double demand, boolean loadMode) {
        MPSolver lp = MPSolver.createSolver("GLOP");
        MPVariable u = lp.makeNumVar(0, MPSolver.infinity(), loadMode ? "U" : "t");
        Map<String, MPConstraint> capacity = new HashMap<>();
        for (Map.Entry<String, Double> e : capacities.entrySet()) {
            if (fixedFlows.containsKey(e.getKey())) {
                continue;
            }
            MPConstraint c = loadMode ? lp.makeConstraint(-MPSolver.infinity(), 0, "cap" + e.getKey())
                    : lp.makeConstraint(-MPSolver.infinity(), e.getValue(), "cap" + e.getKey());
            if (loadMode) {
                c.setCoefficient(u, -e.getValue());
            }
            capacity.put(e.getKey(), c);
        }
        for (Map.Entry<String, Double> e : fixedFlows.entrySet()) {
            double cap = capacities.get(e.getKey());
            MPConstraint c = loadMode
                    ? lp.makeConstraint(e.getValue() * demand / cap, MPSolver.infinity(), "fix" + e.getKey())
                    : lp.makeConstraint(-MPSolver.infinity(), cap, "fix" + e.getKey());
            c.setCoefficient(u, loadMode ? 1 : e.getValue());
        }
        int k = 0;
        for (Map.Entry<String, Map<String, Integer>> e : commodities.entrySet()) {
            String src = e.getKey();
            // Conservation per node: out - in = supply (source), -demand (destinations), 0 elsewhere.
            Map<String, MPConstraint> node = new HashMap<>();
            int total = e.getValue().values().stream().mapToInt(Integer::intValue).sum();
            for (String v : nodes) {
                double count = v.equals(src) ? total : -e.getValue().getOrDefault(v, 0);
                MPConstraint c;
                if (loadMode) {
                    c = lp.makeConstraint(count * demand, count * demand, "c" + k + v);
                } else {
                    c = lp.makeConstraint(0, 0, "c" + k + v);
                    c.setCoefficient(u, -count);
                }
                node.put(v, c);
            }
            for (int i = 0; i < edges.size(); i++) {
                Edge a = edges.get(i);
                if (a.from().startsWith("src:") && !a.from().equals(src)) {
                    continue; // only its own commodity leaves a source NIC set
                }
                MPVariable f = lp.makeNumVar(0, MPSolver.infinity(), "f" + k + "_" + i);
                node.get(a.from()).setCoefficient(f, 1);
                node.get(a.to()).setCoefficient(f, -1);
                capacity.get(a.cap()).setCoefficient(f, 1);
            }
            k++;
        }
        lp.objective().setCoefficient(u, 1);
        if (loadMode) {
            lp.objective().setMinimization();
        } else {
            lp.objective().setMaximization();
        }
        MPSolver.ResultStatus status = lp.solve();
        double v;
        if (status == MPSolver.ResultStatus.INFEASIBLE && loadMode) {
            v = Double.POSITIVE_INFINITY; // some destination is cut off
        } else if (status != MPSolver.ResultStatus.OPTIMAL) {
            throw new IllegalStateException("LP " + (loadMode ? "min-max load" : "max-min rate") + ": " + status);
        } else {
            v = lp.objective().value();
        }
        lp.delete();
        return v;
    }
}
