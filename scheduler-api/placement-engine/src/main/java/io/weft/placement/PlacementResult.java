package io.weft.placement;

import java.util.List;

/**
 * What one engine operation did.
 *
 * @param placed flows of the job just added (for add), or flows that got a new path
 * @param moved ids of flows that already had a path and now have another one (other jobs included)
 * @param unplaced flows left without a path, with the reason
 * @param quality the placement after the operation
 */
public record PlacementResult(List<PlacedFlow> placed, List<String> moved, List<Unplaced> unplaced,
                              Quality quality) {
    public PlacementResult {
        placed = List.copyOf(placed);
        moved = List.copyOf(moved);
        unplaced = List.copyOf(unplaced);
    }
}
