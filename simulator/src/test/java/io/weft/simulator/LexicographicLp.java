package io.weft.simulator;

import java.util.List;

import com.google.ortools.Loader;
import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;

/**
 * Max-min fair rates by linear programming (OR-Tools GLOP), the way the definition reads rather
 * than by filling: maximise the smallest rate t of the flows not fixed yet; then every such flow
 * that cannot exceed t while all others keep at least t is fixed at t; repeat. The fixed rates of
 * each round are the bottleneck rates of that level. Slow (one LP per flow per level): small
 * instances only.
 */
final class LexicographicLp {
    private static boolean loaded;

    private LexicographicLp() {
    }

    static synchronized void load() {
        if (!loaded) {
            Loader.loadNativeLibraries();
            loaded = true;
        }
    }

    static double[] rates(double[] capacity, List<int[]> routes, double[] demand) {
        load();
        int n = routes.size();
        double[] fixed = new double[n];
        boolean[] isFixed = new boolean[n];
        int left = n;
        while (left > 0) {
            double t = solve(capacity, routes, demand, fixed, isFixed, -1, 0);
            int before = left;
            for (int f = 0; f < n; f++) {
                if (!isFixed[f] && solve(capacity, routes, demand, fixed, isFixed, f, t) <= t + 1e-7) {
                    fixed[f] = t;
                    isFixed[f] = true;
                    left--;
                }
            }
            if (left == before) {
                throw new IllegalStateException("LP fixed no flow at level " + t);
            }
        }
        return fixed;
    }

    /**
     * target < 0: maximise the common floor t of the unfixed flows. target >= 0: with every
     * unfixed flow at least {@code floor}, maximise flow {@code target}'s rate.
     */
    private static double solve(double[] capacity, List<int[]> routes, double[] demand, double[] fixed,
                                boolean[] isFixed, int target, double floor) {
        MPSolver lp = MPSolver.createSolver("GLOP");
        int n = routes.size();
        MPVariable[] x = new MPVariable[n];
        for (int f = 0; f < n; f++) {
            double hi = Double.isInfinite(demand[f]) ? MPSolver.infinity() : demand[f];
            x[f] = isFixed[f] ? lp.makeNumVar(fixed[f], fixed[f], "x" + f) : lp.makeNumVar(0, hi, "x" + f);
        }
        for (int a = 0; a < capacity.length; a++) {
            MPConstraint c = lp.makeConstraint(-MPSolver.infinity(), capacity[a], "arc" + a);
            for (int f = 0; f < n; f++) {
                for (int b : routes.get(f)) {
                    if (b == a) {
                        c.setCoefficient(x[f], 1);
                    }
                }
            }
        }
        MPVariable t = lp.makeNumVar(0, MPSolver.infinity(), "t");
        for (int f = 0; f < n; f++) {
            if (!isFixed[f]) {
                MPConstraint c = lp.makeConstraint(0, MPSolver.infinity(), "floor" + f);
                c.setCoefficient(x[f], 1);
                if (target < 0) {
                    c.setCoefficient(t, -1);
                } else {
                    c.setBounds(floor - 1e-9, MPSolver.infinity());
                }
            }
        }
        lp.objective().setCoefficient(target < 0 ? t : x[target], 1);
        lp.objective().setMaximization();
        MPSolver.ResultStatus status = lp.solve();
        if (status != MPSolver.ResultStatus.OPTIMAL) {
            throw new IllegalStateException("LP status " + status);
        }
        double v = lp.objective().value();
        lp.delete();
        return v;
    }
}
