package io.weft.telemetry.history;

import java.math.BigDecimal;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.weft.auth.KafkaClientSecurity;
import io.weft.contracts.HotspotEvent;
import io.weft.contracts.LinkLoad;
import io.weft.telemetry.ConsumerThread;
import io.weft.telemetry.config.HistoryProperties;
import io.weft.telemetry.config.TelemetryKafkaProperties;
import io.weft.telemetry.stream.StreamsTuning;
import io.weft.telemetry.stream.TelemetryCounters;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes the topology's output to PostgreSQL: weft.links.load folded into 1-second rollups
 * ({@link RollupBuffer}) and every weft.hotspots event, in batches of at most {@code batchSize}
 * rows or every {@value #FLUSH_MS} ms, one transaction per batch; Kafka offsets are committed after
 * the transaction (at least once: a redelivered event is dropped by its id, a redelivered load sample
 * counts twice in its second's average, which is acceptable for a history view).
 * A failed batch is retried from the last committed offsets after a pause.
 */
@Component
public class HistoryWriter implements SmartLifecycle {
    static final long FLUSH_MS = 500;
    private static final Logger LOG = LoggerFactory.getLogger(HistoryWriter.class);
    private static final String UPSERT_ROLLUP = "INSERT INTO link_rollup (link_id, to_node, second, fabric_id, samples,"
            + " rate_gbps_sum, rate_gbps_max, util_sum, util_max, capacity_gbps, drop_rate_max, ecn_fraction_max,"
            + " oper_status, hot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (link_id, second, to_node) DO UPDATE SET samples = link_rollup.samples + EXCLUDED.samples,"
            + " rate_gbps_sum = link_rollup.rate_gbps_sum + EXCLUDED.rate_gbps_sum,"
            + " rate_gbps_max = GREATEST(link_rollup.rate_gbps_max, EXCLUDED.rate_gbps_max),"
            + " util_sum = link_rollup.util_sum + EXCLUDED.util_sum,"
            + " util_max = GREATEST(link_rollup.util_max, EXCLUDED.util_max),"
            + " capacity_gbps = EXCLUDED.capacity_gbps,"
            + " drop_rate_max = GREATEST(link_rollup.drop_rate_max, EXCLUDED.drop_rate_max),"
            + " ecn_fraction_max = GREATEST(link_rollup.ecn_fraction_max, EXCLUDED.ecn_fraction_max),"
            + " oper_status = COALESCE(EXCLUDED.oper_status, link_rollup.oper_status),"
            + " hot = link_rollup.hot OR EXCLUDED.hot";
    private static final String INSERT_EVENT = "INSERT INTO hotspot_event (event_id, sample_time, sample_ts_ns, kind,"
            + " link_id, direction, detected_at, utilisation, drop_rate, ecn_fraction, threshold)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";

    private final TelemetryKafkaProperties kafka;
    private final KafkaClientSecurity login;
    private final HistoryProperties history;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final Partitions partitions;
    private final TelemetryCounters counters;
    private final ConsumerThread<String, String> thread = new ConsumerThread<>("weft-history-writer");

    HistoryWriter(TelemetryKafkaProperties kafka, KafkaClientSecurity login, HistoryProperties history,
                  JdbcTemplate jdbc, TransactionTemplate tx, Partitions partitions, TelemetryCounters counters) {
        this.kafka = kafka;
        this.login = login;
        this.history = history;
        this.jdbc = jdbc;
        this.tx = tx;
        this.partitions = partitions;
        this.counters = counters;
    }

    @Override
    public void start() {
        if (!kafka.enabled()) {
            return;
        }
        Properties p = login.applyTo(new Properties());
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, kafka.applicationId() + "-history");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, history.batchSize());
        // As the topology's group: a killed instance's history partitions move after the same silence.
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) kafka.sessionTimeoutMs());
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, StreamsTuning.heartbeatIntervalMs(kafka.sessionTimeoutMs()));
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p, new StringDeserializer(),
                new StringDeserializer());
        consumer.subscribe(List.of(kafka.linksLoadTopic(), kafka.hotspotsTopic()));
        thread.start(consumer, this::run);
    }

    private void run(Consumer<String, String> consumer) {
        RollupBuffer rollups = new RollupBuffer();
        List<HotspotEvent> events = new ArrayList<>();
        long lastFlush = System.nanoTime();
        while (thread.running()) {
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
            for (ConsumerRecord<String, String> r : records) {
                if (r.value() == null) {
                    continue; // a tombstone on the compacted load topic: nothing to keep
                }
                try {
                    // The contract types' strict readers: a record that breaks its contract is counted, not stored.
                    if (r.topic().equals(kafka.hotspotsTopic())) {
                        events.add(HotspotEvent.fromJson(r.value()));
                    } else {
                        rollups.add(LinkLoad.fromJson(r.value()));
                    }
                } catch (RuntimeException e) { // a ContractException above all: one bad record must not stop this
                    counters.problem("history.unreadable",
                            r.topic() + " offset " + r.offset() + ": " + e.getMessage());
                }
            }
            boolean due = System.nanoTime() - lastFlush >= FLUSH_MS * 1_000_000L;
            if ((rollups.size() + events.size() > 0) && (due || records.isEmpty()
                    || rollups.size() + events.size() >= history.batchSize())) {
                flush(consumer, rollups, events);
                lastFlush = System.nanoTime();
            }
        }
    }

    private void flush(Consumer<String, String> consumer, RollupBuffer rollups, List<HotspotEvent> events) {
        List<RollupBuffer.Rollup> rows = rollups.drain();
        List<HotspotEvent> evs = new ArrayList<>(events);
        events.clear();
        try {
            tx.executeWithoutResult(status -> write(rows, evs));
            consumer.commitSync();
            counters.add("history.rollups", rows.size());
            counters.add("history.events", evs.size());
        } catch (WakeupException e) {
            throw e;
        } catch (RuntimeException e) {
            counters.problem("history.write-failed", e.getMessage());
            rewind(consumer);
        }
    }

    private void write(List<RollupBuffer.Rollup> rows, List<HotspotEvent> evs) {
        List<Object[]> rollupArgs = new ArrayList<>();
        for (RollupBuffer.Rollup r : rows) {
            if (!partitions.ensure(day(r.second))) {
                counters.problem("history.outside-retention", "rollup of " + r.linkId + " at " + r.second);
                continue;
            }
            rollupArgs.add(new Object[] {r.linkId, r.toNode, utc(r.second), r.fabricId, r.samples,
                r.rateSum, r.rateMax, r.utilSum, r.utilMax, r.capacityGbps, r.dropMax, r.ecnMax, r.operStatus, r.hot});
        }
        List<Object[]> eventArgs = new ArrayList<>();
        for (HotspotEvent e : evs) {
            Instant sampleTime = instantOfNs(e.sampleTimestampNs());
            if (!partitions.ensure(day(sampleTime))) {
                counters.problem("history.outside-retention", "event " + e.eventId() + " at " + sampleTime);
                continue;
            }
            eventArgs.add(new Object[] {e.eventId(), utc(sampleTime),
                new BigDecimal(Long.toUnsignedString(e.sampleTimestampNs())), e.kind().json(), e.linkId(),
                e.direction(), utc(e.detectedAt()), orNull(e.utilisation()), orNull(e.dropRate()),
                orNull(e.ecnFraction()), orNull(e.threshold())});
        }
        if (!rollupArgs.isEmpty()) {
            jdbc.batchUpdate(UPSERT_ROLLUP, rollupArgs,
                    new int[] {Types.VARCHAR, Types.VARCHAR, Types.TIMESTAMP_WITH_TIMEZONE,
                Types.VARCHAR, Types.INTEGER, Types.DOUBLE, Types.DOUBLE, Types.DOUBLE, Types.DOUBLE, Types.DOUBLE,
                Types.DOUBLE, Types.DOUBLE, Types.VARCHAR, Types.BOOLEAN});
        }
        if (!eventArgs.isEmpty()) {
            jdbc.batchUpdate(INSERT_EVENT, eventArgs, new int[] {Types.VARCHAR, Types.TIMESTAMP_WITH_TIMEZONE,
                Types.NUMERIC, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR, Types.TIMESTAMP_WITH_TIMEZONE,
                Types.DOUBLE, Types.DOUBLE, Types.DOUBLE, Types.DOUBLE});
        }
    }

    /** After a failed batch: wait, then read again from the last committed offsets. */
    private void rewind(Consumer<String, String> consumer) {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(consumer.assignment());
        Map<TopicPartition, Long> toBeginning = new HashMap<>();
        for (TopicPartition tp : consumer.assignment()) {
            OffsetAndMetadata o = committed.get(tp);
            if (o != null) {
                consumer.seek(tp, o);
            } else {
                toBeginning.put(tp, 0L);
            }
        }
        consumer.seekToBeginning(toBeginning.keySet());
    }

    /** An unknown measurement (NaN in the contract type) is SQL NULL. */
    private static Double orNull(double v) {
        return Double.isNaN(v) ? null : v;
    }

    static Instant instantOfNs(long ns) {
        return Instant.ofEpochSecond(Long.divideUnsigned(ns, 1_000_000_000L),
                Long.remainderUnsigned(ns, 1_000_000_000L));
    }

    private static OffsetDateTime utc(Instant t) {
        return t.atOffset(ZoneOffset.UTC);
    }

    private static LocalDate day(Instant t) {
        return LocalDate.ofInstant(t, ZoneOffset.UTC);
    }

    @Override
    public void stop() {
        thread.stop();
    }

    @Override
    public boolean isRunning() {
        return thread.running();
    }
}
