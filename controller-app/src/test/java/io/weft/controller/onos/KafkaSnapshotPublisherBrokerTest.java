package io.weft.controller.onos;

import static io.weft.controller.onos.OsgiPropertyConstants.KAFKA_BOOTSTRAP;
import static io.weft.controller.onos.OsgiPropertyConstants.REPLAN_DEBOUNCE_MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.UUID;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The real client path (lz4, idempotent producer, read-to-end consumer) against a running broker
 * that already has the weft.fabric topic, e.g. the devstack:
 * {@code WEFT_KAFKA_BOOTSTRAP=127.0.0.1:9092 ./mvnw -pl controller-app test -Dtest=KafkaSnapshotPublisherBrokerTest}.
 * Skipped when WEFT_KAFKA_BOOTSTRAP is not set: this module cannot embed a broker (the broker needs a
 * newer Jackson than the ONOS 2.11 these tests run on).
 */
@EnabledIfEnvironmentVariable(named = "WEFT_KAFKA_BOOTSTRAP", matches = ".+")
class KafkaSnapshotPublisherBrokerTest {
    private static final String BOOTSTRAP = System.getenv("WEFT_KAFKA_BOOTSTRAP");

    @Test
    void publishedSnapshotsAreReadBackLastOneWins() throws Exception {
        String fabricId = "onos-test-" + UUID.randomUUID();
        ObjectMapper mapper = new ObjectMapper();
        try (KafkaSnapshotPublisher publisher = KafkaSnapshotPublisher.connect(BOOTSTRAP)) {
            for (long version = 1; version <= 2; version++) {
                ObjectNode s = mapper.createObjectNode().put("fabricId", fabricId).put("version", version);
                publisher.publish(fabricId, version, s);
            }

            ObjectNode last = publisher.lastPublished(fabricId);

            assertThat(last).isNotNull();
            assertThat(last.path("version").asLong()).isEqualTo(2L);
            assertThat(publisher.lastPublished("no-such-" + fabricId)).isNull();
        }
    }

    @Test
    void secondOwnerCarriesOnFromTheFirstOwnersSnapshot() throws Exception {
        String fabricId = "onos-failover-" + UUID.randomUUID();
        String nics = ",'nics':[{'id':'nic1','attach':'device:leaf1/3'},{'id':'nic2','attach':'device:leaf2/3'}]}";

        // First owner: leaves pinned to uN 0x40/0x41 by netcfg.
        TestFabric first = new TestFabric();
        first.configs.putApp(TestFabric.APP_ID, Fixtures.inline("{'fabricId':'" + fabricId + "'" + nics));
        first.configs.putDevice("device:leaf1", Fixtures.inline("{'role':'leaf','name':'leaf1','srv6NodeId':64}"));
        first.configs.putDevice("device:leaf2", Fixtures.inline("{'role':'leaf','name':'leaf2','srv6NodeId':65}"));
        PlanProvisioner a = new PlanProvisioner();
        PlanProvisionerTest.wire(a, first, new FakeMastershipService(), new ArrayList<>());
        a.activate(new ContextWith(REPLAN_DEBOUNCE_MS, 0, KAFKA_BOOTSTRAP, BOOTSTRAP));
        a.awaitIdle();
        long published = a.current().version();
        a.deactivate();

        // Second owner: same switches, no pins; only the snapshot on Kafka knows 0x40/0x41.
        TestFabric second = new TestFabric();
        second.configs.putApp(TestFabric.APP_ID, Fixtures.inline("{'fabricId':'" + fabricId + "'" + nics));
        PlanProvisioner b = new PlanProvisioner();
        PlanProvisionerTest.wire(b, second, new FakeMastershipService(), new ArrayList<>());
        b.activate(new ContextWith(REPLAN_DEBOUNCE_MS, 0, KAFKA_BOOTSTRAP, BOOTSTRAP));
        b.awaitIdle();
        try {
            assertThat(b.current().version()).isEqualTo(published + 1);
            assertThat(b.current().plan().nodeId("leaf1")).isEqualTo(64);
            assertThat(b.current().plan().nodeId("leaf2")).isEqualTo(65);
            try (KafkaSnapshotPublisher reader = KafkaSnapshotPublisher.connect(BOOTSTRAP)) {
                assertThat(reader.lastPublished(fabricId).path("version").asLong()).isEqualTo(published + 1);
            }
        } finally {
            b.deactivate();
        }
    }
}
