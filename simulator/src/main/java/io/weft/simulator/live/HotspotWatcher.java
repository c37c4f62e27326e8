package io.weft.simulator.live;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Consumer;

import io.weft.auth.KafkaClientSecurity;
import io.weft.contracts.HotspotEvent;
import io.weft.contracts.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the collector's decisions on {@code weft.hotspots} from now on (every partition, no
 * consumer group), so the incident can say when the collector saw the fault it injected.
 */
final class HotspotWatcher implements Runnable, AutoCloseable {
    static final String TOPIC = Topics.HOTSPOTS;

    /** One hotspot event and when this process read it. */
    record Seen(HotspotEvent event, Instant receivedAt) {
    }

    private final KafkaConsumer<String, String> consumer;
    private final Consumer<Seen> onEvent;

    HotspotWatcher(String bootstrap, KafkaClientSecurity login, Consumer<Seen> onEvent) {
        Properties p = login.applyTo(new Properties());
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "weft-live-hotspots-" + UUID.randomUUID());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
        this.onEvent = onEvent;
        List<TopicPartition> tps = new ArrayList<>();
        for (PartitionInfo i : consumer.partitionsFor(TOPIC, Duration.ofSeconds(30))) {
            tps.add(new TopicPartition(TOPIC, i.partition()));
        }
        consumer.assign(tps);
        consumer.seekToEnd(tps);
        tps.forEach(consumer::position); // fix "now" before anything is injected
    }

    @Override
    public void run() {
        try {
            while (true) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    Instant received = Instant.now();
                    try {
                        onEvent.accept(new Seen(HotspotEvent.fromJson(r.value()), received));
                    } catch (IllegalArgumentException bad) {
                        System.err.println("live: unreadable " + TOPIC + " record at offset " + r.offset() + ": "
                                + bad.getMessage());
                    }
                }
            }
        } catch (WakeupException stop) {
            // close() asked
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    @Override
    public void close() {
        consumer.wakeup();
    }
}
