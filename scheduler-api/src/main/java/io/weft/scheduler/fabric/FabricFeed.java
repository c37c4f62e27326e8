package io.weft.scheduler.fabric;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weft.auth.KafkaClientSecurity;
import io.weft.plan.PlanException;
import io.weft.scheduler.config.SchedulerKafkaProperties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Follows {@code weft.fabric} from its beginning (compacted: the latest snapshot of each fabric)
 * on one thread and hands every snapshot to {@link FabricService}. No consumer group: every
 * scheduler instance must see every snapshot. A snapshot that fails to parse is logged in one
 * line and skipped; the previous fabric stays in force.
 */
@Component
class FabricFeed implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(FabricFeed.class);
    private static final ObjectMapper JSON2 = new ObjectMapper();

    private final SchedulerKafkaProperties kafka;
    private final FabricService fabric;
    private final KafkaClientSecurity login;
    private volatile KafkaConsumer<String, String> consumer;
    private volatile Thread thread;

    FabricFeed(SchedulerKafkaProperties kafka, KafkaClientSecurity login, FabricService fabric) {
        this.kafka = kafka;
        this.login = login;
        this.fabric = fabric;
    }

    @Override
    public void start() {
        if (!kafka.enabled()) {
            LOG.info("Kafka disabled (weft.scheduler.kafka.bootstrap-servers empty): not following {}",
                    kafka.fabricTopic());
            return;
        }
        Properties p = login.applyTo(new Properties());
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, kafka.clientId() + "-fabric");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(16 * 1024 * 1024));
        consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
        fabric.fedByKafka();
        thread = new Thread(this::run, "weft-fabric-feed");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            List<TopicPartition> parts = consumer.partitionsFor(kafka.fabricTopic(), Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            catchUp(parts);
            while (!Thread.currentThread().isInterrupted()) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofSeconds(1))) {
                    apply(r);
                }
            }
        } catch (WakeupException e) {
            // stop() asked us to leave.
        } catch (RuntimeException e) {
            LOG.error("fabric feed stopped: {}", e.toString());
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /**
     * Reads what the topic holds at start and applies only each fabric's latest snapshot: the states a
     * link went through while this instance was away (drained, then undrained) must not move flows
     * again on a restart. Compaction would drop them too, but only eventually.
     */
    private void catchUp(List<TopicPartition> parts) {
        Map<TopicPartition, Long> end = consumer.endOffsets(parts);
        Map<String, ConsumerRecord<String, String>> latest = new LinkedHashMap<>();
        while (!Thread.currentThread().isInterrupted()
                && parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofSeconds(1))) {
                latest.remove(r.key());
                latest.put(r.key(), r);
            }
        }
        latest.values().forEach(this::apply);
    }

    private void apply(ConsumerRecord<String, String> r) {
        if (r.value() == null) {
            return;
        }
        try {
            JsonNode tree = JSON2.readTree(r.value());
            fabric.applySnapshot(tree);
        } catch (PlanException e) {
            LOG.warn("skipping weft.fabric record at offset {} (key {}): {}", r.offset(), r.key(), e.getMessage());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            LOG.warn("skipping weft.fabric record at offset {} (key {}): not JSON", r.offset(), r.key());
        } catch (RuntimeException e) {
            LOG.error("weft.fabric record at offset {} (key {}) failed: {}", r.offset(), r.key(), e.toString(), e);
        }
    }

    @Override
    public void stop() {
        KafkaConsumer<String, String> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        Thread t = thread;
        if (t != null) {
            try {
                t.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return thread != null && thread.isAlive();
    }
}
