package io.weft.controller.onos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.auth.KafkaClientSecurity;
import io.weft.contracts.Topics;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes snapshots to the compacted topic {@value #TOPIC}, keyed by fabric id, value the
 * snapshot JSON (contracts/topics.json): the same records the standalone controller writes, so
 * the scheduler and the UI cannot tell which controller planned the fabric.
 *
 * <p>kafka-clients is embedded in the bundle. Kafka resolves some classes by name through the
 * thread context class loader, which in OSGi belongs to whoever called us; clients are therefore
 * created with Kafka's own class loader as context loader, and serializers are passed as instances.
 * The topic itself is created by the devstack or the operator (catalogue settings), not here.
 */
public final class KafkaSnapshotPublisher implements SnapshotPublisher {
    public static final String TOPIC = Topics.FABRIC;
    /** Snapshots of large fabrics are several MB; the topic takes up to 16 MiB (topics.json). */
    static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
    private static final long TIMEOUT_MS = 10_000;
    /** Kafka requires delivery timeout >= linger + request timeout. */
    private static final long DELIVERY_TIMEOUT_MS = 15_000;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String describe;
    private final Producer<String, byte[]> producer;
    private final Supplier<Consumer<String, byte[]>> consumers;

    /** For tests: any producer, and a source of consumers for {@link #lastPublished}. */
    KafkaSnapshotPublisher(String describe, Producer<String, byte[]> producer,
                           Supplier<Consumer<String, byte[]>> consumers) {
        this.describe = describe;
        this.producer = producer;
        this.consumers = consumers;
    }

    /**
     * A publisher on a real cluster, logged in as the ONOS process's environment says (principal
     * weft-controller of contracts/topics.json: {@code WEFT_KAFKA_*}, see weft-auth's KafkaClientSecurity);
     * fails fast on a malformed bootstrap list or login.
     */
    public static KafkaSnapshotPublisher connect(String bootstrap) {
        return connect(bootstrap, KafkaClientSecurity.fromEnvironment());
    }

    static KafkaSnapshotPublisher connect(String bootstrap, KafkaClientSecurity login) {
        Properties p = login.applyTo(new Properties());
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "weft-onos");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(MAX_MESSAGE_BYTES));
        // A broker that is down must not hold the planning thread for Kafka's default minute.
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(TIMEOUT_MS));
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_MS));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(DELIVERY_TIMEOUT_MS));
        Producer<String, byte[]> producer = withKafkaClassLoader(
                () -> new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer()));
        return new KafkaSnapshotPublisher(TOPIC + " on " + bootstrap, producer, () -> consumer(bootstrap, login));
    }

    private static Consumer<String, byte[]> consumer(String bootstrap, KafkaClientSecurity login) {
        Properties p = login.applyTo(new Properties());
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "weft-onos-seed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_MS));
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(MAX_MESSAGE_BYTES));
        p.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(MAX_MESSAGE_BYTES));
        return withKafkaClassLoader(
                () -> new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer()));
    }

    private static <T> T withKafkaClassLoader(Supplier<T> create) {
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        t.setContextClassLoader(KafkaProducer.class.getClassLoader());
        try {
            return create.get();
        } finally {
            t.setContextClassLoader(previous);
        }
    }

    @Override
    public void publish(String fabricId, long version, ObjectNode snapshot) throws Exception {
        byte[] json = MAPPER.writeValueAsBytes(snapshot);
        producer.send(new ProducerRecord<>(TOPIC, fabricId, json))
                .get(DELIVERY_TIMEOUT_MS + TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    /** Reads the topic from its beginning to its current end; the last value under the key wins. */
    @Override
    public ObjectNode lastPublished(String fabricId) throws Exception {
        byte[] last = null;
        try (Consumer<String, byte[]> consumer = consumers.get()) {
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
                    throw new IllegalStateException("reading " + TOPIC + " to its end took more than "
                            + TIMEOUT_MS + " ms");
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (fabricId.equals(r.key())) {
                        last = r.value(); // null = tombstone: the fabric was deleted
                    }
                }
            }
        }
        return last == null ? null : (ObjectNode) MAPPER.readTree(last);
    }

    private static boolean reached(Consumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String describe() {
        return describe;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
