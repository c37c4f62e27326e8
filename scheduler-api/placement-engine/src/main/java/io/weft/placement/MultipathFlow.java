package io.weft.placement;

import java.util.List;

/**
 * A flow spread over weighted paths; the weights sum to exactly 1 (the units to the granularity).
 *
 * @param note null, or why this flow kept a single path although its job allows several
 */
public record MultipathFlow(Flow flow, List<WeightedPath> paths, String note) {
    public MultipathFlow {
        paths = List.copyOf(paths);
    }
}
