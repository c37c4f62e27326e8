package io.weft.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import io.weft.devstack.junit.DevstackExtension;
import io.weft.devstack.junit.WeftDevstackTest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

@WeftDevstackTest
class SharedKafkaTest {

    @Test
    void aRecordGoesThroughTheBroker(DevstackEndpoints devstack) throws Exception {
        String topic = "devstack-test.roundtrip-" + UUID.randomUUID();
        KafkaRoundTrip.send(devstack.kafkaBootstrapServers(), topic, "k1", "{\"hello\":1}");

        List<ConsumerRecord<String, String>> records =
                KafkaRoundTrip.readAll(devstack.kafkaBootstrapServers(), topic, 0, 1);

        assertThat(records).hasSize(1);
        assertThat(records.get(0).key()).isEqualTo("k1");
        assertThat(records.get(0).value()).isEqualTo("{\"hello\":1}");
    }

    @Test
    void catalogueTopicsAreCreatedOnceWithTheirConfig(DevstackEndpoints devstack) throws Exception {
        List<TopicSpec> specs = KafkaTopicSetup.fromResource("/io/weft/devstack/test-topics.json");
        try (Admin admin = admin(devstack)) {
            List<String> first = KafkaTopicSetup.ensure(admin, specs);
            List<String> second = KafkaTopicSetup.ensure(admin, specs);

            // Another test class may have created them already; either way the second call creates nothing.
            assertThat(first).isSubsetOf("devstack-test.snapshots", "devstack-test.events");
            assertThat(second).isEmpty();
            assertThat(cleanupPolicy(admin, "devstack-test.snapshots")).isEqualTo("compact");
            assertThat(cleanupPolicy(admin, "devstack-test.events")).isEqualTo("delete");
            Map<String, TopicDescription> described =
                    admin.describeTopics(List.of("devstack-test.events")).allTopicNames().get();
            assertThat(described.get("devstack-test.events").partitions()).hasSize(3);
        }
    }

    @Test
    void theContractsCatalogueIsCreatedByTheExtension(DevstackEndpoints devstack) throws Exception {
        try (Admin admin = admin(devstack)) {
            for (TopicSpec spec : KafkaTopicSetup.catalogue()) {
                assertThat(admin.listTopics().names().get()).contains(spec.name());
                String expected = spec.config().getOrDefault("cleanup.policy", "delete");
                assertThat(cleanupPolicy(admin, spec.name())).as(spec.name()).isEqualTo(expected);
            }
        }
    }

    @Test
    void theJvmStartedOneDevstack(DevstackEndpoints devstack) {
        assertThat(DevstackExtension.startCount()).isEqualTo(1);
        assertThat(DevstackExtension.endpoints()).isEqualTo(devstack);
        assertThat(devstack.kafkaBootstrapServers()).startsWith("127.0.0.1:");
    }

    private static Admin admin(DevstackEndpoints devstack) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, devstack.kafkaBootstrapServers());
        return Admin.create(p);
    }

    private static String cleanupPolicy(Admin admin, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
        return config.get("cleanup.policy").value();
    }
}
