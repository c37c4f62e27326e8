package io.weft.telemetry.stream;

import java.time.Clock;
import java.time.Duration;

import io.weft.telemetry.config.DetectionProperties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.Stores;

/**
 * The collector's Kafka Streams topology, built in one place:
 * <pre>
 *   weft.fabric ──(global store: InterfaceDirectionIndexStore)
 *   weft.telemetry.interfaces ─ parse + link directions (store, one node) ─┬─ dead letter ─▶ weft.telemetry.deadletter
 *                                                  (one sink, topic by value) ├─ hotspot events ▶ weft.hotspots
 *                                                                             └─ link loads ──▶ weft.links.load
 *                                                                                (coalesced per loadInterval)
 *   weft.telemetry.flows ─ check + count ─┬─ per-flow view (store nic-flows)
 *                                         └─ invalid ───────────────────────────────▶ weft.telemetry.deadletter
 * </pre>
 */
public final class TelemetryTopology {
    public static final String FABRIC_STORE = "fabric-index";
    public static final String DIRECTIONS_STORE = "link-directions";
    public static final String FLOWS_STORE = "nic-flows";

    private TelemetryTopology() {
    }

    /** The topology with every link load forwarded at once (tests read outputs sample by sample). */
    public static void build(StreamsBuilder builder, TelemetryTopics topics, DetectionProperties detection,
                             TelemetryCounters counters, Clock clock, LinkDirection.Ids ids) {
        build(builder, topics, detection, counters, clock, ids, Duration.ZERO);
    }

    /**
     * How often the link-direction state is saved to its store and changelog (see {@link LinkProcessor}):
     * directions whose decision state changed every {@code interval} of wall-clock time, those whose
     * measurements alone changed every {@code measurementsEvery}-th time.
     */
    public record StateSaves(Duration interval, int measurementsEvery) {
        /** As the service runs: decisions within a second, measurements every ten seconds. */
        public static final StateSaves SERVICE = new StateSaves(Duration.ofSeconds(1), 10);

        public StateSaves {
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("interval: must be > 0 (got " + interval + ")");
            }
            if (measurementsEvery < 1) {
                throw new IllegalArgumentException("measurementsEvery: must be >= 1 (got " + measurementsEvery + ")");
            }
        }
    }

    /** The topology with the service's state saves. */
    public static void build(StreamsBuilder builder, TelemetryTopics topics, DetectionProperties detection,
                             TelemetryCounters counters, Clock clock, LinkDirection.Ids ids, Duration loadInterval) {
        build(builder, topics, detection, counters, clock, ids, loadInterval, StateSaves.SERVICE);
    }

    /**
     * The topology; {@code loadInterval} > 0 coalesces weft.links.load to at most one record per
     * link direction per interval of wall-clock time (see {@link LinkProcessor}).
     */
    public static void build(StreamsBuilder builder, TelemetryTopics topics, DetectionProperties detection,
                             TelemetryCounters counters, Clock clock, LinkDirection.Ids ids, Duration loadInterval,
                             StateSaves saves) {
        if (loadInterval.isNegative()) {
            throw new IllegalArgumentException("loadInterval: must be >= 0 (got " + loadInterval + ")");
        }
        builder.addGlobalStore(InterfaceDirectionIndexStore.builder(FABRIC_STORE), topics.fabric(), TelemetryTopics.RAW,
                () -> new FabricUpdater(FABRIC_STORE));
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(DIRECTIONS_STORE),
                Serdes.String(), new LinkDirectionSerde()));

        // One node between source and sink (see LinkProcessor): parse, link directions, and every output,
        // each record routed to its topic by the sink.
        builder.stream(topics.interfaces(), TelemetryTopics.RAW_KEYS)
                .process(() -> new LinkProcessor(FABRIC_STORE, DIRECTIONS_STORE, detection, counters, clock, ids,
                        loadInterval, saves), Named.as("link-directions"), DIRECTIONS_STORE)
                .to(topics.outputTopic(), TelemetryTopics.OUTPUT);

        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(FLOWS_STORE),
                Serdes.String(), Serdes.String()));
        builder.stream(topics.flows(), TelemetryTopics.RAW)
                .process(() -> new FlowReportProcessor(FLOWS_STORE, counters, clock), Named.as("check-flow-reports"),
                        FLOWS_STORE)
                .to(topics.deadletter(), TelemetryTopics.DEAD_LETTERS);
    }

    /** Feeds weft.fabric records to the global {@link InterfaceDirectionIndexStore}. */
    private static final class FabricUpdater implements Processor<String, byte[], Void, Void> {
        private final String storeName;
        private InterfaceDirectionIndexStore store;

        FabricUpdater(String storeName) {
            this.storeName = storeName;
        }

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            store = context.getStateStore(storeName);
        }

        @Override
        public void process(Record<String, byte[]> record) {
            store.apply(record.key(), record.value());
        }
    }
}
