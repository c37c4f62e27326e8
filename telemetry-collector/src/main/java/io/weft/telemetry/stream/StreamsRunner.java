package io.weft.telemetry.stream;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import io.weft.auth.KafkaClientSecurity;
import io.weft.telemetry.config.DetectionProperties;
import io.weft.telemetry.config.TelemetryKafkaProperties;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs the {@link TelemetryTopology} while the service runs (nothing when Kafka is off). A stream
 * thread that dies on an unexpected error is replaced, so that one bug on one record does not stop
 * the collector for good (bad input never gets that far: it is dead-lettered).
 */
@Component
public class StreamsRunner implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(StreamsRunner.class);
    /** How long a start waits for Kafka and its topics (the demo starts the collector with its Kafka). */
    private static final Duration TOPICS_WAIT = Duration.ofMinutes(3);

    private final TelemetryKafkaProperties kafka;
    private final KafkaClientSecurity login;
    private final DetectionProperties detection;
    private final TelemetryCounters counters;
    private volatile KafkaStreams streams;

    StreamsRunner(TelemetryKafkaProperties kafka, KafkaClientSecurity login, DetectionProperties detection,
                  TelemetryCounters counters) {
        this.kafka = kafka;
        this.login = login;
        this.detection = detection;
        this.counters = counters;
    }

    @Override
    public void start() {
        if (!kafka.enabled()) {
            LOG.info("weft.telemetry.kafka.bootstrap-servers is empty: the Streams topology is not started");
            return;
        }
        TelemetryTopics topics = TelemetryTopics.of(kafka);
        try {
            TopicsWait.await(kafka.bootstrapServers(), login, List.of(topics.fabric(), topics.interfaces(),
                    topics.flows(), topics.hotspots(), topics.linksLoad(), topics.deadletter()), TOPICS_WAIT,
                    Duration.ofSeconds(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        StreamsBuilder builder = new StreamsBuilder();
        TelemetryTopology.build(builder, topics, detection, counters, Clock.systemUTC(),
                () -> UUID.randomUUID().toString(), Duration.ofMillis(kafka.linksLoadIntervalMs()));
        KafkaStreams s = new KafkaStreams(builder.build(), properties());
        s.setUncaughtExceptionHandler(e -> {
            LOG.error("stream thread failed, replacing it: {}", e.toString());
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        s.start();
        streams = s;
        LOG.info("telemetry topology started on {}", kafka.bootstrapServers());
    }

    Properties properties() {
        Properties p = login.applyTo(new Properties());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, kafka.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, kafka.stateDir());
        StreamsTuning.apply(p, kafka.sessionTimeoutMs());
        StreamsTuning.groupProtocol(p, kafka.groupProtocol());
        // Snapshots of large fabrics are several MB (contracts/topics.md: up to 16 MiB).
        p.put(StreamsConfig.globalConsumerPrefix("max.partition.fetch.bytes"), 16 * 1024 * 1024 + 4096);
        p.put(StreamsConfig.globalConsumerPrefix("fetch.max.bytes"), 16 * 1024 * 1024 + 4096);
        return p;
    }

    /**
     * The per-flow views of one NIC held by this instance (weft.telemetry.flows is keyed by NIC, so
     * one instance holds all of a NIC's flows), as JSON strings ordered by flow id.
     *
     * @throws IllegalStateException when the topology is not running (yet)
     */
    public List<String> flows(String nic) {
        KafkaStreams s = streams;
        if (s == null || s.state() != KafkaStreams.State.RUNNING) {
            throw new IllegalStateException("the Streams topology is " + state());
        }
        ReadOnlyKeyValueStore<String, String> store = s.store(StoreQueryParameters.fromNameAndType(
                TelemetryTopology.FLOWS_STORE, QueryableStoreTypes.<String, String>keyValueStore()));
        List<String> out = new ArrayList<>();
        try (KeyValueIterator<String, String> it = store.prefixScan(nic + ' ', new StringSerializer())) {
            it.forEachRemaining(kv -> out.add(kv.value));
        }
        return out;
    }

    /** The Kafka Streams state (RUNNING, REBALANCING, ...), or NOT_STARTED when Kafka is off. */
    public String state() {
        KafkaStreams s = streams;
        return s == null ? "NOT_STARTED" : s.state().name();
    }

    @Override
    public void stop() {
        KafkaStreams s = streams;
        streams = null;
        if (s != null) {
            s.close(Duration.ofSeconds(10));
        }
    }

    @Override
    public boolean isRunning() {
        return streams != null;
    }
}
