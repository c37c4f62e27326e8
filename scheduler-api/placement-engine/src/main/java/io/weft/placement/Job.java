package io.weft.placement;

import java.util.List;

/** A named set of flows placed and released together, in one tenant. */
public record Job(String id, String tenant, List<Flow> flows) {
    public Job {
        flows = List.copyOf(flows);
    }
}
