package io.weft.controller.onos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The publisher against Kafka's own MockProducer/MockConsumer (no broker in unit tests). */
class KafkaSnapshotPublisherTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TopicPartition TP = new TopicPartition(KafkaSnapshotPublisher.TOPIC, 0);

    private final MockProducer<String, byte[]> producer =
            new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
    private final MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");

    private KafkaSnapshotPublisher publisher() {
        return new KafkaSnapshotPublisher("mock", producer, () -> consumer);
    }

    private static ObjectNode snapshot(String fabricId, long version) {
        ObjectNode s = MAPPER.createObjectNode();
        s.put("fabricId", fabricId);
        s.put("version", version);
        return s;
    }

    @Test
    void publishesTheSnapshotJsonKeyedByFabricIdOnWeftFabric() throws Exception {
        publisher().publish("pod-a", 3, snapshot("pod-a", 3));

        List<ProducerRecord<String, byte[]>> sent = producer.history();
        assertThat(sent).hasSize(1);
        assertThat(sent.get(0).topic()).isEqualTo("weft.fabric");
        assertThat(sent.get(0).key()).isEqualTo("pod-a");
        assertThat(new String(sent.get(0).value(), StandardCharsets.UTF_8))
                .isEqualTo("{\"fabricId\":\"pod-a\",\"version\":3}");
    }

    @Test
    void aFailedSendIsReportedToTheCaller() {
        MockProducer<String, byte[]> failing =
                new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
        KafkaSnapshotPublisher p = new KafkaSnapshotPublisher("mock", failing, () -> consumer);
        Thread failer = new Thread(() -> {
            while (!failing.errorNext(new IllegalStateException("broker down"))) {
                Thread.onSpinWait();
            }
        });
        failer.start();

        assertThatThrownBy(() -> p.publish("pod-a", 1, snapshot("pod-a", 1))).hasMessageContaining("broker down");
    }

    @Test
    void lastPublishedIsTheLastRecordUnderTheKey() throws Exception {
        readable(record(0, "pod-a", snapshot("pod-a", 1)), record(1, "pod-b", snapshot("pod-b", 9)),
                record(2, "pod-a", snapshot("pod-a", 2)));

        assertThat(publisher().lastPublished("pod-a").toString()).isEqualTo("{\"fabricId\":\"pod-a\",\"version\":2}");
        assertThat(consumer.closed()).isTrue();
    }

    @Test
    void unknownFabricOrTombstoneGivesNothing() throws Exception {
        readable(record(0, "pod-a", snapshot("pod-a", 1)), new ConsumerRecord<>(TP.topic(), 0, 1, "pod-a", null));

        assertThat(publisher().lastPublished("pod-a")).isNull();
    }

    @Test
    void emptyTopicGivesNothing() throws Exception {
        readable();

        assertThat(publisher().lastPublished("pod-a")).isNull();
    }

    private static ConsumerRecord<String, byte[]> record(long offset, String key, ObjectNode value) throws Exception {
        return new ConsumerRecord<>(TP.topic(), 0, offset, key, MAPPER.writeValueAsBytes(value));
    }

    @SafeVarargs
    private void readable(ConsumerRecord<String, byte[]>... records) {
        consumer.updatePartitions(TP.topic(), List.of(new PartitionInfo(TP.topic(), 0, null, null, null)));
        consumer.updateBeginningOffsets(Map.of(TP, 0L));
        consumer.updateEndOffsets(Map.of(TP, (long) records.length));
        consumer.schedulePollTask(() -> {
            for (ConsumerRecord<String, byte[]> r : records) {
                consumer.addRecord(r);
            }
        });
    }
}
