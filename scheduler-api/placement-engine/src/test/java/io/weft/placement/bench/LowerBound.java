package io.weft.placement.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.ortools.Loader;
import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import io.weft.fabric.Node;
import io.weft.placement.Candidates;
import io.weft.placement.DenseFabric;

/**
 * Lower bounds on the max arc load any placement over the engine's candidate paths can reach.
 *
 * <p>"lp": the fractional min-max multicommodity flow over the candidate paths, solved with
 * OR-Tools GLOP. A single-port NIC's arcs carry a fixed load whatever the paths, so they enter as a
 * constant and those commodities are aggregated per (ingress switch, egress switch) pair, which is
 * exact; a flow of a multi-port (multi-plane) NIC is its own commodity over every port pair, its
 * NIC arcs rows like switch arcs. Used when the
 * LP has at most {@link #MAX_LP_VARIABLES} path variables.
 *
 * <p>"cut": for larger inputs, max over NIC arcs of their load and over switch sets (each switch;
 * each pod / group) of the demand that must leave (enter) the set divided by the capacity of the
 * usable arcs leaving (entering) it. Valid, usually weaker.
 */
final class LowerBound {
    static final int MAX_LP_VARIABLES = 400_000;
    private static boolean loaded;

    record Bound(double value, String kind) {
    }

    private LowerBound() {
    }

    static Bound of(Candidates c, int[] src, int[] dst, double[] demand, boolean valiant) {
        DenseFabric ix = c.index();
        double nic = nicBound(ix, src, dst, demand);
        double cut = Math.max(nic, Math.max(cutBound(ix, src, dst, demand), globalVolumeBound(ix, src, dst, demand)));
        // Commodities: (ingress, egress) switch pairs with their total demand, in first-seen order.
        Map<Long, double[]> pairs = new LinkedHashMap<>();
        Map<Long, int[]> rep = new HashMap<>();
        for (int i = 0; i < src.length; i++) {
            int s = attach(ix, src[i]);
            int d = attach(ix, dst[i]);
            if (s < 0 || d < 0) {
                continue;
            }
            // A multi-port NIC may split its flow over its ports: its own commodity, NIC arcs as rows
            // (negative keys); single-port NICs aggregate per switch pair as before.
            boolean multi = multiPort(ix, src[i]) || multiPort(ix, dst[i]);
            if (!multi && s == d) {
                continue;
            }
            long key = multi ? -1 - ((long) src[i] * ix.arcCount() + dst[i]) : (long) s * ix.arcCount() + d;
            pairs.computeIfAbsent(key, k -> new double[1])[0] += demand[i];
            rep.putIfAbsent(key, new int[] {src[i], dst[i]});
        }
        List<double[]> dem = new ArrayList<>();
        List<List<int[]>> paths = new ArrayList<>();
        List<Long> keys = new ArrayList<>();
        long vars = 0;
        for (Map.Entry<Long, double[]> e : pairs.entrySet()) {
            int[] r = rep.get(e.getKey());
            long n = c.countShortest(r[0], r[1]);
            vars += n;
            if (vars > MAX_LP_VARIABLES) {
                return new Bound(cut, "cut");
            }
            List<int[]> ps = c.enumerate(r[0], r[1], valiant, MAX_LP_VARIABLES);
            vars += ps.size() - n;
            if (vars > MAX_LP_VARIABLES) {
                return new Bound(cut, "cut");
            }
            dem.add(e.getValue());
            paths.add(ps);
            keys.add(e.getKey());
        }
        if (paths.isEmpty()) {
            return new Bound(nic, "lp");
        }
        synchronized (LowerBound.class) {
            if (!loaded) {
                Loader.loadNativeLibraries();
                loaded = true;
            }
        }
        MPSolver solver = MPSolver.createSolver("GLOP");
        MPVariable lambda = solver.makeNumVar(nic, MPSolver.infinity(), "lambda");
        Map<Integer, MPConstraint> arcRows = new HashMap<>();
        for (int k = 0; k < paths.size(); k++) {
            MPConstraint sum = solver.makeConstraint(dem.get(k)[0], dem.get(k)[0]);
            boolean nicRows = keys.get(k) < 0;
            for (int[] p : paths.get(k)) {
                MPVariable x = solver.makeNumVar(0, MPSolver.infinity(), "");
                sum.setCoefficient(x, 1);
                // Switch arcs only: NIC arcs (first and last) of single-port NICs are accounted for by
                // the constant bound; a multi-port NIC's ports are rows like switch arcs.
                for (int j = nicRows ? 0 : 1; j < (nicRows ? p.length : p.length - 1); j++) {
                    int a = p[j];
                    MPConstraint row = arcRows.get(a);
                    if (row == null) {
                        row = solver.makeConstraint(-MPSolver.infinity(), 0);
                        row.setCoefficient(lambda, -ix.capacityGbps(a));
                        arcRows.put(a, row);
                    }
                    row.setCoefficient(x, row.getCoefficient(x) + 1);
                }
            }
        }
        MPObjective obj = solver.objective();
        obj.setCoefficient(lambda, 1);
        obj.setMinimization();
        MPSolver.ResultStatus st = solver.solve();
        if (st != MPSolver.ResultStatus.OPTIMAL) {
            return new Bound(cut, "cut");
        }
        double lp = lambda.solutionValue();
        solver.delete();
        return new Bound(Math.max(lp, nic), "lp");
    }

