package io.weft.placement;

/**
 * Rounds a commodity's fractional path weights to whole units per flow: each flow's demand is cut
 * into {@code g} units of d_f / g, and the units (flow by flow) go one at a time to the path with
 * the largest deficit w_p·T − A_p, where T is the demand handed out so far and A_p what path p got.
 *
 * <p>Bound: the deficits sum to 0 before a unit u arrives; T grows by u, so they sum to u and the
 * largest is at least u / P ≥ 0; giving it the unit leaves it above −u. Deficits of the other
 * paths only grow. Hence every path ends with A_p &lt; w_p·D + u_max (D the commodity's demand,
 * u_max its largest unit): rounding adds less than max_f(d_f) / g to any path, and to an arc at
 * most that times the commodity's paths crossing it. Each flow's units sum to g exactly.
 *
 * <p>O(F·g·P) for F flows and P paths.
 */
final class UnitApportionment {
    private UnitApportionment() {
    }

    /** units[f][p]: units of flow f on path p; weights must sum to 1. */
    static int[][] apportion(double[] weights, double[] demands, int g) {
        int paths = weights.length;
        double[] deficit = new double[paths];
        int[][] units = new int[demands.length][paths];
        for (int f = 0; f < demands.length; f++) {
            double u = demands[f] / g;
            for (int k = 0; k < g; k++) {
                int best = 0;
                for (int p = 0; p < paths; p++) {
                    deficit[p] += weights[p] * u;
                    if (deficit[p] > deficit[best]) {
                        best = p;
                    }
                }
                deficit[best] -= u;
                units[f][best]++;
            }
        }
        return units;
    }
}
