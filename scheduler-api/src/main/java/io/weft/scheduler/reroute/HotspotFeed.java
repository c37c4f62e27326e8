package io.weft.scheduler.reroute;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import io.weft.contracts.HotspotEvent;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka side of the loop: one thread ("weft-reroute-feed") follows the hotspots topic in the
 * loop's consumer group, parses each record and hands the event, with the time it arrived, to the
 * loop. A record that is not a hotspot event is logged in one line and skipped. Nothing else: the
 * loop's state lives on the loop thread.
 */
final class HotspotFeed {
    private static final Logger LOG = LoggerFactory.getLogger(HotspotFeed.class);

    private final Consumer<String, String> consumer;
    private final String topic;
    private final BiConsumer<HotspotEvent, Instant> sink;
    private final CountDownLatch assigned = new CountDownLatch(1);
    private final Thread thread;

    HotspotFeed(Consumer<String, String> consumer, String topic, BiConsumer<HotspotEvent, Instant> sink) {
        this.consumer = consumer;
        this.topic = topic;
        this.sink = sink;
        this.thread = new Thread(this::run, "weft-reroute-feed");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** True once the consumer has its partitions (events published from now on are seen). */
    boolean awaitAssigned(Duration timeout) throws InterruptedException {
        return assigned.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    boolean isRunning() {
        return thread.isAlive();
    }

    /** Wakes the consumer out of its poll and waits (up to 5 s) for the thread to close it. */
    void stop() {
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    // Position now, so that "latest" is resolved before anyone is told we listen.
                    partitions.forEach(consumer::position);
                    assigned.countDown();
                }
            });
            while (!Thread.currentThread().isInterrupted()) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    HotspotEvent ev = decode(r);
                    if (ev != null) {
                        sink.accept(ev, Instant.now());
                    }
                }
            }
        } catch (WakeupException e) {
            // stop() asked us to leave.
        } catch (RuntimeException e) {
            LOG.error("hotspot feed stopped: {}", e.toString());
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** The record's event, or null (tombstone, not JSON, not a hotspot event: logged). */
    static HotspotEvent decode(ConsumerRecord<String, String> r) {
        if (r.value() == null) {
            return null;
        }
        try {
            return HotspotEvent.fromJson(r.value());
        } catch (IllegalArgumentException e) {
            LOG.warn("skipping {} record at offset {}: {}", r.topic(), r.offset(), e.getMessage());
        }
        return null;
    }
}
