package io.weft.telemetry.stream;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.weft.contracts.LinkLoad;
import io.weft.contracts.TopicValue;
import io.weft.telemetry.DeadLetter;
import io.weft.telemetry.GnmicEventParser;
import io.weft.telemetry.InterfaceSample;
import io.weft.telemetry.TelemetryFormatException;
import io.weft.telemetry.config.DetectionProperties;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * weft.telemetry.interfaces records to link-direction state and decisions, in one processor node.
 * A record is parsed into its samples (all the record's events), or, when it cannot be normalised
 * (all or nothing, see {@link GnmicEventParser}), forwarded as one {@link DeadLetter} carrying its
 * partition and offset. Parsing here rather than in a node of its own, and forwarding every output
 * (dead letter, load, hotspot event) to one sink that picks the topic by value type
 * ({@link TelemetryTopics#OUTPUT_TOPIC}), keeps a record to three nodes (source, this, sink):
 * the split and map nodes between them cost a forward, a record context and a branch test per
 * record, which with one event per record (gnmic with split-events) was a visible share of the work.
 *
 * <p>Each sample is mapped through the fabric index to
 * the direction(s) its interface measures; each direction's {@link LinkDirection} is read from the
 * store, updated and written back, and what it emitted is forwarded keyed by its output topic key.
 *
 * <p>The live state is a plain map owned by this task; the store (with its changelog) is written
 * from it and read on a miss (first sample after a start or a rebalance). Writing the store on every
 * sample cost a binary serialisation, an ordered map update and a changelog record per sample, half of
 * the per-event cost. Two cadences: a direction whose decision state changed (hot, the count towards
 * hotspot-start, down, the frozen span, oper-status: see {@link LinkDirection#apply}) is saved at the
 * next second; one whose measurements alone changed (rate, EWMA, counter baselines) only every tenth
 * ({@link TelemetryTopology.StateSaves}). With gnmic sampling every port once
 * a second, saving every measured direction every second wrote one changelog record per load, as many
 * as the output itself. What a crash loses: at most a second of decisions (a taken-over hotspot stays
 * open, a hysteresis count restarts from a value at most a second old), and up to ten seconds of
 * measurements: the first rate after the takeover is taken
 * over that longer interval (the counters are cumulative, so it is the mean rate since the save) and
 * the EWMA continues from the saved value. A clean handover (close) saves everything.
 *
 * <p>Link loads can be coalesced ({@code loadInterval} > 0): weft.links.load then gets at most one
 * record per direction per {@code loadInterval} of SAMPLE time (the latest load of each bucket of that
 * width), so sampling faster than the interval no longer multiplies the output, while a replayed
 * backlog still yields one load per direction per interval, as the history's 1-second rollups need.
 * A direction's load waits until the next bucket's load arrives, or at most {@code loadInterval} of
 * wall-clock time (a punctuator flushes all waiting loads). weft.links.load is a compacted "latest
 * load" topic, so a reader loses only intermediate values; hotspot events, which drive re-placement,
 * are never held back. With {@code loadInterval} zero every load is forwarded at once.
 *
 * <p>No repartitioning is needed: a direction is always measured by the same (switch, interface)
 * (see {@link InterfaceDirectionIndex}), and weft.telemetry.interfaces is keyed by switch, so one partition
 * (one task) owns every direction it sees.
 */
final class LinkProcessor implements Processor<byte[], byte[], String, Object> {
    private final String fabricStoreName;
    private final String stateStoreName;
    private final DetectionProperties detection;
    private final TelemetryCounters counters;
    private final Clock clock;
    private final LinkDirection.Ids ids;
    private final Duration loadInterval;
    private final long loadIntervalNs;
    private final TelemetryTopology.StateSaves saves;
    private final GnmicEventParser parser = new GnmicEventParser();
    private final List<TopicValue> out = new ArrayList<>();
    /** Live state by arc key; one hash lookup per sample finds the direction and its bookkeeping. */
    private final Map<String, Slot> live = new HashMap<>();
    /** Directions changed since the last full save (a slot may have been saved since, as decided). */
    private final List<Slot> changed = new ArrayList<>();
    /** Directions whose decision state changed since the last save. */
    private final List<Slot> decided = new ArrayList<>();
    private int saveCount;
    private final List<Slot> waiting = new ArrayList<>();
    // Most samples decide nothing: the clock is read only for a record whose samples emit a hotspot event.
    private final Supplier<Instant> now = this::recordNow;
    private Instant recordNow;
    private ProcessorContext<String, Object> context;
    private InterfaceDirectionIndexStore fabric;
    private KeyValueStore<String, LinkDirection> state;

    LinkProcessor(String fabricStoreName, String stateStoreName, DetectionProperties detection,
                  TelemetryCounters counters, Clock clock, LinkDirection.Ids ids, Duration loadInterval,
                  TelemetryTopology.StateSaves saves) {
        this.fabricStoreName = fabricStoreName;
        this.stateStoreName = stateStoreName;
        this.detection = detection;
        this.counters = counters;
        this.clock = clock;
        this.ids = ids;
        this.loadInterval = loadInterval;
        this.loadIntervalNs = loadInterval.toNanos();
        this.saves = saves;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.fabric = context.getStateStore(fabricStoreName);
        this.state = context.getStateStore(stateStoreName);
        context.schedule(saves.interval(), PunctuationType.WALL_CLOCK_TIME, t -> save());
        if (!loadInterval.isZero()) {
            context.schedule(loadInterval, PunctuationType.WALL_CLOCK_TIME, t -> flushLoads());
        }
    }

    /** A direction's live state, whether it changed since it was saved, and its load waiting to leave. */
    private static final class Slot {
        final String key;
        final LinkDirection direction;
        boolean unsaved;
        boolean inChanged;
        boolean inDecided;
        // The record is built only when the load leaves: most loads are replaced before (fast sampling).
        LinkLoad waitingLoad;
        long waitingRecordTimestamp;
        long waitingBucket;

        Slot(String key, LinkDirection direction) {
            this.key = key;
            this.direction = direction;
        }
    }

    /** Keeps the latest load of a direction per sample-time bucket; a load of a newer bucket sends the older. */
    private void coalesce(Slot slot, LinkLoad load, long recordTimestamp) {
        long bucket = Long.divideUnsigned(load.timestampNs(), loadIntervalNs);
        if (slot.waitingLoad == null) {
            waiting.add(slot);
        } else if (slot.waitingBucket != bucket) {
            forwardWaiting(slot);
        }
        slot.waitingLoad = load;
        slot.waitingRecordTimestamp = recordTimestamp;
        slot.waitingBucket = bucket;
    }

    private void forwardWaiting(Slot slot) {
        // The slot key is the load's key (linkId>toNode), already built: no concatenation per load.
        context.forward(new Record<>(slot.key, slot.waitingLoad, slot.waitingRecordTimestamp));
    }

    /** Forwards the latest waiting load of every direction sampled since the last flush. */
    void flushLoads() {
        for (Slot slot : waiting) {
            forwardWaiting(slot);
            slot.waitingLoad = null;
        }
        waiting.clear();
    }

    /**
     * Each save interval: writes the directions whose decision state changed to the store (and so to
     * its changelog); every {@code measurementsEvery}-th time, every changed direction.
     */
    void save() {
        saveCount++;
        if (saveCount % saves.measurementsEvery() == 0) {
            saveAll();
            return;
        }
        for (Slot slot : decided) {
            write(slot);
            slot.inDecided = false;
        }
        decided.clear();
    }

    /** Writes every direction changed since it was last written. */
    void saveAll() {
        for (Slot slot : changed) {
            write(slot);
            slot.inChanged = false;
        }
        changed.clear();
        for (Slot slot : decided) {
            slot.inDecided = false; // a decision implies a change: written above
        }
        decided.clear();
    }

    private void write(Slot slot) {
        if (slot.unsaved) {
            state.put(slot.key, slot.direction);
            slot.unsaved = false;
        }
    }

    private Instant recordNow() {
        if (recordNow == null) {
            recordNow = clock.instant();
        }
        return recordNow;
    }

    @Override
    public void close() {
        saveAll();
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        counters.count("interfaces.records");
        List<InterfaceSample> samples;
        try {
            samples = parser.parseUtf8(record.value());
        } catch (TelemetryFormatException e) {
            counters.problem("deadletter." + e.code().code(), e.getMessage());
            String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
            RecordMetadata m = context.recordMetadata().orElse(null);
            DeadLetter d = DeadLetter.of(m == null ? "unknown" : m.topic(), m == null ? 0 : m.partition(),
                    m == null ? 0 : Math.max(0, m.offset()), key, record.value(), e, clock.instant());
            context.forward(new Record<>(key, d, record.timestamp(), record.headers()));
            return;
        }
        counters.add("interfaces.samples", samples.size());
        recordNow = null; // detectedAt of what this record's samples decide, read from the clock once if at all
        for (InterfaceSample s : samples) {
            List<MeasuredArc> arcs = fabric.lookup(s.target(), s.interfaceName());
            if (arcs.isEmpty()) {
                // Not malformed: management ports, or no snapshot of this fabric yet. Counted, logged once.
                counters.problem("interfaces.unmapped", "no fabric link at " + s.target() + " " + s.interfaceName()
                        + " (not a fabric port, or no weft.fabric snapshot names it yet)");
                continue;
            }
            apply(s, arcs, record.timestamp());
        }
    }

    private void apply(InterfaceSample s, List<MeasuredArc> arcs, long recordTimestamp) {
        for (MeasuredArc arc : arcs) {
            Slot slot = live.get(arc.arcKey());
            if (slot == null) {
                LinkDirection d = state.get(arc.arcKey());
                slot = new Slot(arc.arcKey(), d != null ? d : LinkDirection.fresh(arc.capacityGbps()));
                live.put(arc.arcKey(), slot);
            }
            out.clear();
            boolean decision = slot.direction.apply(s, arc, detection, ids, now, out);
            slot.unsaved = true;
            if (!slot.inChanged) {
                slot.inChanged = true;
                changed.add(slot);
            }
            if (decision && !slot.inDecided) {
                slot.inDecided = true;
                decided.add(slot);
            }
            for (TopicValue e : out) {
                if (e instanceof LinkLoad load) {
                    if (loadIntervalNs == 0) {
                        // arcKey is the load's key (linkId>toNode), already built: no concatenation per load.
                        context.forward(new Record<>(arc.arcKey(), e, recordTimestamp));
                    } else {
                        coalesce(slot, load, recordTimestamp);
                    }
                } else {
                    context.forward(new Record<>(e.key(), e, recordTimestamp));
                }
            }
        }
    }
}
