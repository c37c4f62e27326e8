package io.weft.placement;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.ortools.Loader;
import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;

/**
 * The best rounding of a {@link UnitRepair.Problem} over the same kept paths, a MILP solved by SCIP
 * (OR-Tools' CP-SAT needs a newer protobuf-java than the module's): the least
 * max utilisation reachable with every flow in whole units of 1/g on its commodity's kept paths.
 * Flows of one commodity with equal units are interchangeable (a flow may use all kept paths), so
 * the model has one integer per (commodity, unit size, path): the units that group puts there.
 * Utilisations are scaled by {@link #SCALE}; exact for demands and capacities whose unit shares
 * are multiples of 1/SCALE (line-rate, 1/2 and 1/4 demands at g ≤ 64). Tests only.
 */
final class ExactRounding {
    static final long SCALE = 1_000_000;

    /** Best max load found, and the solver's proven lower bound on it (equal when optimal). */
    record Answer(double best, double bound, boolean optimal, double seconds) {
    }

    private ExactRounding() {
    }

    static Answer solve(UnitRepair.Problem pr, double timeLimitSeconds) {
        Loader.loadNativeLibraries();
        MPSolver m = MPSolver.createSolver("SCIP");
        if (m == null) {
            throw new IllegalStateException("OR-Tools has no SCIP here");
        }
        try {
            return solve(m, pr, timeLimitSeconds);
        } finally {
            m.delete();
        }
    }

    private static Answer solve(MPSolver m, UnitRepair.Problem pr, double timeLimitSeconds) {
        int arcs = pr.load().length;
        // Loads the variables do not carry: the input loads minus every unit's contribution.
        double[] base = pr.load().clone();
        List<List<Object[]>> terms = new ArrayList<>(arcs); // arc -> {variable, coefficient}
        for (int a = 0; a < arcs; a++) {
            terms.add(new ArrayList<>());
        }
        for (int c = 0; c < pr.paths().length; c++) {
            int[][] ks = pr.paths()[c];
            Map<Double, int[]> groups = new LinkedHashMap<>(); // unit size -> {flows}
            for (int j = 0; j < pr.units()[c].length; j++) {
                double unit = pr.unitGbps()[c][j];
                groups.computeIfAbsent(unit, k -> new int[1])[0]++;
                for (int p = 0; p < ks.length; p++) {
                    for (int a : ks[p]) {
                        base[a] -= unit * pr.units()[c][j][p];
                    }
                }
            }
            for (Map.Entry<Double, int[]> e : groups.entrySet()) {
                double total = (double) e.getValue()[0] * pr.g();
                MPConstraint sum = m.makeConstraint(total, total);
                for (int p = 0; p < ks.length; p++) {
                    MPVariable n = m.makeIntVar(0, total, "n" + c + "_" + p);
                    sum.setCoefficient(n, 1);
                    for (int a : ks[p]) {
                        if (pr.counted()[a]) {
                            terms.get(a).add(new Object[] {n, Math.round(e.getKey() * SCALE / pr.capacity()[a])});
                        }
                    }
                }
            }
        }
        long constant = 0;
        for (int a = 0; a < arcs; a++) {
            if (pr.counted()[a]) {
                constant = Math.max(constant, Math.round(Math.max(0, base[a]) * SCALE / pr.capacity()[a]));
            }
        }
        MPVariable z = m.makeNumVar(constant, Double.POSITIVE_INFINITY, "z");
        for (int a = 0; a < arcs; a++) {
            if (!pr.counted()[a] || terms.get(a).isEmpty()) {
                continue;
            }
            // base + sum coef * n <= z
            long b = Math.round(Math.max(0, base[a]) * SCALE / pr.capacity()[a]);
            MPConstraint row = m.makeConstraint(Double.NEGATIVE_INFINITY, -b);
            row.setCoefficient(z, -1);
            for (Object[] t : terms.get(a)) {
                MPVariable v = (MPVariable) t[0];
                row.setCoefficient(v, row.getCoefficient(v) + (Long) t[1]);
            }
        }
        MPObjective obj = m.objective();
        obj.setCoefficient(z, 1);
        obj.setMinimization();
        m.setTimeLimit((long) (timeLimitSeconds * 1000));
        long t0 = System.nanoTime();
        MPSolver.ResultStatus st = m.solve();
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (st != MPSolver.ResultStatus.OPTIMAL && st != MPSolver.ResultStatus.FEASIBLE) {
            throw new IllegalStateException("SCIP: " + st);
        }
        return new Answer(obj.value() / SCALE, obj.bestBound() / SCALE, st == MPSolver.ResultStatus.OPTIMAL,
                seconds);
    }
}
