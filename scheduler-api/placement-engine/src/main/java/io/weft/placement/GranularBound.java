package io.weft.placement;

/**
 * A lower bound on the max load of any routing whose weights are whole units of 1/g: the
 * splittable bound raised to the next load whole units can make on an arc.
 *
 * <p>Every flow's unit d_f / g is a multiple of q = gcd(d_f) / g, so an arc's load is its fixed load
 * F_a plus a multiple of q. Such a routing is also a splittable one, so some switch arc reaches
 * λ (any proven lower bound on the splittable max); on that arc the load is at least the first
 * F_a + k·q ≥ λ·c_a. The minimum of that over the switch arcs bounds the max. With line-rate flows
 * and equal links it is λ rounded up to sixteenths at g = 16: a leaf of 16 NICs and 15 working
 * uplinks has a splittable optimum of 16/15 = 1.067, and no routing in sixteenths beats 18/16 =
 * 1.125 (256 units on 15 links), 5.5 % above it: the granularity, not the solver, misses 5 % there.
 *
 * <p>Demands that are not whole kbit/s (the engine's load unit) give no lattice: the bound is then
 * λ itself. O(flows + arcs).
 */
final class GranularBound {
    /** Slack for floating error when a bound sits on a lattice point. */
    private static final double EPS = 1e-7;

    private GranularBound() {
    }

    /**
     * @param lower a proven lower bound on the splittable max switch-arc utilisation
     * @param demandsGbps the demands of the flows that may move (their units make the lattice)
     * @param fixedGbps load per arc no routing of these flows changes
     * @param counted the switch arcs (the only ones whose load depends on the routing)
     */
    static double of(double lower, double[] demandsGbps, int g, double[] fixedGbps, double[] capacityGbps,
                     boolean[] counted) {
        long gcd = 0;
        for (double d : demandsGbps) {
            long kbps = Math.round(d * 1e6);
            if (kbps <= 0 || Math.abs(kbps - d * 1e6) > 1e-3) {
                return lower;
            }
            gcd = gcd(gcd, kbps);
        }
        if (gcd == 0 || !(lower > 0)) {
            return lower;
        }
        double q = gcd / 1e6 / g;
        double best = Double.POSITIVE_INFINITY;
        for (int a = 0; a < counted.length; a++) {
            if (!counted[a]) {
                continue;
            }
            double c = capacityGbps[a];
            double need = lower * c - fixedGbps[a];
            double reach = need <= 0 ? fixedGbps[a] : fixedGbps[a] + Math.ceil(need / q - EPS) * q;
            best = Math.min(best, reach / c);
        }
        return Double.isFinite(best) ? Math.max(lower, best) : lower;
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
