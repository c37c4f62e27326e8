package io.weft.controller.onos;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.southbound.gnmi.DeviceState;
import io.weft.southbound.gnmi.DeviceStatus;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Switch states as the weft.fabric snapshot carries them (contracts/schemas/fabric-snapshot.schema.json). */
final class DeviceStates {
    private DeviceStates() {
    }

    /** in-sync, pending, unreachable, rejected: the names of the snapshot contract. */
    static String name(DeviceState s) {
        return s.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Node id to state name: what decides whether a new snapshot version is due. */
    static Map<String, String> names(List<DeviceStatus> devices) {
        Map<String, String> m = new LinkedHashMap<>();
        for (DeviceStatus d : devices) {
            m.put(d.device(), name(d.state()));
        }
        return m;
    }

    /** The snapshot's {@code deviceStates}: state, the switch's error text, the last confirmed sync. */
    static ObjectNode snapshotStates(List<DeviceStatus> devices) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        for (DeviceStatus d : devices) {
            ObjectNode s = o.putObject(d.device()).put("state", name(d.state()));
            if (d.lastError() != null) {
                s.put("lastError", d.lastError());
            }
            if (d.lastSyncMs() > 0) {
                s.put("lastSyncAt", Instant.ofEpochMilli(d.lastSyncMs()).toString());
            }
        }
        return o;
    }
}
