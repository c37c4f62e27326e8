package io.weft.controller.onos;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Read access to the current Weft plan, for the CLI (and a REST resource later). */
public interface WeftPlanService {
    /** The current plan, or null when none was computed on this instance (not the plan owner, no fabric yet). */
    PlanState current();

    /**
     * The rendered device intent (gNMI SetRequest replace payloads) of one switch, named by its
     * ONOS device id or its fabric node id; null when the plan does not know that switch.
     */
    ObjectNode intent(String deviceOrNodeId);

    /** Whether this instance computes the plan (it is master of the lowest-id Weft device). */
    boolean isPlanOwner();

    /** Where snapshots go: "weft.fabric on host:port", or the ONOS log when Kafka is not set. */
    String snapshotDestination();
}
