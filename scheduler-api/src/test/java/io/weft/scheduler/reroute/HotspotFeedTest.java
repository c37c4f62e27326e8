package io.weft.scheduler.reroute;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.weft.contracts.HotspotEvent;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The Kafka side alone, on Kafka's own MockConsumer: what reaches the loop, and what is skipped. */
class HotspotFeedTest {
    private static final String TOPIC = "weft.hotspots";
    private final TopicPartition p0 = new TopicPartition(TOPIC, 0);

    /** The contract JSON of an event of {@code kind} (which need not be a kind the contract has). */
    static String event(String id, String kind) {
        Instant detected = Instant.parse("2026-11-27T03:00:00.005Z");
        return HotspotEvents.of(id, HotspotEvents.START, "leaf1-spine1", "spine1", detected.minusMillis(5), detected)
                .toJson().replace("\"" + HotspotEvents.START + "\"", "\"" + kind + "\"");
    }

    @Test
    void everyHotspotEventReachesTheLoopAndAnythingElseIsSkipped() throws Exception {
        MockConsumer<String, String> consumer = new MockConsumer<>("latest");
        List<HotspotEvent> got = new CopyOnWriteArrayList<>();
        List<Instant> when = new CopyOnWriteArrayList<>();
        HotspotFeed feed = new HotspotFeed(consumer, TOPIC, (ev, received) -> {
            got.add(ev);
            when.add(received);
        });
        consumer.schedulePollTask(() -> {
            consumer.updateBeginningOffsets(Map.of(p0, 0L));
            consumer.updateEndOffsets(Map.of(p0, 0L));
            consumer.rebalance(List.of(p0));
        });
        consumer.schedulePollTask(() -> {
            consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 0, "k", event("h1", "hotspot-start")));
            consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 1, "k", "not json"));
            consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 2, "k", event("h2", "hotspot-sideways")));
            consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 3, "k", null));
            consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 4, "k", event("h3", "link-down")));
        });
        Instant before = Instant.now();
        feed.start();
        assertThat(feed.awaitAssigned(Duration.ofSeconds(10))).isTrue();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (got.size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        feed.stop();
        assertThat(feed.isRunning()).isFalse();
        assertThat(consumer.closed()).isTrue();
        assertThat(got).extracting(HotspotEvent::eventId).containsExactly("h1", "h3");
        assertThat(got.get(0).kind().json()).isEqualTo(HotspotEvents.START);
        assertThat(got.get(0).directionKey().toString()).isEqualTo("leaf1-spine1>spine1");
        assertThat(when).allMatch(t -> !t.isBefore(before));
    }

    @Test
    void decodeSkipsTombstonesAndBadRecords() {
        assertThat(HotspotFeed.decode(new ConsumerRecord<>(TOPIC, 0, 0, "k", null))).isNull();
        assertThat(HotspotFeed.decode(new ConsumerRecord<>(TOPIC, 0, 0, "k", "{}"))).isNull();
        assertThat(HotspotFeed.decode(new ConsumerRecord<>(TOPIC, 0, 0, "k", event("h1", "hotspot-end"))).kind().json())
                .isEqualTo(HotspotEvents.END);
    }
}
