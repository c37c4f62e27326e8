package io.weft.placement.bench;

import java.util.List;

/**
 * Max-min fair rates by progressive filling (Bertsekas and Gallager, Data Networks, 6.5.2): all
 * unfrozen flows grow together; when an arc saturates (or a flow reaches its demand) its flows
 * freeze. Every arc reaching the same level in a round freezes at once, so symmetric inputs take
 * few rounds. Rates in Gbit/s; each flow is capped at its demand.
 */
final class MaxMinFair {
    private MaxMinFair() {
    }

    static double[] rates(double[] capacityGbps, List<int[]> paths, double[] demandGbps) {
        int f = paths.size();
        int arcs = capacityGbps.length;
        double[] rem = capacityGbps.clone();
        int[] count = new int[arcs];
        double[] rate = new double[f];
        boolean[] frozen = new boolean[f];
        for (int i = 0; i < f; i++) {
            for (int a : paths.get(i)) {
                count[a]++;
            }
        }
        int active = f;
        while (active > 0) {
            double delta = Double.MAX_VALUE;
            for (int a = 0; a < arcs; a++) {
                if (count[a] > 0) {
                    delta = Math.min(delta, rem[a] / count[a]);
                }
            }
            for (int i = 0; i < f; i++) {
                if (!frozen[i]) {
                    delta = Math.min(delta, demandGbps[i] - rate[i]);
                }
            }
            delta = Math.max(delta, 0);
            for (int a = 0; a < arcs; a++) {
                if (count[a] > 0) {
                    rem[a] -= delta * count[a];
                }
            }
            for (int i = 0; i < f; i++) {
                if (!frozen[i]) {
                    rate[i] += delta;
                }
            }
            int before = active;
            for (int i = 0; i < f; i++) {
                if (frozen[i]) {
                    continue;
                }
                boolean stop = rate[i] >= demandGbps[i] * (1 - 1e-12);
                for (int a : paths.get(i)) {
                    stop |= rem[a] <= 1e-9 * capacityGbps[a];
                }
                if (stop) {
                    frozen[i] = true;
                    active--;
                    for (int a : paths.get(i)) {
                        count[a]--;
                    }
                }
            }
            if (active == before) {
                throw new IllegalStateException("progressive filling made no progress");
            }
        }
        return rate;
    }

    /**
     * The same with each flow split over several paths in fixed proportions (a NIC's weighted
     * multipath): flow f at rate r puts r·w_p on path p, so it uses arc a at Σ_{p ∋ a} w_p per unit of
     * rate, and freezes when an arc it crosses saturates or it reaches its demand.
     */
    static double[] weightedRates(double[] capacityGbps, List<int[][]> paths, List<double[]> weights,
                                  double[] demandGbps) {
        int f = paths.size();
        int arcs = capacityGbps.length;
        double[] rem = capacityGbps.clone();
        double[] use = new double[arcs];
        double[] rate = new double[f];
        boolean[] frozen = new boolean[f];
        for (int i = 0; i < f; i++) {
            for (int p = 0; p < paths.get(i).length; p++) {
                for (int a : paths.get(i)[p]) {
                    use[a] += weights.get(i)[p];
                }
            }
        }
        int active = f;
        while (active > 0) {
            double delta = Double.MAX_VALUE;
            for (int a = 0; a < arcs; a++) {
                if (use[a] > 1e-12) {
                    delta = Math.min(delta, rem[a] / use[a]);
                }
            }
            for (int i = 0; i < f; i++) {
                if (!frozen[i]) {
                    delta = Math.min(delta, demandGbps[i] - rate[i]);
                }
            }
            delta = Math.max(delta, 0);
            for (int a = 0; a < arcs; a++) {
                if (use[a] > 1e-12) {
                    rem[a] -= delta * use[a];
                }
            }
            int before = active;
            for (int i = 0; i < f; i++) {
                if (!frozen[i]) {
                    rate[i] += delta;
                }
            }
            for (int i = 0; i < f; i++) {
                if (frozen[i]) {
                    continue;
                }
                boolean stop = rate[i] >= demandGbps[i] * (1 - 1e-12);
                for (int[] path : paths.get(i)) {
                    for (int a : path) {
                        stop |= rem[a] <= 1e-9 * capacityGbps[a];
                    }
                }
                if (stop) {
                    frozen[i] = true;
                    active--;
                    for (int p = 0; p < paths.get(i).length; p++) {
                        for (int a : paths.get(i)[p]) {
                            use[a] -= weights.get(i)[p];
                        }
                    }
                }
            }
            if (active == before) {
                throw new IllegalStateException("progressive filling made no progress");
            }
        }
        return rate;
    }

    static double min(double[] v) {
        double m = Double.MAX_VALUE;
        for (double x : v) {
            m = Math.min(m, x);
        }
        return v.length == 0 ? 0 : m;
    }
}
