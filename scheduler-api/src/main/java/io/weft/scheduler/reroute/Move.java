package io.weft.scheduler.reroute;

import java.util.Arrays;

/**
 * One flow slice the policy decided to move, as arc indices of the engine's {@code DenseFabric}.
 *
 * @param cause what the path history records: {@code hotspot:<eventId>} or {@code link-down:<linkId>}
 * @param maxUtilAfter highest utilisation along the new path once every move of the pass is applied
 */
public record Move(String flowId, int[] fromArcs, int[] toArcs, String cause, double maxUtilAfter) {
    public static final String HOTSPOT = "hotspot:";
    public static final String LINK_DOWN = "link-down:";

    @Override
    public String toString() {
        return flowId + " " + Arrays.toString(fromArcs) + " -> " + Arrays.toString(toArcs) + " (" + cause + ")";
    }
}
