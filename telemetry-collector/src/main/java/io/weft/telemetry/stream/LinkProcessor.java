package io.weft.telemetry.stream;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.weft.telemetry.InterfaceSample;
import io.weft.telemetry.config.DetectionProperties;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Samples to link-direction state and decisions. Each sample is mapped through the fabric index to
 * the direction(s) its interface measures; each direction's {@link LinkDirection} is read from the
 * store, updated and written back, and what it emitted is forwarded keyed by its output topic key.
 *
 * <p>No repartitioning is needed: a direction is always measured by the same (switch, interface)
 * (see {@link FabricIndex}), and weft.telemetry.interfaces is keyed by switch, so one partition
 * (one task) owns every direction it sees.
 */
final class LinkProcessor implements Processor<String, InterfaceSample, String, Emitted> {
    private final String fabricStoreName;
    private final String stateStoreName;
    private final DetectionProperties detection;
    private final TelemetryCounters counters;
    private final Clock clock;
    private final LinkDirection.Ids ids;
    private final List<Emitted> out = new ArrayList<>();
    private ProcessorContext<String, Emitted> context;
    private FabricIndexStore fabric;
    private KeyValueStore<String, LinkDirection> state;

    LinkProcessor(String fabricStoreName, String stateStoreName, DetectionProperties detection,
                  TelemetryCounters counters, Clock clock, LinkDirection.Ids ids) {
        this.fabricStoreName = fabricStoreName;
        this.stateStoreName = stateStoreName;
        this.detection = detection;
        this.counters = counters;
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public void init(ProcessorContext<String, Emitted> context) {
        this.context = context;
        this.fabric = context.getStateStore(fabricStoreName);
        this.state = context.getStateStore(stateStoreName);
    }

    @Override
    public void process(Record<String, InterfaceSample> record) {
        InterfaceSample s = record.value();
        counters.count("interfaces.samples");
        List<MeasuredArc> arcs = fabric.lookup(s.target(), s.interfaceName());
        if (arcs.isEmpty()) {
            // Not malformed: management ports, or no snapshot of this fabric yet. Counted, logged once.
            counters.problem("interfaces.unmapped", "no fabric link at " + s.target() + " " + s.interfaceName()
                    + " (not a fabric port, or no weft.fabric snapshot names it yet)");
            return;
        }
        Instant now = clock.instant();
        for (MeasuredArc arc : arcs) {
            LinkDirection d = state.get(arc.arcKey());
            if (d == null) {
                d = LinkDirection.fresh(arc.capacityGbps());
            }
            out.clear();
            d.apply(s, arc, detection, ids, now, out);
            state.put(arc.arcKey(), d);
            for (Emitted e : out) {
                context.forward(new Record<>(e.key(), e, record.timestamp()));
            }
        }
    }
}
