package io.weft.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A second start on the same state directory finds what the first one left there. */
class DevstackRestartTest {

    @Test
    void aRowAndARecordSurviveStopAndStart(@TempDir Path stateDir) throws Exception {
        List<TopicSpec> topics = KafkaTopicSetup.fromResource("/io/weft/devstack/test-topics.json");
        String clusterId;
        try (Devstack first = Devstack.builder().stateDir(stateDir).kafkaPort(0).postgresPort(0)
                .postgresFromTemplate(true).topics(topics).start()) {
            assertThat(first.createdTopics())
                    .containsExactlyInAnyOrder("devstack-test.snapshots", "devstack-test.events");
            clusterId = first.kafka().clusterId();
            try (Connection c = first.postgres().connect(); Statement s = c.createStatement()) {
                s.execute("create table kept (v text)");
                s.execute("insert into kept values ('before restart')");
            }
            KafkaRoundTrip.send(first.endpoints().kafkaBootstrapServers(), "devstack-test.snapshots", "ls-2x2", "v1");
        }
        assertThat(stateDir.resolve("kafka/logs/meta.properties")).exists();
        assertThat(Files.exists(stateDir.resolve("postgres/PG_VERSION"))).isTrue();

        try (Devstack second = Devstack.builder().stateDir(stateDir).kafkaPort(0).postgresPort(0)
                .postgresFromTemplate(true).topics(topics).start()) {
            assertThat(second.createdTopics()).isEmpty();
            assertThat(second.kafka().clusterId()).isEqualTo(clusterId);
            try (Connection c = second.postgres().connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("select v from kept")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("before restart");
            }
            List<ConsumerRecord<String, String>> records =
                    KafkaRoundTrip.readAll(second.endpoints().kafkaBootstrapServers(), "devstack-test.snapshots", 0, 1);
            assertThat(records).extracting(ConsumerRecord::value).containsExactly("v1");
        }
    }

    @Test
    void aTakenPortIsRefusedNamingTheService(@TempDir Path stateDir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            Devstack.Builder builder = Devstack.builder().stateDir(stateDir).kafkaPort(port)
                    .postgresPort(0).topics(List.of());

            assertThatThrownBy(builder::start)
                    .isInstanceOf(DevstackException.class)
                    .hasMessageContaining("Kafka port " + port)
                    .hasMessageContaining("already in use");
        }
    }
}
