package io.weft.telemetry.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weft.auth.KafkaClientSecurity;
import io.weft.contracts.Contracts;
import io.weft.contracts.LinkLoad;
import io.weft.contracts.Topics;
import io.weft.telemetry.config.LiveProperties;
import io.weft.telemetry.config.TelemetryKafkaProperties;
import io.weft.telemetry.stream.TelemetryCounters;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The shared link-load and hotspot-event vectors (contracts/vectors) through the feed's reading of
 * weft.links.load and weft.hotspots: valid values reach the live state unchanged, invalid ones are
 * counted and skipped, exactly as the contract types' readers decide.
 */
class LiveLoadFeedTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Comparator<JsonNode> SAME_NUMBER = (a, b) -> a.equals(b)
            || a.isNumber() && b.isNumber() && a.decimalValue().compareTo(b.decimalValue()) == 0 ? 0 : 1;

    private final TelemetryCounters counters = new TelemetryCounters();
    private final LiveLoads loads = new LiveLoads("e1");
    private final LiveLoadFeed feed = new LiveLoadFeed(
            new TelemetryKafkaProperties("", "app", "/tmp", Topics.FABRIC, Topics.TELEMETRY_INTERFACES,
                    Topics.TELEMETRY_FLOWS, Topics.HOTSPOTS, Topics.LINKS_LOAD, Topics.TELEMETRY_DEADLETTER, 0, 6000,
                    "classic"),
            KafkaClientSecurity.plaintext(), loads, new LoadStreams(loads, new LiveProperties(100, 15_000), counters),
            counters);
    private long offset;

    private void record(String topic, String key, String value) {
        feed.accept(new ConsumerRecord<>(topic, 0, offset++, key, value));
    }

    private static List<JsonNode> cases(String file) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        JSON.readTree(Contracts.read(file)).get("cases").forEach(out::add);
        return out;
    }

    @Test
    void everyLinkLoadVectorIsTakenOrRefusedAsTheContractSays() throws Exception {
        int valid = 0;
        int refused = 0;
        for (JsonNode c : cases("vectors/link-loads.json")) {
            String key = c.hasNonNull("key") ? c.get("key").asText() : null;
            long before = loads.seq();
            record(Topics.LINKS_LOAD, key, JSON.writeValueAsString(c.get("value")));
            if (c.get("valid").asBoolean()) {
                valid++;
                assertThat(loads.seq()).as(c.get("name").asText()).isEqualTo(before + 1);
                LiveLoads.View changed = loads.since(before);
                assertThat(changed.loads()).extracting(LinkLoad::key).containsExactly(key);
                // What the stream sends is the value as written to the topic (400 and 400.0 are one number).
                JsonNode sent = JSON.readTree(LoadStreams.json(changed, true)).get("loads").get(0);
                assertThat(sent.equals(SAME_NUMBER, c.get("value"))).as(c.get("name") + ": " + sent).isTrue();
            } else {
                refused++;
                assertThat(loads.seq()).as(c.get("name").asText()).isEqualTo(before);
            }
        }
        assertThat(valid).isPositive();
        assertThat(counters.get("live.unreadable")).isEqualTo(refused).isPositive();
    }

    @Test
    void aLoadUnderAnotherDirectionsKeyIsRefusedAndATombstoneRemoves() throws Exception {
        JsonNode first = cases("vectors/link-loads.json").get(0);
        String value = JSON.writeValueAsString(first.get("value"));
        String key = first.get("key").asText();
        record(Topics.LINKS_LOAD, "other-link>spine9", value);
        assertThat(loads.seq()).isZero();
        assertThat(counters.get("live.unreadable")).isEqualTo(1);
        record(Topics.LINKS_LOAD, key, value);
        record(Topics.LINKS_LOAD, key, null);
        assertThat(loads.snapshot().loads()).isEmpty();
        assertThat(loads.since(1).removed()).containsExactly(key);
    }

    @Test
    void everyHotspotVectorIsPassedOnOrRefusedAsTheContractSays() throws Exception {
        int refused = 0;
        for (JsonNode c : cases("vectors/hotspot-events.json")) {
            record(Topics.HOTSPOTS, null, JSON.writeValueAsString(c.get("value")));
            if (!c.get("valid").asBoolean()) {
                refused++;
            }
            assertThat(counters.get("live.unreadable")).as(c.get("name").asText()).isEqualTo(refused);
        }
        assertThat(refused).isPositive();
        assertThat(loads.seq()).isZero();
    }
}