    /**
     * With equal demands d and equal arc capacities c every arc load is a multiple of d/c, so a
     * fractional bound rounds up to the next multiple ("+int" in the kind).
     */
    static Bound integral(Bound b, DenseFabric ix, double[] demand) {
        if (demand.length == 0) {
            return b;
        }
        for (double d : demand) {
            if (Math.abs(d - demand[0]) > 1e-9 * demand[0]) {
                return b;
            }
        }
        double cap = -1;
        for (int a = 0; a < ix.arcCount(); a++) {
            if (!ix.usable(a)) {
                continue;
            }
            if (cap < 0) {
                cap = ix.capacityGbps(a);
            } else if (Math.abs(ix.capacityGbps(a) - cap) > 1e-9 * cap) {
                return b;
            }
        }
        double granule = demand[0] / cap;
        double rounded = Math.ceil(b.value() / granule - 1e-6) * granule;
        return rounded > b.value() + 1e-9 ? new Bound(rounded, b.kind() + "+int") : b;
    }

    private static int attach(DenseFabric ix, int nic) {
        // The NIC's switch, via its first usable arc; -1 when the NIC's link is down.
        int up = upArc(ix, nic);
        return up < 0 ? -1 : ix.to(up);
    }

    private static final Map<DenseFabric, int[]> UP = new java.util.WeakHashMap<>();

    private static int upArc(DenseFabric ix, int nic) {
        int[] ups = UP.computeIfAbsent(ix, k -> {
            int[] u = new int[k.fabric().nodes().size()];
            java.util.Arrays.fill(u, -1);
            for (int a = 0; a < k.arcCount(); a++) {
                int from = k.from(a);
                if (k.role(from) == io.weft.fabric.Role.NIC && k.usable(a) && u[from] < 0
                        && k.role(k.to(a)).isSwitch()) {
                    u[from] = a;
                }
            }
            return u;
        });
        return ups[nic];
    }

    static double nicBound(DenseFabric ix, int[] src, int[] dst, double[] demand) {
        double[] out = new double[ix.fabric().nodes().size()];
        double[] in = new double[out.length];
        for (int i = 0; i < src.length; i++) {
            if (upArc(ix, src[i]) < 0 || upArc(ix, dst[i]) < 0) {
                continue;
            }
            out[src[i]] += demand[i];
            in[dst[i]] += demand[i];
        }
        double b = 0;
        for (int n = 0; n < out.length; n++) {
            int up = upArc(ix, n);
            if (up >= 0) {
                double cap = 0;
                for (int p : ix.nicPorts(n)) {
                    cap += ix.capacityGbps(p);
                }
                b = Math.max(b, Math.max(out[n], in[n]) / cap);
            }
        }
        return b;
    }

    /** A NIC with more than one working port (multi-plane): its flows may use any of them. */
    private static boolean multiPort(DenseFabric ix, int nic) {
        return ix.role(nic) == io.weft.fabric.Role.NIC && ix.nicPorts(nic).length > 1;
    }

