package io.weft.southbound.gnmi;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Switch states as every controller shows them: the fabric snapshot's {@code deviceStates}
 * (contracts/schemas/fabric-snapshot.schema.json) and one device's entry of a devices listing. Written
 * once here so the standalone controller and the ONOS app cannot drift apart.
 */
public final class DeviceStatusJson {
    private DeviceStatusJson() {
    }

    /** in-sync, pending, unreachable, rejected: the names of the snapshot contract. */
    public static String name(DeviceState s) {
        return s.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Node id to state name: what decides whether a new snapshot version is due. */
    public static Map<String, String> names(List<DeviceStatus> devices) {
        Map<String, String> m = new LinkedHashMap<>();
        for (DeviceStatus d : devices) {
            m.put(d.device(), name(d.state()));
        }
        return m;
    }

    /** The snapshot's {@code deviceStates}: state, the switch's error text, the last confirmed sync. */
    public static ObjectNode snapshotStates(List<DeviceStatus> devices) {
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

    /** A devices listing's fields after the ids: endpoint, state, since, lastError, lastSyncAt and counters. */
    public static void putStatus(ObjectNode o, DeviceStatus d) {
        o.put("endpoint", d.endpoint());
        o.put("state", name(d.state()));
        o.put("since", Instant.ofEpochMilli(d.sinceMs()).toString());
        if (d.lastError() == null) {
            o.putNull("lastError");
        } else {
            o.put("lastError", d.lastError());
        }
        if (d.lastSyncMs() > 0) {
            o.put("lastSyncAt", Instant.ofEpochMilli(d.lastSyncMs()).toString());
        } else {
            o.putNull("lastSyncAt");
        }
        o.put("opsSent", d.opsSent());
        o.put("sets", d.sets());
        o.put("lastPushOps", d.lastPushOps());
    }
}
