package io.weft.placement;

/**
 * How good the current placement is.
 *
 * @param maxLoad highest arc utilisation (sum of demands / capacity)
 * @param collisions fabric arcs (switch to switch) carrying more than t elephant flows
 * @param totalHops arcs summed over all placed flows
 * @param placedFlows flows holding a path
 */
public record Quality(double maxLoad, int collisions, long totalHops, int placedFlows) {
}