    /**
     * Direct networks with groups (Dragonfly): at max load L the direct A-B global arcs carry at most
     * L x their capacity of the A-to-B demand; the rest needs at least two global hops. So
     * sum over group pairs of D_AB + max(0, D_AB - L c_AB) must fit in L x all global capacity; the
     * least such L (bisection) is a lower bound for any routing. 0 when the fabric has no groups.
     */
    static double globalVolumeBound(DenseFabric ix, int[] src, int[] dst, double[] demand) {
        Map<Long, double[]> pair = new HashMap<>(); // (group A, group B) -> {demand, direct capacity}
        double total = 0;
        int groups = 0;
        for (int a = 0; a < ix.arcCount(); a++) {
            Node x = ix.fabric().nodes().get(ix.from(a));
            Node y = ix.fabric().nodes().get(ix.to(a));
            if (!ix.usable(a) || x.role() != io.weft.fabric.Role.ROUTER || y.role() != io.weft.fabric.Role.ROUTER
                    || x.group() == null || y.group() == null || x.group().equals(y.group())) {
                continue;
            }
            groups = Math.max(groups, Math.max(x.group(), y.group()) + 1);
            total += ix.capacityGbps(a);
            pair.computeIfAbsent((long) x.group() * 1_000_000 + y.group(), k -> new double[2])[1] += ix.capacityGbps(a);
        }
        if (total == 0) {
            return 0;
        }
        for (int i = 0; i < src.length; i++) {
            int us = upArc(ix, src[i]);
            int ud = upArc(ix, dst[i]);
            if (us < 0 || ud < 0 || multiPort(ix, src[i]) || multiPort(ix, dst[i])) {
                continue; // leaving out demand keeps the bound valid; a multi-port NIC's side is not fixed
            }
            Integer ga = ix.fabric().nodes().get(ix.to(us)).group();
            Integer gb = ix.fabric().nodes().get(ix.to(ud)).group();
            if (ga != null && gb != null && !ga.equals(gb)) {
                pair.computeIfAbsent((long) ga * 1_000_000 + gb, k -> new double[2])[0] += demand[i];
            }
        }
        double lo = 0;
        double hi = 1;
        while (need(pair, hi) > hi * total) {
            hi *= 2;
        }
        for (int it = 0; it < 60; it++) {
            double mid = (lo + hi) / 2;
            if (need(pair, mid) > mid * total) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static double need(Map<Long, double[]> pair, double load) {
        double n = 0;
        for (double[] v : pair.values()) {
            n += v[0] + Math.max(0, v[0] - load * v[1]);
        }
        return n;
    }

    /** Cut bound over each switch and each pod/group (a switch set plus the NICs hanging off it). */
    static double cutBound(DenseFabric ix, int[] src, int[] dst, double[] demand) {
        int n = ix.fabric().nodes().size();
        // Set id per node: "sw:<index>" for each switch; "pod:<p>" / "group:<g>" for grouped switches.
        List<Map<Integer, Integer>> families = new ArrayList<>();
        Map<Integer, Integer> single = new HashMap<>();
        Map<Integer, Integer> grouped = new HashMap<>();
        for (int v = 0; v < n; v++) {
            if (!ix.role(v).isSwitch()) {
                continue;
            }
            single.put(v, v);
            Node node = ix.fabric().nodes().get(v);
            Integer g = node.pod() != null ? node.pod() : node.group();
            if (g != null && ix.role(v) != io.weft.fabric.Role.SUPERSPINE) {
                grouped.put(v, g);
            }
        }
        families.add(single);
        if (!grouped.isEmpty()) {
            families.add(grouped);
        }
        double best = 0;
        for (Map<Integer, Integer> setOf : families) {
            Map<Integer, double[]> flow = new HashMap<>(); // set -> {out demand, in demand}
            for (int i = 0; i < src.length; i++) {
                int us = upArc(ix, src[i]);
                int ud = upArc(ix, dst[i]);
                if (us < 0 || ud < 0 || multiPort(ix, src[i]) || multiPort(ix, dst[i])) {
                    continue; // leaving out demand keeps the bound valid; a multi-port NIC's side is not fixed
                }
                Integer a = setOf.get(ix.to(us));
                Integer b = setOf.get(ix.to(ud));
                if (a != null && b != null && !a.equals(b)) {
                    flow.computeIfAbsent(a, k -> new double[2])[0] += demand[i];
                    flow.computeIfAbsent(b, k -> new double[2])[1] += demand[i];
                }
            }
            Map<Integer, double[]> cap = new HashMap<>();
            for (int arc = 0; arc < ix.arcCount(); arc++) {
                if (!ix.usable(arc) || !ix.role(ix.from(arc)).isSwitch() || !ix.role(ix.to(arc)).isSwitch()) {
                    continue;
                }
                Integer a = setOf.get(ix.from(arc));
                Integer b = setOf.get(ix.to(arc));
                if (a != null && !a.equals(b)) {
                    cap.computeIfAbsent(a, k -> new double[2])[0] += ix.capacityGbps(arc);
                }
                if (b != null && !b.equals(a)) {
                    cap.computeIfAbsent(b, k -> new double[2])[1] += ix.capacityGbps(arc);
                }
            }
            for (Map.Entry<Integer, double[]> e : flow.entrySet()) {
                double[] c = cap.getOrDefault(e.getKey(), new double[2]);
                for (int d = 0; d < 2; d++) {
                    if (e.getValue()[d] > 0) {
                        best = Math.max(best, c[d] == 0 ? Double.POSITIVE_INFINITY : e.getValue()[d] / c[d]);
                    }
                }
            }
        }
        return best;
    }
}
