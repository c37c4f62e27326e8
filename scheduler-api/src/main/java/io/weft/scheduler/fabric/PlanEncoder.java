package io.weft.scheduler.fabric;

import java.util.ArrayList;
import java.util.List;

import io.weft.fabric.Arc;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoder;
import io.weft.plan.PathEncoding;
import io.weft.plan.PlanException;
import io.weft.scheduler.placement.FlowEncoder;
import io.weft.scheduler.placement.FlowEncoding;

/**
 * The engine's {@link FlowEncoder} over the controller's plan: {@link PathEncoder} encodes the path
 * and proves it with the forwarding walk, so the scheduler hands out exactly what the switches were
 * told.
 */
final class PlanEncoder implements FlowEncoder {
    private final FabricPlan plan;

    PlanEncoder(FabricPlan plan) {
        this.plan = plan;
    }

    @Override
    public FlowEncoding encode(List<Arc> path, String tenant) throws EncodingFailure {
        try {
            PathEncoding e = PathEncoder.encode(plan, path, tenant);
            List<Integer> usids = new ArrayList<>();
            for (int u : e.usids()) {
                usids.add(u);
            }
            return new FlowEncoding(e.carriers(), usids, e.ev());
        } catch (PlanException e) {
            throw new EncodingFailure(e.getMessage());
        }
    }
}
