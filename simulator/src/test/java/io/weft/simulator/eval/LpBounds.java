package io.weft.simulator.eval;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 * splittable), solved with OR-Tools GLOP. NIC links enter with their fixed loads (single-homed
 * NICs). Valid for ECMP, for Weft's minimal and non-minimal paths, and for anything else.
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

    static synchronized Result of(FabricPlan plan, ArcTable arcs, boolean[] failed, List<String[]> flows,
                                  double demandGbps) {
        if (!loaded) {
            Loader.loadNativeLibraries();
            loaded = true;
        }
        double[] nicFlows = new double[arcs.size()];
        // source switch -> (destination switch -> flow count)
        Map<String, Map<String, Integer>> commodities = new LinkedHashMap<>();
        for (String[] f : flows) {
            Arc up = plan.attachment(f[0]);
            Arc home = plan.attachment(f[1]);
            nicFlows[arcs.id(up)]++;
            nicFlows[arcs.id(new Arc(home.link(), home.to()))]++;
            if (!up.to().equals(home.to())) {
                commodities.computeIfAbsent(up.to(), k -> new LinkedHashMap<>()).merge(home.to(), 1, Integer::sum);
            }
        }
        List<Arc> switchArcs = new ArrayList<>();
        for (String s : plan.switches()) {
            for (Arc a : plan.switchArcs(s)) {
                if (!failed[arcs.id(a)]) {
                    switchArcs.add(a);
                }
            }
        }
        double minMax = solve(plan, arcs, switchArcs, nicFlows, commodities, demandGbps, true);
        double maxMin = solve(plan, arcs, switchArcs, nicFlows, commodities, demandGbps, false);
        return new Result(minMax, maxMin, commodities.size() * switchArcs.size());
    }

    /**
     * loadMode: minimise U, every flow routed at its demand, load <= U * capacity. Otherwise
     * maximise t, every flow routed at rate t, load <= capacity.
     */
    private static double solve(FabricPlan plan, ArcTable arcs, List<Arc> switchArcs, double[] nicFlows,
                                Map<String, Map<String, Integer>> commodities, double demand, boolean loadMode) {
        MPSolver lp = MPSolver.createSolver("GLOP");
        MPVariable u = lp.makeNumVar(0, MPSolver.infinity(), loadMode ? "U" : "t");
        Map<Integer, MPConstraint> capacity = new HashMap<>();
        for (Arc a : switchArcs) {
            int id = arcs.id(a);
            MPConstraint c = loadMode ? lp.makeConstraint(-MPSolver.infinity(), 0, "cap" + id)
                    : lp.makeConstraint(-MPSolver.infinity(), arcs.capacityGbps(id), "cap" + id);
            if (loadMode) {
                c.setCoefficient(u, -arcs.capacityGbps(id));
            }
            capacity.put(id, c);
        }
        for (int a = 0; a < nicFlows.length; a++) {
            if (nicFlows[a] > 0) {
                MPConstraint c = loadMode
                        ? lp.makeConstraint(nicFlows[a] * demand / arcs.capacityGbps(a), MPSolver.infinity(), "nic" + a)
                        : lp.makeConstraint(-MPSolver.infinity(), arcs.capacityGbps(a), "nic" + a);
                c.setCoefficient(u, loadMode ? 1 : nicFlows[a]);
            }
        }
        int k = 0;
        for (Map.Entry<String, Map<String, Integer>> e : commodities.entrySet()) {
            String src = e.getKey();
            // Conservation per switch: out - in = supply (source), -demand (destinations), 0 elsewhere.
            Map<String, MPConstraint> node = new HashMap<>();
            int total = e.getValue().values().stream().mapToInt(Integer::intValue).sum();
            for (String v : plan.switches()) {
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
            for (Arc a : switchArcs) {
                MPVariable f = lp.makeNumVar(0, MPSolver.infinity(), "f" + k + "_" + arcs.id(a));
                node.get(a.from()).setCoefficient(f, 1);
                node.get(a.to()).setCoefficient(f, -1);
                capacity.get(arcs.id(a)).setCoefficient(f, 1);
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
