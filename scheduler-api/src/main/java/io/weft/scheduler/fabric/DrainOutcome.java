package io.weft.scheduler.fabric;

/**
 * What a drain or undrain did.
 *
 * @param state       the link's state now: drained, up, or down (a down link stays down)
 * @param moved       flow slices that got a new path
 * @param unplaced    flow slices left without a path (reported, DENIED in their agents' profiles)
 * @param maxLinkLoad highest link-direction utilisation afterwards
 */
public record DrainOutcome(String linkId, String state, int moved, int unplaced, double maxLinkLoad) {
}
