package io.weft.placement;

/**
 * Tunables of the engine.
 *
 * @param elephantTolerance Reunion's t: a link carrying more than t elephant flows is a collision
 * @param elephantMinGbps flows at or above this demand count as elephants (0: every flow)
 * @param maxFlowsPerJob a job expanding to more flows (slices included) is rejected
 * @param maxEvsPerPair most QP slices per src/dst pair; each slice needs its own entropy value
 *     (HCCL hands out at most 32 UDP source ports per pair)
 * @param localSearchPasses budget of rip-up-and-reroute passes after the greedy placement
 * @param seed tie-break seed; the same input and seed always give the same placement
 * @param exactClos use the Clos edge-colouring assignment when its preconditions hold
 */
public record PlacementConfig(int elephantTolerance, double elephantMinGbps, int maxFlowsPerJob, int maxEvsPerPair,
                              int localSearchPasses, long seed, boolean exactClos) {
    public static final PlacementConfig DEFAULTS = new PlacementConfig(1, 0.0, 262_144, 32, 8, 1L, true);

    public PlacementConfig {
        if (elephantTolerance < 0) {
            throw new IllegalArgumentException("elephantTolerance: must be >= 0");
        }
        if (maxFlowsPerJob < 1) {
            throw new IllegalArgumentException("maxFlowsPerJob: must be >= 1");
        }
        if (maxEvsPerPair < 1) {
            throw new IllegalArgumentException("maxEvsPerPair: must be >= 1");
        }
    }

    public PlacementConfig withMaxFlowsPerJob(int v) {
        return new PlacementConfig(elephantTolerance, elephantMinGbps, v, maxEvsPerPair, localSearchPasses, seed,
                exactClos);
    }

    public PlacementConfig withExactClos(boolean v) {
        return new PlacementConfig(elephantTolerance, elephantMinGbps, maxFlowsPerJob, maxEvsPerPair,
                localSearchPasses, seed, v);
    }

    public PlacementConfig withLocalSearchPasses(int v) {
        return new PlacementConfig(elephantTolerance, elephantMinGbps, maxFlowsPerJob, maxEvsPerPair, v, seed,
                exactClos);
    }
}
