package io.weft.controller.standalone;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;

import io.weft.auth.KafkaClientSecurity;
import io.weft.contracts.HotspotEvent;
import io.weft.contracts.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows {@value #TOPIC} (contracts/schemas/hotspot-event.schema.json) and turns {@code link-down} /
 * {@code link-up} events into link states of the snapshot; hotspot-start/-end are the scheduler's
 * business and are skipped. Committed offsets (group {@value #GROUP_PREFIX}&lt;fabric id&gt;: one group per
 * fabric, so that controllers of different fabrics each see every event) let a restart resume where it
 * stopped; the link states themselves are restored from the last snapshot.
 */
final class LinkEventListener implements AutoCloseable {
    static final String TOPIC = Topics.HOTSPOTS;
    static final String GROUP_PREFIX = "weft-controller-standalone.";

    private final KafkaConsumer<String, String> consumer;
    private final SnapshotKeeper controller;
    private final Consumer<String> problem;
    private final Thread thread;
    private volatile boolean running = true;

    LinkEventListener(String bootstrap, KafkaClientSecurity login, String fabricId, SnapshotKeeper controller,
                      Consumer<String> problem) {
        Properties p = login.applyTo(new Properties());
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP_PREFIX + fabricId);
        // A first start has no history to catch up on: the link states it starts from are in the snapshot.
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "true");
        this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
        this.controller = controller;
        this.problem = problem;
        this.thread = new Thread(this::run, "weft-hotspot-listener");
        this.thread.setDaemon(true);
    }

    LinkEventListener start() {
        consumer.subscribe(List.of(TOPIC));
        thread.start();
        return this;
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    handle(r);
                }
            }
        } catch (WakeupException e) {
            // close() woke us up
        } catch (RuntimeException e) {
            problem.accept("link-event listener stopped: " + e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /**
     * One event, read strictly; a malformed one is reported with its offset and the field at fault, and
     * skipped (it cannot become valid later).
     */
    void handle(ConsumerRecord<String, String> r) {
        HotspotEvent event;
        try {
            event = HotspotEvent.fromJson(r.value());
        } catch (IllegalArgumentException e) {
            problem.accept(TOPIC + " offset " + r.offset() + ": skipped: " + e.getMessage());
            return;
        }
        handle(event);
    }

    void handle(HotspotEvent event) {
        switch (event.kind()) {
            case LINK_DOWN -> controller.setDown(event.linkId(), true);
            case LINK_UP -> controller.setDown(event.linkId(), false);
            case HOTSPOT_START, HOTSPOT_END -> { }
            default -> throw new IllegalStateException("hotspot event kind " + event.kind() + " not handled");
        }
    }

    @Override
    public void close() {
        if (!thread.isAlive()) {
            consumer.close(Duration.ZERO); // never started (or already ended, which closed it: a no-op then)
            return;
        }
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
