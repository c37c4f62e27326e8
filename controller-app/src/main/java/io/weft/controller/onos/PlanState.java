package io.weft.controller.onos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.plan.FabricPlan;

/** One computed plan: the fabric it came from, the plan, its snapshot and the snapshot version. */
public final class PlanState {
    private final BuiltFabric built;
    private final FabricPlan plan;
    private final ObjectNode snapshot;
    private final long version;

    PlanState(BuiltFabric built, FabricPlan plan, ObjectNode snapshot, long version) {
        this.built = built;
        this.plan = plan;
        this.snapshot = snapshot;
        this.version = version;
    }

    public BuiltFabric built() {
        return built;
    }

    public FabricPlan plan() {
        return plan;
    }

    /** The weft.fabric snapshot as published (do not modify). */
    public ObjectNode snapshot() {
        return snapshot;
    }

    public long version() {
        return version;
    }
}
