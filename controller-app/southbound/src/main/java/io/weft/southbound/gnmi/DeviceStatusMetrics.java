package io.weft.southbound.gnmi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The provisioner's device states as Prometheus gauges and counters: the standalone controller's
 * {@code GET /metrics} and the ONOS app's {@code GET /onos/weft/metrics} serve the same text.
 * States are named as in the snapshot contract (in-sync, pending, unreachable, rejected).
 */
public final class DeviceStatusMetrics {
    private DeviceStatusMetrics() {
    }

    /** Every switch's state, ops, sets and last sync, in Prometheus text exposition format 0.0.4. */
    public static String text(List<DeviceStatus> devices) {
        StringBuilder b = new StringBuilder(256 + devices.size() * 400);
        b.append("# HELP weft_device_state 1 for the provisioning state a switch is in, 0 for the others.\n");
        b.append("# TYPE weft_device_state gauge\n");
        for (DeviceStatus d : devices) {
            for (DeviceState s : DeviceState.values()) {
                b.append("weft_device_state{device=\"").append(label(d.device())).append("\",state=\"")
                        .append(DeviceStatusJson.name(s)).append("\"} ").append(d.state() == s ? 1 : 0).append('\n');
            }
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (DeviceState s : DeviceState.values()) {
            counts.put(DeviceStatusJson.name(s), 0);
        }
        devices.forEach(d -> counts.merge(DeviceStatusJson.name(d.state()), 1, Integer::sum));
        b.append("# HELP weft_devices Switches with a gNMI endpoint, by provisioning state.\n");
        b.append("# TYPE weft_devices gauge\n");
        counts.forEach((s, n) -> b.append("weft_devices{state=\"").append(s).append("\"} ").append(n).append('\n'));
        counter(b, devices, "weft_device_ops_sent_total", "Replace and delete ops in accepted SetRequests.",
                "counter", d -> d.opsSent());
        counter(b, devices, "weft_device_sets_total", "Accepted SetRequests.", "counter", d -> d.sets());
        b.append("# HELP weft_device_last_sync_timestamp_seconds When the switch last confirmed the intent (0: "
                + "never).\n");
        b.append("# TYPE weft_device_last_sync_timestamp_seconds gauge\n");
        for (DeviceStatus d : devices) {
            b.append("weft_device_last_sync_timestamp_seconds{device=\"").append(label(d.device())).append("\"} ")
                    .append(d.lastSyncMs() / 1000.0).append('\n');
        }
        return b.toString();
    }

    private static void counter(StringBuilder b, List<DeviceStatus> devices, String metric, String help, String type,
                                java.util.function.ToLongFunction<DeviceStatus> value) {
        b.append("# HELP ").append(metric).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(metric).append(' ').append(type).append('\n');
        for (DeviceStatus d : devices) {
            b.append(metric).append("{device=\"").append(label(d.device())).append("\"} ")
                    .append(value.applyAsLong(d)).append('\n');
        }
    }

    /** A label value escaped as the text format wants (backslash, quote, newline). */
    private static String label(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
