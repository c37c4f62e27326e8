package io.weft.controller.onos;

import static org.onosproject.net.NetTestTools.PID;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.onlab.packet.ChassisId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultAnnotations;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.DefaultPort;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Port;
import org.onosproject.net.PortNumber;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceServiceAdapter;

/** Devices and ports held in maps; records the listeners it was given. */
class FakeDeviceService extends DeviceServiceAdapter {
    final Map<DeviceId, Device> devices = new LinkedHashMap<>();
    final Map<ConnectPoint, Port> ports = new LinkedHashMap<>();
    final List<DeviceListener> listeners = new ArrayList<>();
    final java.util.Set<DeviceId> unavailable = new java.util.HashSet<>();

    Device addDevice(String id) {
        Device d = new DefaultDevice(PID, DeviceId.deviceId(id), Device.Type.SWITCH, "weft", "1", "1", "1",
                new ChassisId());
        devices.put(d.id(), d);
        return d;
    }

    /** A port with a "portName" annotation (null for none) and a speed in Mbps (0 for unknown). */
    Port addPort(String deviceId, long number, String name, long speedMbps) {
        return addPort(deviceId, number, name, speedMbps, true);
    }

    Port addPort(String deviceId, long number, String name, long speedMbps, boolean enabled) {
        Device d = devices.get(DeviceId.deviceId(deviceId));
        DefaultAnnotations.Builder a = DefaultAnnotations.builder();
        if (name != null) {
            a.set("portName", name);
        }
        Port p = new DefaultPort(d, PortNumber.portNumber(number), enabled, Port.Type.COPPER, speedMbps, a.build());
        ports.put(new ConnectPoint(d.id(), p.number()), p);
        return p;
    }

    @Override
    public Iterable<Device> getDevices() {
        return new ArrayList<>(devices.values());
    }

    @Override
    public Iterable<Device> getAvailableDevices() {
        return getDevices();
    }

    @Override
    public int getDeviceCount() {
        return devices.size();
    }

    @Override
    public Device getDevice(DeviceId deviceId) {
        return devices.get(deviceId);
    }

    @Override
    public boolean isAvailable(DeviceId deviceId) {
        return devices.containsKey(deviceId) && !unavailable.contains(deviceId);
    }

    @Override
    public Port getPort(ConnectPoint cp) {
        return ports.get(cp);
    }

    @Override
    public Port getPort(DeviceId deviceId, PortNumber portNumber) {
        return ports.get(new ConnectPoint(deviceId, portNumber));
    }

    @Override
    public List<Port> getPorts(DeviceId deviceId) {
        List<Port> out = new ArrayList<>();
        ports.forEach((cp, p) -> {
            if (cp.deviceId().equals(deviceId)) {
                out.add(p);
            }
        });
        return out;
    }

    @Override
    public void addListener(DeviceListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(DeviceListener listener) {
        listeners.remove(listener);
    }
}
