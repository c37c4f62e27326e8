package io.weft.scheduler.fabric;

import java.util.Map;

import io.weft.plan.FabricPlan;
import io.weft.placement.FabricIndex;
import io.weft.placement.LinkState;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlanFlowEncoder;
import io.weft.scheduler.web.ApiException;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * The one placement engine of this service and the fabric it places on. The engine is not
 * thread-safe and its reservations must match what is committed in PostgreSQL, so every operation
 * that changes it runs while holding this object's monitor ({@code synchronized (placement)}),
 * including the database transaction that records the outcome.
 */
@Component
public class Placement {
    private final PlacementConfig config;
    private FabricView view;
    private PlacementEngine engine;

    Placement() {
        this.config = PlacementConfig.DEFAULTS;
    }

    /** The current fabric, or 503 when no snapshot or fabric file has arrived yet. */
    public synchronized FabricView view() {
        if (view == null) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, null,
                    "no fabric yet: waiting for the weft.fabric snapshot (or set weft.scheduler.fabric.file)");
        }
        return view;
    }

    public synchronized boolean ready() {
        return view != null;
    }

    /** The engine; callers hold the monitor. */
    public PlacementEngine engine() {
        if (!Thread.holdsLock(this)) {
            throw new IllegalStateException("placement engine used without holding the Placement lock");
        }
        view();
        return engine;
    }

    /** A fresh, empty engine for a new topology or plan; callers place the active jobs again. */
    synchronized void install(FabricView newView) {
        this.view = newView;
        this.engine = new PlacementEngine(FabricIndex.of(newView.fabric(), newView.effective()),
                new PlanFlowEncoder(newView.plan()), config);
    }

    /** Same topology and plan, new link states: the engine moves what it must. */
    synchronized void updateStates(Map<String, LinkState> effective, long version) {
        this.view = new FabricView(view.fabric(), view.plan(), effective, version);
    }

    static FabricView viewOf(FabricPlan plan, Map<String, LinkState> effective, long version) {
        return new FabricView(plan.fabric(), plan, effective, version);
    }
}
