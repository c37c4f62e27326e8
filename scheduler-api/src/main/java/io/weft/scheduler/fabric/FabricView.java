package io.weft.scheduler.fabric;

import java.util.Map;

import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.plan.FabricPlan;

/**
 * The fabric the scheduler currently places on: topology, SID plan, link states as published by
 * the controller ({@code snapshotStates}) and the operator's drains merged in ({@code effective}).
 *
 * @param version the snapshot's version (0 for a fabric read from a file)
 */
public record FabricView(Fabric fabric, FabricPlan plan, Map<String, LinkState> effective, long version) {
    public FabricView {
        effective = Map.copyOf(effective);
    }

    public boolean isNic(String id) {
        var n = fabric.node(id);
        return n != null && n.role() == io.weft.fabric.Role.NIC;
    }
}
