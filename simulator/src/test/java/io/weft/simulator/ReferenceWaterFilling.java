package io.weft.simulator;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The textbook water-filling, written as plainly as possible over sets and without the solver's
 * heap, level bookkeeping or compressed routes: every round, each link's equal share of what is
 * left among its unfrozen flows; all unfrozen flows rise by the smallest share (or the smallest
 * gap to a demand); flows on links that are now full, or at their demand, freeze.
 */
final class ReferenceWaterFilling {
    private ReferenceWaterFilling() {
    }

    static double[] rates(double[] capacity, List<int[]> routes, double[] demand) {
        int n = routes.size();
        double[] rate = new double[n];
        Set<Integer> unfrozen = new HashSet<>();
        for (int f = 0; f < n; f++) {
            unfrozen.add(f);
        }
        while (!unfrozen.isEmpty()) {
            double step = Double.POSITIVE_INFINITY;
            for (int a = 0; a < capacity.length; a++) {
                int rising = 0;
                double load = 0;
                for (int f = 0; f < n; f++) {
                    if (crosses(routes.get(f), a)) {
                        load += rate[f];
                        if (unfrozen.contains(f)) {
                            rising++;
                        }
                    }
                }
                if (rising > 0) {
                    step = Math.min(step, (capacity[a] - load) / rising);
                }
            }
            for (int f : unfrozen) {
                step = Math.min(step, demand[f] - rate[f]);
            }
            step = Math.max(0, step);
            for (int f : unfrozen) {
                rate[f] += step;
            }
            Set<Integer> freeze = new HashSet<>();
            for (int f : unfrozen) {
                if (rate[f] >= demand[f] - 1e-9) {
                    freeze.add(f);
                }
                for (int a : routes.get(f)) {
                    double load = 0;
                    for (int g = 0; g < n; g++) {
                        if (crosses(routes.get(g), a)) {
                            load += rate[g];
                        }
                    }
                    if (load >= capacity[a] - 1e-9) {
                        freeze.add(f);
                    }
                }
            }
            if (freeze.isEmpty()) {
                throw new IllegalStateException("reference water-filling froze nothing");
            }
            unfrozen.removeAll(freeze);
        }
        return rate;
    }

    private static boolean crosses(int[] route, int arc) {
        for (int a : route) {
            if (a == arc) {
                return true;
            }
        }
        return false;
    }
}
