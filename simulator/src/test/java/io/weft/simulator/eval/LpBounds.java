package io.weft.simulator.eval;

import com.google.ortools.Loader;
import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import io.weft.fabric.Arc;
import io.weft.plan.FabricPlan;
import io.weft.simulator.ArcTable;

import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * LP bounds for a set of equal-demand NIC-to-NIC flows over the shortest switch paths of the
 * surviving fabric (the path family ECMP hashes over), flows splittable (fractional routing),
 * solved with OR-Tools GLOP. Commodities are aggregated per (source switch, destination switch),
 * which is exact for splittable flows; NIC links enter with their fixed loads.
 *
 * <p>{@code minMaxLoad}: the least possible max link load (load / capacity). {@code maxMinRate}:
 * the largest rate every flow can get at once (maximum concurrent flow), an upper bound on any
 * routing's slowest max-min rate; size / maxMinRate bounds the collective's completion time.
 */
final class LpBounds {
    record Result(double minMaxLoad, double maxMinRateGbps, int pathVariables) {
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
        double[] cap = new double[arcs.size()];
        for (int a = 0; a < cap.length; a++) {
            cap[a] = failed[a] ? 0 : arcs.capacityGbps(a);
        }
        Map<String, Integer> sw = new HashMap<>();
        for (String s : plan.switches()) {
            sw.put(s, sw.size());
        }
        // Fixed NIC-link flow counts, and switch-pair commodities with their flow counts.
        double[] nicFlows = new double[arcs.size()];
        Map<String, int[]> pairs = new LinkedHashMap<>();
        for (String[] f : flows) {
            Arc up = plan.attachment(f[0]);
            Arc home = plan.attachment(f[1]);
            Arc down = new Arc(home.link(), home.to());
            nicFlows[arcs.id(up)]++;
            nicFlows[arcs.id(down)]++;
            if (!up.to().equals(home.to())) {
                pairs.computeIfAbsent(up.to() + ">" + home.to(), k -> new int[1])[0]++;
            }
        }
        Map<String, int[]> dist = new HashMap<>();
        List<List<int[]>> paths = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        int vars = 0;
        for (Map.Entry<String, int[]> e : pairs.entrySet()) {
            String[] st = e.getKey().split(">");
            int[] d = dist.computeIfAbsent(st[1], t -> bfs(plan, arcs, failed, sw, t));
            List<int[]> ps = new ArrayList<>();
            enumerate(plan, arcs, failed, sw, d, st[0], new ArrayList<>(), ps);
            if (ps.isEmpty()) {
                return new Result(Double.POSITIVE_INFINITY, 0, vars); // some pair is cut off
            }
            paths.add(ps);
            counts.add(e.getValue()[0]);
            vars += ps.size();
        }
        double minMax = solve(cap, nicFlows, paths, counts, demandGbps, true);
        double maxMin = solve(cap, nicFlows, paths, counts, demandGbps, false);
        return new Result(minMax, maxMin, vars);
    }

    /**
     * loadMode: minimise U with every commodity routed at full demand and load <= U * capacity.
     * Otherwise maximise t with every flow at rate t and load <= capacity.
     */
    private static double solve(double[] cap, double[] nicFlows, List<List<int[]>> paths, List<Integer> counts,
                                double demand, boolean loadMode) {
        MPSolver lp = MPSolver.createSolver("GLOP");
        MPVariable u = lp.makeNumVar(0, MPSolver.infinity(), loadMode ? "U" : "t");
        List<List<MPVariable>> x = new ArrayList<>();
        List<List<Integer>> arcVars = new ArrayList<>();
        Map<Integer, MPConstraint> arcRows = new HashMap<>();
        for (int c = 0; c < paths.size(); c++) {
            List<MPVariable> xs = new ArrayList<>();
            MPConstraint route = lp.makeConstraint(0, 0, "route" + c);
            for (int p = 0; p < paths.get(c).size(); p++) {
                MPVariable v = lp.makeNumVar(0, MPSolver.infinity(), "x" + c + "_" + p);
                xs.add(v);
                route.setCoefficient(v, 1);
                for (int a : paths.get(c).get(p)) {
                    arcRow(lp, arcRows, a, cap, nicFlows, demand, u, loadMode).setCoefficient(v, 1);
                }
            }
            if (loadMode) {
                route.setBounds(counts.get(c) * demand, counts.get(c) * demand);
            } else {
                route.setCoefficient(u, -counts.get(c));
            }
            x.add(xs);
        }
        for (int a = 0; a < cap.length; a++) {
            if (nicFlows[a] > 0) {
                arcRow(lp, arcRows, a, cap, nicFlows, demand, u, loadMode);
            }
        }
        lp.objective().setCoefficient(u, 1);
        if (loadMode) {
            lp.objective().setMinimization();
        } else {
            lp.objective().setMaximization();
        }
        MPSolver.ResultStatus status = lp.solve();
        if (status != MPSolver.ResultStatus.OPTIMAL) {
            throw new IllegalStateException("LP " + (loadMode ? "min-max load" : "max-min rate") + ": " + status);
        }
        double v = lp.objective().value();
        lp.delete();
        return v;
    }

    /** load_a (+ NIC load) - U * cap_a <= 0, or load_a + nicFlows_a * t <= cap_a. */
    private static MPConstraint arcRow(MPSolver lp, Map<Integer, MPConstraint> rows, int a, double[] cap,
                                       double[] nicFlows, double demand, MPVariable u, boolean loadMode) {
        MPConstraint c = rows.get(a);
        if (c == null) {
            if (loadMode) {
                c = lp.makeConstraint(-MPSolver.infinity(), -nicFlows[a] * demand, "arc" + a);
                c.setCoefficient(u, -cap[a]);
            } else {
                c = lp.makeConstraint(-MPSolver.infinity(), cap[a], "arc" + a);
                c.setCoefficient(u, nicFlows[a]);
            }
            rows.put(a, c);
        }
        return c;
    }

    private static int[] bfs(FabricPlan plan, ArcTable arcs, boolean[] failed, Map<String, Integer> sw, String target) {
        int[] d = new int[sw.size()];
        Arrays.fill(d, -1);
        d[sw.get(target)] = 0;
        ArrayDeque<String> q = new ArrayDeque<>(List.of(target));
        while (!q.isEmpty()) {
            String x = q.poll();
            for (Arc a : plan.switchArcs(x)) {
                int y = sw.get(a.to());
                if (d[y] < 0 && !failed[arcs.id(a)]) {
                    d[y] = d[sw.get(x)] + 1;
                    q.add(a.to());
                }
            }
        }
        return d;
    }

    private static void enumerate(FabricPlan plan, ArcTable arcs, boolean[] failed, Map<String, Integer> sw, int[] d,
                                  String at, List<Integer> prefix, List<int[]> out) {
        int here = d[sw.get(at)];
        if (here == 0) {
            out.add(prefix.stream().mapToInt(Integer::intValue).toArray());
            return;
        }
        if (here < 0) {
            return;
        }
        for (Arc a : plan.switchArcs(at)) {
            int id = arcs.id(a);
            if (!failed[id] && d[sw.get(a.to())] == here - 1) {
                prefix.add(id);
                enumerate(plan, arcs, failed, sw, d, a.to(), prefix, out);
                prefix.remove(prefix.size() - 1);
            }
        }
    }
}
