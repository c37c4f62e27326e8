package io.weft.telemetry.stream;

import static io.weft.telemetry.stream.TopologyFixture.LINE_OCTETS_PER_S;
import static io.weft.telemetry.stream.TopologyFixture.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.telemetry.config.DetectionProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * weft.links.load coalesced to one record per direction per second of sample time (as the service
 * runs), while hotspot events still leave with the sample that decides them.
 */
class LoadCoalescingTest {
    /** alpha 1, 3 samples to enter: the 3rd sample above 80 % starts a hotspot. */
    private static final DetectionProperties RAW = new DetectionProperties(0.8, 0.6, 3, 1.0, 3000, 0.05);
    private TopologyFixture t;

    @BeforeEach
    void start() {
        t = new TopologyFixture(RAW, Duration.ofSeconds(1));
        t.publishFabric(1);
    }

    @AfterEach
    void stop() {
        t.close();
    }

    private static List<String> timestamps(List<JsonNode> loads) {
        return loads.stream().map(l -> l.get("toNode").asText() + "@" + l.get("timestampNs").asText()).toList();
    }

    @Test
    void theLatestLoadOfEachSecondLeavesWhenTheNextSecondBegins() {
        t.outOctets(1.0, 0);
        t.outOctets(1.25, LINE_OCTETS_PER_S / 40);     // 10 % over 0.25 s
        t.outOctets(1.5, LINE_OCTETS_PER_S / 20);      // 10 %
        t.outOctets(1.75, LINE_OCTETS_PER_S * 3 / 40); // 10 %
        assertThat(t.linkLoads()).isEmpty();           // all in second 1, the latest still waiting
        t.outOctets(2.0, LINE_OCTETS_PER_S * 7 / 40);  // 40 % over 0.25 s, second 2
        List<JsonNode> loads = t.linkLoads();
        assertThat(timestamps(loads)).containsExactly("spine1@1750000000");
        assertThat(loads.get(0).get("utilisation").asDouble()).isCloseTo(0.1, within(1e-9));
    }

    @Test
    void wallClockFlushSendsWhatWaitsAndSlowSamplesAreNotMerged() {
        t.outOctets(1, 0);
        t.outOctets(2, LINE_OCTETS_PER_S / 2);
        t.outOctets(3, LINE_OCTETS_PER_S);             // a new second: sends 2's load
        assertThat(timestamps(t.linkLoads())).containsExactly("spine1@2000000000");
        t.driver.advanceWallClockTime(Duration.ofSeconds(1));
        assertThat(timestamps(t.linkLoads())).containsExactly("spine1@3000000000");
        t.driver.advanceWallClockTime(Duration.ofSeconds(1));
        assertThat(t.linkLoads()).isEmpty();           // nothing new: nothing sent twice
    }

    @Test
    void hotspotEventsAreNotHeldBackWithTheLoads() {
        long octets = 0;
        t.outOctets(1.0, octets);
        for (int i = 1; i <= 3; i++) {                 // three 100 ms samples at 90 % of the line
            octets += (long) (0.9 * LINE_OCTETS_PER_S / 10);
            t.outOctets(1.0 + i / 10.0, octets);
        }
        assertThat(t.hotspotEvents()).singleElement()
                .satisfies(e -> assertThat(e.get("kind").asText()).isEqualTo("hotspot-start"));
        assertThat(t.linkLoads()).isEmpty();
        t.driver.advanceWallClockTime(Duration.ofSeconds(1));
        assertThat(t.linkLoads()).singleElement()
                .satisfies(l -> assertThat(l.get("hot").asBoolean()).isTrue());
    }

    /** gnmic sampling every 100 ms: ten samples a second, one load a second (the output does not scale). */
    @Test
    void tenSamplesASecondLeaveAsOneLoadASecond() {
        long octets = 0;
        int samples = 0;
        for (int tenth = 10; tenth <= 60; tenth++) {   // 1.0 s .. 6.0 s at 20 % of the line
            t.send("leaf1", event("leaf1", "eth1", tenth * 100_000_000L, "out-octets", Long.toString(octets)));
            octets += LINE_OCTETS_PER_S / 50;
            samples++;
        }
        // Seconds 1..5 closed by the next second's first sample; second 6 waits for the flush.
        List<JsonNode> loads = t.linkLoads();
        assertThat(timestamps(loads)).containsExactly("spine1@1900000000", "spine1@2900000000", "spine1@3900000000",
                "spine1@4900000000", "spine1@5900000000");
        assertThat(loads).allSatisfy(l -> assertThat(l.get("utilisation").asDouble()).isCloseTo(0.2, within(1e-9)));
        assertThat(samples).isEqualTo(51);
        t.driver.advanceWallClockTime(Duration.ofSeconds(1));
        assertThat(timestamps(t.linkLoads())).containsExactly("spine1@6000000000");
    }

    @Test
    void eachDirectionOfANicPortIsCoalescedOnItsOwn() {
        // leaf1 eth3 faces nic1: its out-octets measure leaf1 > nic1, its in-octets nic1 > leaf1.
        t.send("leaf1", event("leaf1", "eth3", 1_000_000_000L, "out-octets", "0", "in-octets", "0"));
        t.send("leaf1", event("leaf1", "eth3", 1_500_000_000L, "out-octets", "1000", "in-octets", "2000"));
        t.send("leaf1", event("leaf1", "eth3", 2_000_000_000L, "out-octets", "3000", "in-octets", "4000"));
        assertThat(timestamps(t.linkLoads())).containsExactlyInAnyOrder("nic1@1500000000", "leaf1@1500000000");
    }
}
