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
 */
public record MultipathResult(List<MultipathFlow> flows, List<Unplaced> unplaced, String fallback,
                              double singlePathMaxLoad, double splittableOptimum, double lowerBound,
                              double fractionalMaxLoad, double maxLoad, double roundingBound, double gapBound,
                              int iterations, int columns) {
    public MultipathResult {
        flows = List.copyOf(flows);
        unplaced = List.copyOf(unplaced);
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
