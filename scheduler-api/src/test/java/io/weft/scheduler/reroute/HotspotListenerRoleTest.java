package io.weft.scheduler.reroute;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.weft.auth.KafkaClientSecurity;
import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.WeftDevstackTest;
import io.weft.placement.PlacementConfig;
import io.weft.scheduler.config.SchedulerKafkaProperties;
import io.weft.scheduler.fabric.Placement;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionOperations;

/**
 * The hotspot loop follows the writer lease on the devstack's Kafka: a standby does not consume; the
 * writer does; when the writer goes (here it steps down: its consumer closes without leaving the
 * group, as a killed one would not leave it) the new writer gets the partitions at once, because both
 * join as the same static member, not after the old member's session times out (45 s).
 */
@WeftDevstackTest
class HotspotListenerRoleTest {
    @Test
    void onlyTheWriterConsumesAndANewWriterGetsThePartitionsAtOnce(DevstackEndpoints e) throws Exception {
        String run = Long.toString(System.nanoTime(), 36);
        String topic = "weft.hotspots.role-" + run;
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, e.kafkaBootstrapServers());
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }
        SchedulerKafkaProperties kafka =
                new SchedulerKafkaProperties(e.kafkaBootstrapServers(), "weft.fabric", "weft.telemetry.flows",
                "role-test");
        RerouteProperties props = new RerouteProperties(true, 1, 1, 500, topic, "role-test-" + run);
        Placement a = placement();
        Placement b = placement();
        HotspotListener onA = new HotspotListener(a, null, null, null, kafka, KafkaClientSecurity.plaintext(), props,
                new SimpleMeterRegistry(), event -> { });
        HotspotListener onB = new HotspotListener(b, null, null, null, kafka, KafkaClientSecurity.plaintext(), props,
                new SimpleMeterRegistry(), event -> { });
        try {
            a.becomeWriter(1);
            onA.start();
            onB.start();
            assertThat(onA.awaitAssigned(Duration.ofSeconds(60))).as("the writer consumes").isTrue();
            assertThat(onB.awaitAssigned(Duration.ofMillis(500))).as("a standby does not").isFalse();

            a.becomeStandby();
            long t0 = System.nanoTime();
            b.becomeWriter(2);
            assertThat(onB.awaitAssigned(Duration.ofSeconds(30))).as("the new writer consumes").isTrue();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("new writer's hotspot consumer held the partitions %d ms after taking over%n", ms);
            assertThat(ms).as("well under the 45 s session timeout a dynamic member would wait").isLessThan(10_000);
            assertThat(onA.awaitAssigned(Duration.ofMillis(100))).as("the old writer stopped consuming").isFalse();
        } finally {
            onA.stop();
            onB.stop();
        }
    }

    /** A replica's single writer without a database: the listener only needs its role. */
    private static Placement placement() {
        return new Placement(PlacementConfig.DEFAULTS, TransactionOperations.withoutTransaction(), () -> 0);
    }
}
