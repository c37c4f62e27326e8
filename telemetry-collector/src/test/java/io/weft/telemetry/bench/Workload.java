package io.weft.telemetry.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The benchmark's gnmic traffic: every switch port reports once per round (one sample interval of
 * sample time, 1 s by default; AI fabrics are sampled every 100 ms-1 s) its out/in-octets, out-pkts,
 * out-discards and oper-status. Utilisations drift between 0 and 1 per port with SAMPLE TIME (not per
 * round), so links go hot and cool down now and then at the same pace whatever the sample interval:
 * sampling faster does not make the traffic itself change faster.
 *
 * <p>Record shape: gnmic's kafka output (format event, without split-events) writes one record per
 * subscription response, a JSON array with one event per interface it covers. {@code eventsPerRecord}
 * 1 writes each port's event alone (one bare object per record, the most expensive shape per event);
 * N > 1 groups up to N ports of the same switch into one array (a switch's ports never share a record
 * with another switch's: the record key is the switch).
 */
final class Workload {
    /** One weft.telemetry.interfaces record. */
    record Rec(String key, byte[] value, int events) {
    }

    private final List<String[]> ports;
    private final int eventsPerRecord;
    private final long sampleIntervalMs;
    private final long[] octets;
    private final long[] pkts;
    private int round;

    Workload(List<String[]> switchPorts, int eventsPerRecord, long sampleIntervalMs) {
        if (eventsPerRecord < 1) {
            throw new IllegalArgumentException("--events-per-record: must be >= 1 (got " + eventsPerRecord + ")");
        }
        if (sampleIntervalMs < 1 || sampleIntervalMs > 60_000) {
            throw new IllegalArgumentException("--sample-interval-ms: must be 1..60000 (got " + sampleIntervalMs + ")");
        }
        this.sampleIntervalMs = sampleIntervalMs;
        this.ports = new ArrayList<>(switchPorts);
        this.ports.sort(Comparator.comparing(p -> p[0])); // stable: a switch's ports stay in link order
        this.eventsPerRecord = eventsPerRecord;
        this.octets = new long[ports.size()];
        this.pkts = new long[ports.size()];
    }

    int portCount() {
        return ports.size();
    }

    long sampleIntervalMs() {
        return sampleIntervalMs;
    }

    /** The records of the next round (one sample interval later): every port once. */
    List<Rec> nextRound() {
        long tsNs = 1_700_000_000_000_000_000L + round * sampleIntervalMs * 1_000_000L;
        double seconds = round * sampleIntervalMs / 1000.0;
        double intervalS = sampleIntervalMs / 1000.0;
        List<Rec> out = new ArrayList<>();
        StringBuilder value = new StringBuilder();
        int inRecord = 0;
        for (int i = 0; i < ports.size(); i++) {
            double u = 0.5 + 0.5 * Math.sin((i * 7 + seconds) / 5.0);
            octets[i] += (long) (u * 50_000_000_000L * intervalS); // 400 Gbit/s line rate
            pkts[i] += (long) (u * 10_000_000L * intervalS);
            String[] port = ports.get(i);
            value.append(inRecord == 0 ? "" : ",").append(LoopBench.event(port[0], port[1], tsNs, octets[i], pkts[i]));
            inRecord++;
            boolean last = i + 1 == ports.size() || !ports.get(i + 1)[0].equals(port[0]) || inRecord == eventsPerRecord;
            if (last) {
                String v = eventsPerRecord == 1 ? value.toString() : "[" + value + "]";
                out.add(new Rec(port[0], v.getBytes(StandardCharsets.UTF_8), inRecord));
                value.setLength(0);
                inRecord = 0;
            }
        }
        round++;
        return out;
    }
}
