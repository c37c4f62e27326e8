package io.weft.controller.onos;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.southbound.gnmi.DeviceState;
import io.weft.southbound.gnmi.DeviceStatus;
import io.weft.southbound.gnmi.DeviceStatusJson;
import org.onosproject.net.DeviceId;

/**
 * What {@code weft-devices} prints: one line per switch provisioned over gNMI (node, ONOS device,
 * endpoint, state, since, last confirmed sync, Sets and ops accepted, the switch's error text), or
 * the same as JSON, shaped like the standalone controller's {@code GET /devices}.
 */
public final class DevicesSummary {
    private DevicesSummary() {
    }

    /**
     * @param deviceIds node id to ONOS device id, from the current plan (may be empty)
     */
    public static List<String> lines(List<DeviceStatus> devices, Map<String, DeviceId> deviceIds) {
        List<String> out = new ArrayList<>();
        Map<DeviceState, Integer> counts = counts(devices);
        StringBuilder head = new StringBuilder(devices.size() + " switch(es) provisioned over gNMI");
        counts.forEach((s, n) -> head.append(n == 0 ? "" : ", " + n + " " + DeviceStatusJson.name(s)));
        out.add(head.toString());
        for (DeviceStatus d : devices) {
            DeviceId id = deviceIds.get(d.device());
            out.add(String.format("%s device=%s endpoint=%s state=%s since=%s lastSync=%s sets=%d ops=%d%s",
                    d.device(), id == null ? "-" : id, d.endpoint(), d.state(), Instant.ofEpochMilli(d.sinceMs()),
                    d.lastSyncMs() > 0 ? Instant.ofEpochMilli(d.lastSyncMs()).toString() : "never", d.sets(),
                    d.opsSent(), d.lastError() == null ? "" : " error=" + d.lastError()));
        }
        return out;
    }

    /** {@code {"counts": {"in-sync": n, ...}, "devices": [{"device", "onosDevice", "endpoint", "state", ...}]}}. */
    public static ObjectNode json(List<DeviceStatus> devices, Map<String, DeviceId> deviceIds) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ObjectNode counts = root.putObject("counts");
        counts(devices).forEach((s, n) -> counts.put(DeviceStatusJson.name(s), n));
        ArrayNode list = root.putArray("devices");
        for (DeviceStatus d : devices) {
            ObjectNode o = list.addObject();
            o.put("device", d.device());
            DeviceId id = deviceIds.get(d.device());
            if (id == null) {
                o.putNull("onosDevice");
            } else {
                o.put("onosDevice", id.toString());
            }
            DeviceStatusJson.putStatus(o, d);
        }
        return root;
    }

    /** Node id to ONOS device id of a plan (empty without one). */
    public static Map<String, DeviceId> deviceIds(PlanState plan) {
        Map<String, DeviceId> m = new LinkedHashMap<>();
        if (plan != null) {
            plan.built().nodeIds().forEach((device, node) -> m.put(node, device));
        }
        return m;
    }

    private static Map<DeviceState, Integer> counts(List<DeviceStatus> devices) {
        Map<DeviceState, Integer> counts = new LinkedHashMap<>();
        for (DeviceState s : DeviceState.values()) {
            counts.put(s, 0);
        }
        devices.forEach(d -> counts.merge(d.state(), 1, Integer::sum));
        return counts;
    }
}
