package io.weft.placement;

import java.util.List;

/**
 * A named set of flows placed and released together, in one tenant.
 *
 * @param homePortsOnly every flow leaves and arrives by its NICs' home ports (their first working
 *                      link): a job routed by entropy values needs it where a NIC has two ports into
 *                      one plane (packets to it arrive by one of them only); otherwise, one port per
 *                      plane included, paths may use any port
 */
public record Job(String id, String tenant, List<Flow> flows, boolean homePortsOnly) {
    public Job {
        flows = List.copyOf(flows);
    }

    /** A job whose flows may use every port of their NICs. */
    public Job(String id, String tenant, List<Flow> flows) {
        this(id, tenant, flows, false);
    }

    public Job withHomePortsOnly(boolean v) {
        return new Job(id, tenant, flows, v);
    }
}
