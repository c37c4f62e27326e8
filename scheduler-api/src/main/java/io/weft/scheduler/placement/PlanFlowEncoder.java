package io.weft.scheduler.placement;

import io.weft.fabric.Arc;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoder;
import io.weft.plan.PathEncoding;
import io.weft.plan.PlanException;
import java.util.ArrayList;
import java.util.List;

/**
 * The real encoder: {@link PathEncoder} over the fabric plan, which builds the uSID carriers and the
 * EV and proves both with the forwarding walk (a path the walk does not reproduce is refused).
 */
public final class PlanFlowEncoder implements FlowEncoder {
    private final FabricPlan plan;

    public PlanFlowEncoder(FabricPlan plan) {
        this.plan = plan;
    }

    public FabricPlan plan() {
        return plan;
    }

    @Override
    public FlowEncoding encode(List<Arc> path, String tenant) throws EncodingFailure {
        PathEncoding e;
        try {
            e = PathEncoder.encode(plan, path, tenant);
        } catch (PlanException ex) {
            throw new EncodingFailure(ex.getMessage());
        }
        List<Integer> usids = new ArrayList<>(e.usids().length);
        for (int u : e.usids()) {
            usids.add(u);
        }
        return new FlowEncoding(e.carriers(), usids, e.ev());
    }
}
