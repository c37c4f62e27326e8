package io.weft.telemetry.live;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import io.weft.auth.KafkaClientSecurity;
import io.weft.contracts.ContractException;
import io.weft.contracts.HotspotEvent;
import io.weft.contracts.LinkLoad;
import io.weft.telemetry.ConsumerThread;
import io.weft.telemetry.config.TelemetryKafkaProperties;
import io.weft.telemetry.stream.TelemetryCounters;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Reads weft.links.load from the beginning (compacted: the latest load of every direction) into
 * {@link LiveLoads}, and weft.hotspots from its end, handing each new event to {@link LoadStreams} at once.
 * It reads the collector's own output topic rather than tapping the topology, so the feed shows what
 * every other reader of weft.links.load sees, from whichever collector instance wrote it. No consumer
 * group: every instance holds the whole state, and nothing is committed.
 * <p>
 * Both topics are read with the contract types' strict readers, so the feed passes on only what the
 * contract allows; a record that breaks it (or a load whose record key is not its direction) is
 * counted as {@code live.unreadable} and skipped.
 */
@Component
class LiveLoadFeed implements SmartLifecycle {
    private final TelemetryKafkaProperties kafka;
    private final KafkaClientSecurity login;
    private final LiveLoads loads;
    private final LoadStreams streams;
    private final TelemetryCounters counters;
    private final ConsumerThread<String, String> thread = new ConsumerThread<>("weft-live-loads-feed");

    LiveLoadFeed(TelemetryKafkaProperties kafka, KafkaClientSecurity login, LiveLoads loads, LoadStreams streams,
                 TelemetryCounters counters) {
        this.kafka = kafka;
        this.login = login;
        this.loads = loads;
        this.streams = streams;
        this.counters = counters;
    }

    @Override
    public void start() {
        if (!kafka.enabled()) {
            return;
        }
        Properties p = login.applyTo(new Properties());
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        thread.start(new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer()), this::run);
    }

    private void run(Consumer<String, String> consumer) throws InterruptedException {
        List<TopicPartition> loadParts = partitions(consumer, kafka.linksLoadTopic());
        List<TopicPartition> hotspotParts = partitions(consumer, kafka.hotspotsTopic());
        List<TopicPartition> all = new ArrayList<>(loadParts);
        all.addAll(hotspotParts);
        consumer.assign(all);
        consumer.seekToBeginning(loadParts);
        consumer.seekToEnd(hotspotParts);
        while (thread.running()) {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                accept(r);
            }
        }
    }

    /**
     * The topic's partitions, waiting while Kafka or the topic is not there yet (the devstack or a
     * deployment creates it).
     */
    private List<TopicPartition> partitions(Consumer<String, String> consumer, String topic)
            throws InterruptedException {
        while (thread.running()) {
            List<PartitionInfo> infos;
            try {
                infos = consumer.partitionsFor(topic, Duration.ofSeconds(5));
            } catch (TimeoutException slow) {
                // Kafka is not up yet (./weft demo starts the collector with it), or the first metadata
                // fetch's TLS and SASL handshakes took longer than the wait on a busy machine: ask again.
                continue;
            }
            if (infos != null && !infos.isEmpty()) {
                return infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            }
            Thread.sleep(1000);
        }
        throw new WakeupException();
    }

    /** Applies one record of either topic (package-private: tests hand records in directly). */
    void accept(ConsumerRecord<String, String> r) {
        boolean isLoad = r.topic().equals(kafka.linksLoadTopic());
        if (r.value() == null) {
            if (isLoad && r.key() != null) {
                loads.remove(r.key()); // a direction whose link left the fabric
            }
            return;
        }
        try {
            if (isLoad) {
                LinkLoad load = LinkLoad.fromJson(r.value());
                if (r.key() != null && !r.key().equals(load.key())) {
                    // A tombstone for r.key() would not remove this entry: refuse rather than keep a ghost.
                    throw new ContractException("$", "record key " + r.key() + " is not the load's direction "
                            + load.key());
                }
                loads.apply(load);
            } else {
                streams.hotspot(HotspotEvent.fromJson(r.value()));
            }
        } catch (RuntimeException e) { // ContractException above all; one bad record must not stop the feed
            counters.problem("live.unreadable", r.topic() + " offset " + r.offset() + ": " + e.getMessage());
        }
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
