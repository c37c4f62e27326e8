package io.weft.controller.onos;

import static io.weft.controller.onos.OsgiPropertyConstants.KAFKA_BOOTSTRAP;
import static io.weft.controller.onos.OsgiPropertyConstants.REPLAN_DEBOUNCE_MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.UUID;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real client path (lz4, idempotent producer, read-to-end consumer) against a real broker with the
 * topic catalogue: the devstack, started as a child process ({@link DevstackChild}: this module's ONOS
 * Jackson cannot host the broker), or the broker named by {@code WEFT_KAFKA_BOOTSTRAP}.
 */
class KafkaSnapshotPublisherBrokerTest {
    private static DevstackChild devstack;
    private static String bootstrap;

    @BeforeAll
    static void startBroker() throws Exception {
        devstack = DevstackChild.start();
        bootstrap = devstack.bootstrap();
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (devstack != null) {
            devstack.close();
        }
    }

    @Test
    void publishedSnapshotsAreReadBackLastOneWins() throws Exception {
        String fabricId = "onos-test-" + UUID.randomUUID();
        ObjectMapper mapper = new ObjectMapper();
        try (KafkaSnapshotPublisher publisher = KafkaSnapshotPublisher.connect(bootstrap)) {
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
        a.activate(new ContextWith(REPLAN_DEBOUNCE_MS, 0, KAFKA_BOOTSTRAP, bootstrap));
        a.awaitIdle();
        long published = a.current().version();
        a.deactivate();

        // Second owner: same switches, no pins; only the snapshot on Kafka knows 0x40/0x41.
        TestFabric second = new TestFabric();
        second.configs.putApp(TestFabric.APP_ID, Fixtures.inline("{'fabricId':'" + fabricId + "'" + nics));
        PlanProvisioner b = new PlanProvisioner();
        PlanProvisionerTest.wire(b, second, new FakeMastershipService(), new ArrayList<>());
        b.activate(new ContextWith(REPLAN_DEBOUNCE_MS, 0, KAFKA_BOOTSTRAP, bootstrap));
        b.awaitIdle();
        try {
            assertThat(b.current().version()).isEqualTo(published + 1);
            assertThat(b.current().plan().nodeId("leaf1")).isEqualTo(64);
            assertThat(b.current().plan().nodeId("leaf2")).isEqualTo(65);
            try (KafkaSnapshotPublisher reader = KafkaSnapshotPublisher.connect(bootstrap)) {
                assertThat(reader.lastPublished(fabricId).path("version").asLong()).isEqualTo(published + 1);
            }
        } finally {
            b.deactivate();
        }
    }
}
