package io.weft.simulator.live;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weft.auth.KafkaClientSecurity;
import io.weft.contracts.Topics;
import io.weft.plan.FabricPlan;
import io.weft.plan.PlanException;
import io.weft.plan.SnapshotJson;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows the controller's snapshots on the compacted topic {@code weft.fabric} (one partition:
 * one total order of versions) from the beginning, without a consumer group, and hands every newer
 * version of the followed fabric to {@code onPlan}, read by the core's {@link SnapshotJson} (the
 * same reader the controller writes with). The first fabric seen is followed unless one is named.
 */
final class SnapshotFollower implements Runnable, AutoCloseable {
    static final String TOPIC = Topics.FABRIC;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KafkaConsumer<String, String> consumer;
    private final Consumer<FabricPlan> onPlan;
    private volatile String fabricId;
    private long version = -1;

    SnapshotFollower(String bootstrap, KafkaClientSecurity login, String fabricId, Consumer<FabricPlan> onPlan) {
        Properties p = login.applyTo(new Properties());
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "weft-live-fabric-" + UUID.randomUUID());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(16 * 1024 * 1024));
        this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
        this.fabricId = fabricId;
        this.onPlan = onPlan;
        TopicPartition tp = new TopicPartition(TOPIC, 0);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
    }

    @Override
    public void run() {
        try {
            while (true) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofSeconds(1))) {
                    accept(r);
                }
            }
        } catch (WakeupException stop) {
            // close() asked
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    private void accept(ConsumerRecord<String, String> r) {
        if (r.value() == null || (fabricId != null && !fabricId.equals(r.key()))) {
            return;
        }
        try {
            JsonNode snapshot = JSON.readTree(r.value());
            long v = snapshot.path("version").asLong(-1);
            if (v <= version) {
                return;
            }
            FabricPlan plan = SnapshotJson.planFromTree(snapshot);
            fabricId = plan.fabric().id();
            version = v;
            onPlan.accept(plan);
        } catch (PlanException | java.io.IOException | RuntimeException e) {
            System.err.println("live: snapshot at offset " + r.offset() + " of " + TOPIC + " not used: "
                    + e.getMessage());
        }
    }

    long version() {
        return version;
    }

    @Override
    public void close() {
        consumer.wakeup();
    }
}
