package io.weft.controller.onos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.weft.plan.FabricPlan;
import io.weft.southbound.gnmi.DeviceStatus;
import io.weft.southbound.gnmi.GnmiTarget;

/** Records what the plan owner hands to gNMI provisioning; provisions nothing. */
class RecordingDeviceService implements WeftDeviceService {
    final List<FabricPlan> plans = new ArrayList<>();
    final List<Map<String, GnmiTarget>> targets = new ArrayList<>();
    final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    int releases;

    @Override
    public synchronized void provision(FabricPlan plan, Map<String, GnmiTarget> t) {
        plans.add(plan);
        targets.add(t);
    }

    @Override
    public synchronized void release() {
        releases++;
    }

    @Override
    public List<DeviceStatus> devices() {
        return List.of();
    }

    @Override
    public void addListener(Runnable onChange) {
        listeners.add(onChange);
    }

    @Override
    public void removeListener(Runnable onChange) {
        listeners.remove(onChange);
    }

    synchronized Map<String, GnmiTarget> lastTargets() {
        return targets.get(targets.size() - 1);
    }
}
