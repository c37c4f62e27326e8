package io.weft.placement.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.weft.placement.Candidates;
import io.weft.placement.DenseFabric;

/**
 * ECMP baseline: every flow hashed (ideally: uniformly at random) onto one of its shortest paths,
 * averaged over seeds: expected max arc load and expected slowest max-min fair rate.
 */
final class Ecmp {
    private Ecmp() {
    }

    record Result(double expectedMaxLoad, double expectedSlowestGbps) {
    }

    static Result run(Candidates c, int[] src, int[] dst, double[] demand, int seeds, boolean fairness) {
        DenseFabric ix = c.index();
        double[] cap = new double[ix.arcCount()];
        for (int a = 0; a < cap.length; a++) {
            cap[a] = ix.capacityGbps(a);
        }
        double sumMax = 0;
        double sumSlow = 0;
        for (int seed = 0; seed < seeds; seed++) {
            Random rnd = new Random(seed);
            double[] load = new double[cap.length];
            List<int[]> paths = new ArrayList<>(src.length);
            List<Double> dem = new ArrayList<>();
            for (int i = 0; i < src.length; i++) {
                int[] p = c.sampleShortest(src[i], dst[i], rnd);
                if (p == null) {
                    continue; // no surviving path: the same flows are unplaced for Weft
                }
                paths.add(p);
                dem.add(demand[i]);
                for (int a : p) {
                    load[a] += demand[i];
                }
            }
            double max = 0;
            for (int a = 0; a < cap.length; a++) {
                max = Math.max(max, load[a] / cap[a]);
            }
            sumMax += max;
            if (fairness) {
                sumSlow += MaxMinFair.min(MaxMinFair.rates(cap, paths, dem.stream().mapToDouble(Double::doubleValue)
                        .toArray()));
            }
        }
        return new Result(sumMax / seeds, fairness ? sumSlow / seeds : Double.NaN);
    }
}
