package io.weft.placement;

import java.util.List;

import io.weft.fabric.Arc;

/**
 * One of a flow's paths with its share: {@code units} of the job's granularity, {@code weight} =
 * units / granularity. The encoding was proven by the forwarding walk like a single path's.
 */
public record WeightedPath(List<Arc> path, FlowEncoding encoding, int units, double weight) {
    public WeightedPath {
        path = List.copyOf(path);
    }
}
