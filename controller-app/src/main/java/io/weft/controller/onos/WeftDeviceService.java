package io.weft.controller.onos;

import java.util.List;
import java.util.Map;

import io.weft.plan.FabricPlan;
import io.weft.southbound.gnmi.DeviceStatus;
import io.weft.southbound.gnmi.GnmiTarget;

/**
 * Switch provisioning over gNMI: the plan owner hands over each plan with the switches' gNMI
 * endpoints; the CLI and the snapshot read where every switch stands.
 */
public interface WeftDeviceService {
    /**
     * Provisions every switch in {@code targets} (keyed by fabric node id) with its device intent of
     * {@code plan}; switches no longer in {@code targets} are forgotten (their config is left alone).
     * Returns at once: intents are rendered and pushed on other threads.
     */
    void provision(FabricPlan plan, Map<String, GnmiTarget> targets);

    /** Stops provisioning every switch (this instance no longer owns the plan). */
    void release();

    /** Every switch being provisioned, by node id. */
    List<DeviceStatus> devices();

    /** Called (on a provisioning thread; must not block) after any switch's state may have changed. */
    void addListener(Runnable onChange);

    void removeListener(Runnable onChange);
}
