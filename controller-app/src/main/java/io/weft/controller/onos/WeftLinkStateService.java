package io.weft.controller.onos;

/**
 * Operator drains, the ONOS side of the controller's {@code PUT /links/{id}/state}
 * (contracts/auth.md: an operator's door): a drained link stays in the fabric and the plan but is
 * published as {@code drained} in the snapshot's link states, so scheduler-api moves flows off it.
 * Held by the instance that plans; carried over a failover by the last published snapshot.
 */
public interface WeftLinkStateService {
    /**
     * Drains a link ({@code true}) or returns it to service, re-planning at once when that changes
     * anything.
     *
     * @return the link's state in the version that carries the change (a link ONOS sees down stays down)
     * @throws IllegalArgumentException no such link in the current fabric (message names it)
     * @throws IllegalStateException    this instance cannot answer: it does not plan, no plan yet, or
     *                                  the re-plan failed (message says which)
     */
    LinkStateChange setDrained(String linkId, boolean drained);
}
