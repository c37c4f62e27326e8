package io.weft.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** A seeded random max-min instance: arcs with capacities, flows over 1-4 distinct arcs, some with demands. */
record RandomInstance(double[] capacityGbps, List<int[]> routes, double[] demandGbps) {
    static RandomInstance of(long seed, int maxArcs, int maxFlows) {
        Random r = new Random(seed);
        int arcs = 2 + r.nextInt(maxArcs - 1);
        double[] cap = new double[arcs];
        for (int a = 0; a < arcs; a++) {
            // Mostly round figures (ties between bottlenecks are the hard case), some arbitrary, a few dead.
            int kind = r.nextInt(10);
            cap[a] = kind == 0 ? 0 : kind < 7 ? 100 * (1 + r.nextInt(4)) : 1 + 399 * r.nextDouble();
        }
        int flows = 1 + r.nextInt(maxFlows);
        List<int[]> routes = new ArrayList<>();
        double[] demand = new double[flows];
        for (int f = 0; f < flows; f++) {
            int len = 1 + r.nextInt(Math.min(4, arcs));
            List<Integer> pool = new ArrayList<>();
            for (int a = 0; a < arcs; a++) {
                pool.add(a);
            }
            java.util.Collections.shuffle(pool, r);
            int[] route = new int[len];
            for (int i = 0; i < len; i++) {
                route[i] = pool.get(i);
            }
            routes.add(route);
            demand[f] = r.nextInt(4) == 0 ? 5 + 200 * r.nextDouble() : Double.POSITIVE_INFINITY;
        }
        return new RandomInstance(cap, routes, demand);
    }

    int[] routeStart() {
        int[] s = new int[routes.size() + 1];
        for (int f = 0; f < routes.size(); f++) {
            s[f + 1] = s[f] + routes.get(f).length;
        }
        return s;
    }

    int[] routeArcs() {
        int[] s = routeStart();
        int[] out = new int[s[routes.size()]];
        for (int f = 0; f < routes.size(); f++) {
            System.arraycopy(routes.get(f), 0, out, s[f], routes.get(f).length);
        }
        return out;
    }

    double[] solve() {
        double[] rates = new double[routes.size()];
        new MaxMinSolver().solve(routes.size(), routeStart(), routeArcs(), demandGbps, capacityGbps, rates);
        return rates;
    }
}
