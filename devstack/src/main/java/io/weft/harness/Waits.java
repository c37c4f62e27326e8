package io.weft.harness;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupState;

/**
 * Readiness waits over child services: poll a condition (the services are asynchronous across
 * processes) until it holds, failing at once with the cause when a child died and after a timeout
 * otherwise. Shared by system-tests and the lab experiments.
 */
public final class Waits {
    private static final long POLL_MS = 100;

    private Waits() {
    }

    /**
     * Polls {@code condition} every 100 ms until it holds. Before each poll {@code alive} runs and
     * throws when a child has died (e.g. {@link ChildService#checkAlive()} of each).
     *
     * @throws IllegalStateException after {@code timeout}, naming {@code what}
     */
    public static void until(String what, Duration timeout, Runnable alive, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            alive.run();
            if (condition.getAsBoolean()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s waiting for " + what);
            }
            sleep(POLL_MS);
        }
    }

    /** {@link #until} with every one of {@code children} checked alive. */
    public static void until(String what, Duration timeout, Collection<ChildService> children,
                             BooleanSupplier condition) {
        until(what, timeout, () -> children.forEach(ChildService::checkAlive), condition);
    }

    /**
     * Until the Kafka consumer group {@code group} is stable with a member holding partitions: a
     * service that reads a topic from "latest" misses whatever is sent before that.
     */
    public static void consumerGroupAssigned(String bootstrapServers, String group, Duration timeout, Runnable alive) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        consumerGroupAssigned(p, group, timeout, alive);
    }

    /** As above, with an admin client's whole settings (a secure broker's login among them). */
    public static void consumerGroupAssigned(Properties adminClient, String group, Duration timeout, Runnable alive) {
        try (Admin admin = Admin.create(adminClient)) {
            until("consumer group " + group + " holding its partitions", timeout, alive, () -> {
                try {
                    ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all()
                            .get(10, TimeUnit.SECONDS).get(group);
                    return d.groupState() == GroupState.STABLE
                            && d.members().stream().anyMatch(m -> !m.assignment().topicPartitions().isEmpty());
                } catch (Exception notYet) {
                    return false;
                }
            });
        }
    }

    /** Sleeps; an interrupt is kept and turned into an IllegalStateException. */
    public static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
