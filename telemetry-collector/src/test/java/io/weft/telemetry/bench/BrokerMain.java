package io.weft.telemetry.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.weft.devstack.EmbeddedKafka;
import io.weft.devstack.KafkaTopicSetup;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.utils.Utils;

/**
 * The benchmark's broker, in its own JVM so that the benchmark JVM's heap is the collector's alone:
 * starts an embedded KRaft broker on a free port with the contracts' topic catalogue, prints
 * {@code BOOTSTRAP host:port} on stdout, and stops when its stdin closes (the parent exited). Its log
 * directory goes with it: a run leaves 0.5-3 GB of preloaded events, and kept ones filled the disk.
 */
public final class BrokerMain {
    private BrokerMain() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Files.createTempDirectory("weft-loop-bench-kafka");
        try {
            serve(dir);
        } finally {
            Utils.delete(dir.toFile());
        }
    }

    private static void serve(Path dir) throws IOException {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0, Duration.ofSeconds(60));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            KafkaTopicSetup.ensure(admin, KafkaTopicSetup.catalogue());
            System.out.println("BOOTSTRAP " + kafka.bootstrapServers());
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait for the parent to close our stdin
            }
        }
    }
}
