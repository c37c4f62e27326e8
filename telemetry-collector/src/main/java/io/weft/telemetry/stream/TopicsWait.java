package io.weft.telemetry.stream;

import java.time.Duration;
import java.util.Collection;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.weft.auth.KafkaClientSecurity;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits until the topics the topology uses exist. Kafka Streams gives up for good when the global
 * table's topic is missing at start, so a collector started together with its Kafka (the demo starts
 * every service while the devstack is still coming up) waits here instead, asking again every
 * {@code retry} until {@code timeout}.
 */
final class TopicsWait {
    private static final Logger LOG = LoggerFactory.getLogger(TopicsWait.class);

    private TopicsWait() {
    }

    /**
     * True once every topic exists; false after the timeout (what is missing is logged). The admin client
     * logs in as the collector's other clients do: a plaintext client on a SASL_SSL listener reads the TLS
     * handshake as a response size and runs out of heap.
     */
    static boolean await(String bootstrapServers, KafkaClientSecurity login, Collection<String> topics,
                         Duration timeout, Duration retry) throws InterruptedException {
        Properties p = login.applyTo(new Properties());
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) retry.toMillis());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) retry.toMillis());
        long deadline = System.nanoTime() + timeout.toNanos();
        Set<String> missing = new TreeSet<>(topics);
        boolean said = false;
        try (Admin admin = Admin.create(p)) {
            while (true) {
                String why;
                try {
                    missing.removeAll(admin.listTopics().names().get(retry.toMillis(), TimeUnit.MILLISECONDS));
                    if (missing.isEmpty()) {
                        if (said) {
                            LOG.info("Kafka topics {} exist: starting the topology", topics);
                        }
                        return true;
                    }
                    why = "missing " + missing;
                } catch (ExecutionException | TimeoutException e) {
                    why = "Kafka at " + bootstrapServers + " not answering (" + e.getClass().getSimpleName() + ")";
                }
                if (System.nanoTime() > deadline) {
                    LOG.warn("Kafka topics not ready after {} s: {}; starting the topology anyway", timeout.toSeconds(),
                            why);
                    return false;
                }
                if (!said) {
                    LOG.info("waiting for the Kafka topics the topology uses: {}", why);
                    said = true;
                }
                Thread.sleep(retry.toMillis());
            }
        }
    }
}
