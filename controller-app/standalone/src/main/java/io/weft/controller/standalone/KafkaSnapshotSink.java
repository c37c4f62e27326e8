package io.weft.controller.standalone;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.auth.KafkaClientSecurity;
import io.weft.contracts.Contracts;
import io.weft.contracts.Topics;
import io.weft.fabric.FabricJson;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Snapshots on the compacted topic {@value #TOPIC}, keyed by fabric id (contracts/topics.md). */
final class KafkaSnapshotSink implements SnapshotSink {
    static final String TOPIC = Topics.FABRIC;
    /** Snapshots of large fabrics are several MB; the topic takes up to 16 MiB (topics.json). */
    static final int MAX_REQUEST_BYTES = 16 * 1024 * 1024;
    private static final long TIMEOUT_MS = 15_000;

    private final String bootstrap;
    private final KafkaClientSecurity login;
    private final KafkaProducer<String, byte[]> producer;

    KafkaSnapshotSink(String bootstrap, KafkaClientSecurity login) {
        this.bootstrap = bootstrap;
        this.login = login;
        Properties p = common();
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(MAX_REQUEST_BYTES));
        // A broker that is down must not block the watcher thread for the default minute.
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(TIMEOUT_MS));
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_MS));
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * Creates {@value #TOPIC} with its catalogue settings (compacted, 16 MiB messages) when it is missing,
     * so that a plain Kafka works as well as the devstack (which creates it already).
     */
    void ensureTopic() throws Exception {
        Properties p = common();
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_MS));
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        try (Admin admin = Admin.create(p)) {
            Set<String> names = admin.listTopics().names().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            if (names.contains(TOPIC)) {
                return;
            }
            try {
                admin.createTopics(List.of(catalogueTopic())).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
        }
    }

    static NewTopic catalogueTopic() throws Exception {
        JsonNode catalogue = FabricJson.mapper().readTree(Contracts.open("topics.json"));
        for (JsonNode t : catalogue.path("topics")) {
            if (TOPIC.equals(t.path("name").asText())) {
                Map<String, String> config = new HashMap<>();
                t.path("config").fields().forEachRemaining(e -> config.put(e.getKey(), e.getValue().asText()));
                return new NewTopic(TOPIC, t.path("partitions").asInt(1), (short) t.path("replicationFactor").asInt(1))
                        .configs(config);
            }
        }
        throw new IllegalStateException("contracts/topics.json has no " + TOPIC + " entry");
    }

    /** Reads the topic from the beginning to its current end and keeps the last value under the key. */
    @Override
    public JsonNode latest(String fabricId) throws Exception {
        Properties p = common();
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_MS));
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(MAX_REQUEST_BYTES));
        p.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(MAX_REQUEST_BYTES));
        byte[] last = null;
        try (KafkaConsumer<String, byte[]> consumer =
                     new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : consumer.partitionsFor(TOPIC, Duration.ofMillis(TIMEOUT_MS))) {
                partitions.add(new TopicPartition(TOPIC, info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofMillis(TIMEOUT_MS));
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
            while (!reached(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading " + TOPIC
                            + " to its end took more than " + TIMEOUT_MS + " ms");
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (fabricId.equals(r.key())) {
                        last = r.value(); // null = tombstone: the fabric was deleted
                    }
                }
            }
        }
        return last == null ? null : FabricJson.mapper().readTree(last);
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void publish(String fabricId, byte[] json) throws Exception {
        producer.send(new ProducerRecord<>(TOPIC, fabricId, json)).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    @Override
    public String describe() {
        return TOPIC + " on " + bootstrap;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }

    private Properties common() {
        Properties p = login.applyTo(new Properties());
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return p;
    }
}
