package io.weft.controller.onos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.onosproject.cluster.NodeId;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.mastership.MastershipServiceAdapter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.MastershipRole;

/** Masters per device; this instance is {@link #LOCAL}. Devices without an entry have no master. */
class FakeMastershipService extends MastershipServiceAdapter {
    static final NodeId LOCAL = NodeId.nodeId("onos-1");
    static final NodeId OTHER = NodeId.nodeId("onos-2");

    final Map<DeviceId, NodeId> masters = new HashMap<>();
    final List<MastershipListener> listeners = new ArrayList<>();

    FakeMastershipService master(String deviceId, NodeId node) {
        masters.put(DeviceId.deviceId(deviceId), node);
        return this;
    }

    @Override
    public NodeId getMasterFor(DeviceId deviceId) {
        return masters.get(deviceId);
    }

    @Override
    public MastershipRole getLocalRole(DeviceId deviceId) {
        NodeId m = masters.get(deviceId);
        return m == null ? MastershipRole.NONE : m.equals(LOCAL) ? MastershipRole.MASTER : MastershipRole.STANDBY;
    }

    @Override
    public void addListener(MastershipListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(MastershipListener listener) {
        listeners.remove(listener);
    }
}
