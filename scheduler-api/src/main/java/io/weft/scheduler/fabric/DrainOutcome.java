package io.weft.scheduler.fabric;

import java.util.List;

/**
 * What a drain or undrain did, once the controller's snapshot carrying it was applied here.
 *
 * @param state       the link's state now: drained, up, or down (a down link stays down)
 * @param moved       flow slices that got a new path
 * @param unplaced    flow slices left without a path (reported, DENIED in their agents' profiles)
 * @param maxLinkLoad highest link-direction utilisation afterwards
 * @param version     the controller's snapshot version that carries the link's state
 * @param movedFlows  ids of the flows that got a new path (each once)
 */
public record DrainOutcome(String linkId, String state, int moved, int unplaced, double maxLinkLoad, long version,
                           List<String> movedFlows) {
}
