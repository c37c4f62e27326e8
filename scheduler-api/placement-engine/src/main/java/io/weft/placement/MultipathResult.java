package io.weft.placement;

import java.util.List;

/**
 * A job's weighted multipath placement and how far it can be from the best splittable one.
 * Loads are max arc utilisations over the job's own flows (NIC arcs included).
 *
 * @param flows every flow holding a path, with its weighted paths
 * @param unplaced flows without any surviving path
 * @param fallback null when the flows are spread; otherwise why the result is the integral
 *     (one path per flow) placement
 * @param singlePathMaxLoad the integral placement's max load (the engine's, for comparison)
 * @param splittableOptimum the LP optimum over the candidate paths (NaN on fallback, and when column
 *     generation stopped at its time budget before converging: then only the lower bound is proven)
 * @param lowerBound a proven lower bound on the max load of any splittable routing over the
 *     candidate paths (from the LP duals; equals the optimum when column generation converged)
 * @param fractionalMaxLoad max load of the weights before rounding, after the path-count limit
 * @param maxLoad max load of the rounded weights actually handed out
 * @param roundingBound rounding may add at most this to the fractional max load (see
 *     {@link ColumnGenerationMultipath})
 * @param gapBound maxLoad / lowerBound - 1: the result is at most this far from the optimum
 * @param iterations column generation rounds (LP solves)
 * @param columns paths the LP held at the end
 * @param granularBound a proven lower bound on the max load of any routing in whole units of
 *     1/granularity ({@link GranularBound}: the lower bound raised to the next load whole units make);
 *     above the optimum by more than the target gap, the granularity itself misses the gap (NaN on
 *     fallbacks without a bound)
 */
public record MultipathResult(List<MultipathFlow> flows, List<Unplaced> unplaced, String fallback,
                              double singlePathMaxLoad, double splittableOptimum, double lowerBound,
                              double fractionalMaxLoad, double maxLoad, double roundingBound, double gapBound,
                              int iterations, int columns, double granularBound) {
    public MultipathResult {
        flows = List.copyOf(flows);
        unplaced = List.copyOf(unplaced);
    }

    /** Without a granular bound (NaN). */
    public MultipathResult(List<MultipathFlow> flows, List<Unplaced> unplaced, String fallback,
                           double singlePathMaxLoad, double splittableOptimum, double lowerBound,
                           double fractionalMaxLoad, double maxLoad, double roundingBound, double gapBound,
                           int iterations, int columns) {
        this(flows, unplaced, fallback, singlePathMaxLoad, splittableOptimum, lowerBound, fractionalMaxLoad, maxLoad,
                roundingBound, gapBound, iterations, columns, Double.NaN);
    }

    /**
     * True when whole units of 1/granularity cannot come within {@code gap} of the splittable
     * optimum (or, without one, of the lower bound): the granular bound is above it.
     */
    public boolean granularityMisses(double gap) {
        double ref = Double.isFinite(splittableOptimum) ? splittableOptimum : lowerBound;
        return granularBound > ref * (1 + gap) + 1e-9;
    }

    /** Most paths any flow uses. */
    public int maxPathsPerFlow() {
        int m = 0;
        for (MultipathFlow f : flows) {
            m = Math.max(m, f.paths().size());
        }
        return m;
    }

    /** Paths per flow, averaged over the placed flows. */
    public double meanPathsPerFlow() {
        long n = 0;
        for (MultipathFlow f : flows) {
            n += f.paths().size();
        }
        return flows.isEmpty() ? 0 : n / (double) flows.size();
    }
}
