package io.weft.simulator.live;

import java.util.List;

/**
 * Renders switch ports as the records gnmic's Kafka output writes in {@code event} format
 * (contracts/schemas/gnmic-event.schema.json): one record per switch and sample, a JSON array with,
 * per port, one interface event (tags {@code interface_name}; in/out octets and packets, out
 * discards as uint64 strings, oper-status) and one queue event (tags {@code interface_interface-id},
 * {@code queue_name}; transmit packets and octets, dropped packets). The tags and value keys are
 * those of a gnmic subscription named {@code weft-ifcounters} to the switch at {@code <switch>:57400},
 * the same shape weft-telemetry writes, so the collector cannot tell the simulator from either.
 */
final class GnmicEvents {
    static final String SUBSCRIPTION = "weft-ifcounters";
    private static final String IF = "/interfaces/interface/state/";
    private static final String Q = "/qos/interfaces/interface/output/queues/queue/state/";

    private GnmicEvents() {
    }

    /** One record (the value) for the ports of one switch, all sampled at {@code timestampNs}. */
    static String record(String target, List<SwitchPort> ports, long timestampNs) {
        StringBuilder b = new StringBuilder(512 * ports.size()).append('[');
        for (SwitchPort p : ports) {
            if (b.length() > 1) {
                b.append(',');
            }
            interfaceEvent(b, target, p, timestampNs);
            b.append(',');
            queueEvent(b, target, p, timestampNs);
        }
        return b.append(']').toString();
    }

    static void interfaceEvent(StringBuilder b, String target, SwitchPort p, long timestampNs) {
        head(b, target, timestampNs).append("\"interface_name\":\"").append(p.name)
                .append("\",\"subscription-name\":\"").append(SUBSCRIPTION).append("\"},\"values\":{");
        counter(b, IF + "counters/in-octets", p.inOctets).append(',');
        counter(b, IF + "counters/in-pkts", p.inPkts).append(',');
        counter(b, IF + "counters/out-octets", p.outOctets).append(',');
        counter(b, IF + "counters/out-pkts", p.outPkts).append(',');
        counter(b, IF + "counters/out-discards", p.outDiscards).append(',');
        b.append('"').append(IF).append("oper-status\":\"").append(p.up ? "UP" : "DOWN").append("\"}}");
    }

    static void queueEvent(StringBuilder b, String target, SwitchPort p, long timestampNs) {
        head(b, target, timestampNs).append("\"interface_interface-id\":\"").append(p.name)
                .append("\",\"queue_name\":\"").append(SwitchPort.QUEUE)
                .append("\",\"subscription-name\":\"").append(SUBSCRIPTION).append("\"},\"values\":{");
        counter(b, Q + "transmit-pkts", p.outPkts).append(',');
        counter(b, Q + "transmit-octets", p.outOctets).append(',');
        counter(b, Q + "dropped-pkts", p.outDiscards).append('}').append('}');
    }

    private static StringBuilder head(StringBuilder b, String target, long timestampNs) {
        return b.append("{\"name\":\"").append(SUBSCRIPTION).append("\",\"timestamp\":").append(timestampNs)
                .append(",\"tags\":{\"source\":\"").append(target).append(":57400\",\"target\":\"").append(target)
                .append("\",");
    }

    private static StringBuilder counter(StringBuilder b, String path, long value) {
        // uint64 as a decimal string, as gnmic writes counters that may exceed a double's precision.
        return b.append('"').append(path).append("\":\"").append(Long.toUnsignedString(value)).append('"');
    }
}
