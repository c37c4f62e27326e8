package io.weft.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.weft.devstack.Devstack;
import io.weft.devstack.KafkaSecureListener;
import io.weft.fabric.Fabric;
import io.weft.harness.Http;
import io.weft.lab.fabric.LeafSpineGenerator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three services on a broker that only speaks SASL/SCRAM over TLS with the ACLs of
 * contracts/topics.json, each logging in as its own principal (and on its own PostgreSQL role), the
 * scripted switches as weft-gnmic. {@link WeftSystem#start} itself proves the reads and writes the
 * loop needs: the controller publishes weft.fabric and follows weft.hotspots in its group, scheduler-api
 * places on the snapshot and holds its weft.hotspots group, the collector's Streams application runs
 * (its changelog topics created under its prefix) and turns the switches' counters into loads. Then a
 * job is placed and an agent's flow report reaches weft.telemetry.flows through scheduler-api.
 */
class SecureKafkaSystemTest {
    @TempDir
    static Path state;
    private static Devstack devstack;
    private static WeftSystem weft;

    @BeforeAll
    static void start() {
        devstack = Devstack.builder().stateDir(state).kafkaPort(0).postgresPort(0).postgresFromTemplate(true)
                .kafkaSecure(true).readyTimeout(Duration.ofSeconds(120)).start();
        KafkaSecureListener listener = devstack.kafka().secureListener().orElseThrow();
        Fabric fabric = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 2, 2));
        weft = WeftSystem.start(fabric, devstack.endpoints(), KafkaLogins.of(listener));
    }

    @AfterAll
    static void stop() {
        if (weft != null) {
            weft.close();
        }
        if (devstack != null) {
            devstack.close();
        }
    }

    @Test
    void theLoopRunsWithEveryServiceOnItsOwnLogin() {
        List<String> nics = WeftSystem.nics(weft.fabric);
        SchedulerClient scheduler = new SchedulerClient(weft.schedulerPort);
        scheduler.createRing("secure-ring", nics, 10);
        String nic = nics.get(0);
        // 202 only once Kafka took the report: scheduler-api may write weft.telemetry.flows.
        Http.Reply r = Http.post(weft.schedulerPort, "/v1/agents/" + nic + "/reports", WeftSystem.AGENT_TOKEN,
                "{\"schemaVersion\":1,\"nic\":\"" + nic + "\",\"timestampNs\":\"1700000000123456789\",\"flows\":[]}");
        assertThat(r.status()).as(r.text() + "\n" + weft.tails(40)).isEqualTo(202);
        for (String service : List.of("telemetry-collector", "scheduler-api", "controller")) {
            // Neither a refused read or write, nor a client thread that gave up (the first metadata fetch
            // over TLS and SCRAM is slower than on plaintext).
            assertThat(weft.child(service).logText()).as(service).doesNotContain("AuthorizationException")
                    .doesNotContain("AuthenticationException").doesNotContain("Exception in thread");
        }
    }
}
