package io.weft.telemetry.stream;

import static io.weft.telemetry.stream.TopologyFixture.LINE_OCTETS_PER_S;
import static io.weft.telemetry.stream.TopologyFixture.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.contracts.DirectionKey;
import io.weft.telemetry.config.DetectionProperties;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Hotspot hysteresis and link down / up, through the whole topology. */
class DetectionTopologyTest {
    /** alpha 1: the EWMA is the last sample, so that each case reads as a plain utilisation sequence. */
    private static final String KEY = "leaf1-spine1>spine1";
    private static final DetectionProperties RAW = new DetectionProperties(0.8, 0.6, 3, 1.0, 3000, 0.05);
    private TopologyFixture t;
    private long octets;
    private int second;
    private int saveTicks;

    @AfterEach
    void stop() {
        if (t != null) {
            t.close();
        }
    }

    private void start(DetectionProperties p) {
        t = new TopologyFixture(p);
        t.publishFabric(1);
        t.outOctets(0, 0);
    }

    /** One more second of leaf1-spine1 > spine1 at this utilisation. */
    private void second(double utilisation) {
        octets += (long) (utilisation * LINE_OCTETS_PER_S);
        t.outOctets(++second, octets);
    }

    private List<String> kinds() {
        return t.hotspotEvents().stream().map(e -> e.get("kind").asText() + "@" + e.get("sampleTimestampNs").asText())
                .toList();
    }

    @Test
    void entersAfterNSamplesAboveHighAndLeavesOnlyBelowLow() {
        start(RAW);
        second(0.9);
        second(0.9);
        assertThat(kinds()).isEmpty();
        second(0.9);
        assertThat(kinds()).containsExactly("hotspot-start@3000000000");
        second(0.9);
        second(0.7);
        assertThat(kinds()).isEmpty();
        second(0.5);
        assertThat(kinds()).containsExactly("hotspot-end@6000000000");
    }

    @Test
    void hotspotStartCarriesTheTriggeringNumbersAndValidates() {
        start(RAW);
        second(0.9);
        second(0.9);
        second(0.95);
        List<JsonNode> events = t.hotspotEvents();
        assertThat(events).hasSize(1);
        JsonNode e = events.get(0);
        assertThat(e.get("kind").asText()).isEqualTo("hotspot-start");
        assertThat(e.get("linkId").asText()).isEqualTo("leaf1-spine1");
        assertThat(e.get("direction").asText()).isEqualTo("spine1");
        assertThat(e.get("sampleTimestampNs").asText()).isEqualTo("3000000000");
        assertThat(e.get("utilisation").asDouble()).isCloseTo(0.95, within(1e-9));
        assertThat(e.get("threshold").asDouble()).isEqualTo(0.8);
        assertThat(e.get("detectedAt").asText()).isEqualTo("2026-11-21T12:00:00Z");
        assertThat(Schemas.errors("schemas/hotspot-event.schema.json", e)).isEmpty();
        List<JsonNode> loads = t.linkLoads();
        assertThat(loads.get(loads.size() - 1).get("hot").asBoolean()).isTrue();
        assertThat(loads.get(1).get("hot").asBoolean()).isFalse();
    }

    @Test
    void noFlappingAroundTheThresholds() {
        start(RAW);
        for (int i = 0; i < 10; i++) {
            second(i % 2 == 0 ? 0.81 : 0.79); // never N in a row above high
        }
        assertThat(kinds()).isEmpty();
        second(0.85);
        second(0.85);
        second(0.85);
        assertThat(kinds()).containsExactly("hotspot-start@13000000000");
        for (int i = 0; i < 10; i++) {
            second(i % 2 == 0 ? 0.61 : 0.79); // between low and high: stays hot, no event
        }
        assertThat(kinds()).isEmpty();
        second(0.59);
        second(0.55);
        assertThat(kinds()).containsExactly("hotspot-end@24000000000");
    }

    @Test
    void theEwmaSmoothsASingleSpike() {
        start(new DetectionProperties(0.8, 0.6, 2, 0.3, 3000, 0.05));
        second(0.2);
        second(1.0);  // ewma 0.44
        second(1.0);  // ewma 0.608
        second(0.2);  // ewma 0.4856
        assertThat(kinds()).isEmpty();
    }

    @Test
    void operStatusDownAndUp() {
        start(RAW);
        second(0.5);
        t.send("leaf1", event("leaf1", "eth1", 1_500_000_000L, "out-octets", Long.toString(octets)) // same counters
                .replace("\"values\":{", "\"values\":{\"/interfaces/interface/state/oper-status\":\"DOWN\","));
        t.send("leaf1", event("leaf1", "eth1", 1_600_000_000L, "out-octets", Long.toString(octets))
                .replace("\"values\":{", "\"values\":{\"/interfaces/interface/state/oper-status\":\"DOWN\","));
        List<JsonNode> down = t.hotspotEvents();
        assertThat(down).extracting(e -> e.get("kind").asText()).containsExactly("link-down");
        assertThat(Schemas.errors("schemas/hotspot-event.schema.json", down.get(0))).isEmpty();
        t.send("leaf1", event("leaf1", "eth1", 1_700_000_000L)
                .replace("\"values\":{", "\"values\":{\"openconfig-interfaces:oper-status\":\"openconfig-if:UP\""));
        assertThat(kinds()).containsExactly("link-up@1700000000");
    }

    @Test
    void operStatusDownOnANicPortTakesBothDirectionsDown() {
        start(RAW);
        t.send("leaf1", event("leaf1", "eth3", 1_000_000_000L)
                .replace("\"values\":{", "\"values\":{\"/interfaces/interface/state/oper-status\":\"DOWN\""));
        assertThat(t.hotspotEvents())
                .extracting(e -> DirectionKey.text(e.get("linkId").asText(), e.get("direction").asText()))
                .containsExactlyInAnyOrder("nic1-leaf1>leaf1", "nic1-leaf1>nic1");
    }

    @Test
    void frozenCountersOnABusyLinkAreALinkDownAndMovingAgainALinkUp() {
        start(RAW);
        second(0.5);
        second(0.5);             // busy until t=2
        second(0);               // frozen since t=2
        second(0);
        assertThat(kinds()).isEmpty();
        second(0);               // t=5: frozen for 3 s = the timeout
        assertThat(kinds()).containsExactly("link-down@5000000000");
        second(0);
        assertThat(kinds()).isEmpty();
        second(0.3);
        assertThat(kinds()).containsExactly("link-up@7000000000");
    }

    @Test
    void frozenCountersOnAnIdleLinkAreNotAFailure() {
        start(RAW);
        for (int i = 0; i < 10; i++) {
            second(0);
        }
        assertThat(kinds()).isEmpty();
    }

    @Test
    void stateSurvivesTheStoreRoundTrip() {
        start(RAW);
        second(0.9);
        second(0.9);
        second(0.9);
        assertThat(t.driver.getKeyValueStore(TelemetryTopology.DIRECTIONS_STORE).get("leaf1-spine1>spine1")).isNull();
        saveTick(); // the processor saves its live state (a decision: hot)
        LinkDirection d = (LinkDirection) t.driver.getKeyValueStore(TelemetryTopology.DIRECTIONS_STORE)
                .get("leaf1-spine1>spine1");
        LinkDirection copy = LinkDirectionSerde.read(LinkDirectionSerde.write(d));
        assertThat(copy.hot()).isTrue();
        assertThat(copy.ewma()).isEqualTo(d.ewma());
        assertThat(LinkDirectionSerde.write(copy)).isEqualTo(LinkDirectionSerde.write(d));
    }

    @Test
    void decisionsAreSavedWithinASecondMeasurementsAloneEveryTenth() {
        start(RAW);
        KeyValueStore<String, Object> store = t.driver.getKeyValueStore(TelemetryTopology.DIRECTIONS_STORE);
        int every = TelemetryTopology.StateSaves.SERVICE.measurementsEvery();
        second(0.3);
        second(0.3);
        for (int i = 1; i < every; i++) {
            saveTick();
            assertThat(store.get(KEY)).as("measurements alone, save %d", i).isNull();
        }
        saveTick();
        assertThat(((LinkDirection) store.get(KEY)).ewma()).isCloseTo(0.3, within(1e-9));

        second(0.9); // one sample towards hotspot-start: a decision, saved at the next second
        saveTick();
        assertThat(((LinkDirection) store.get(KEY)).samplesAbove).isEqualTo(1);
        second(0.9);
        second(0.9);
        saveTick();
        LinkDirection hot = (LinkDirection) store.get(KEY);
        assertThat(hot.hot()).isTrue();
        assertThat(hot.ewma()).isCloseTo(0.9, within(1e-9));

        second(0.85); // still hot, nothing decided: the store keeps the decision's state until the next full save
        while ((saveTicks + 1) % every != 0) {
            saveTick();
            assertThat(((LinkDirection) store.get(KEY)).ewma()).isCloseTo(0.9, within(1e-9));
        }
        saveTick();
        assertThat(((LinkDirection) store.get(KEY)).ewma()).isCloseTo(0.85, within(1e-9));
    }

    /** One second of wall-clock time: one save of the processor's live state. */
    private void saveTick() {
        t.driver.advanceWallClockTime(TelemetryTopology.StateSaves.SERVICE.interval());
        saveTicks++;
    }

    /** leaf1 eth1's queue "0" (direction leaf1-spine1 > spine1) at t seconds: packets sent and dropped so far. */
    private void queue(double tSeconds, long transmitted, long dropped) {
        t.send("leaf1", "{\"name\":\"queues\",\"timestamp\":" + (long) (tSeconds * 1e9) + ",\"tags\":{\"target\":"
                + "\"leaf1\",\"interface_interface-id\":\"eth1\",\"queue_name\":\"0\"},\"values\":{"
                + "\"/qos/interfaces/interface/output/queues/queue/state/transmit-pkts\":\"" + transmitted + "\","
                + "\"/qos/interfaces/interface/output/queues/queue/state/dropped-pkts\":\"" + dropped + "\"}}");
    }

    @Test
    void aThrottledPortIsHotByItsQueueDropsWhileItsUtilisationStaysLow() {
        // Utilisation never nears 0.8: a throttle lowers what the link carries. 2 samples above 10 % drops enter.
        start(new DetectionProperties(0.8, 0.6, 2, 1.0, 3000, 0.05, 0.10, 0.01));
        queue(0, 0, 0);
        second(0.1);
        queue(1, 1000, 0);
        second(0.1);
        queue(2, 1700, 300); // 30 % of the offered packets dropped
        assertThat(kinds()).isEmpty();
        second(0.07);
        queue(3, 2400, 600);
        assertThat(kinds()).containsExactly("hotspot-start@3000000000");
        // Low utilisation does not end it while the port still drops.
        second(0.07);
        queue(4, 3100, 900);
        second(0.07);
        assertThat(kinds()).isEmpty();
        // The traffic left (nothing offered): no drops, low utilisation: the end.
        queue(5, 3100, 900);
        second(0.0);
        assertThat(kinds()).containsExactly("hotspot-end@6000000000");
    }

    @Test
    void dropsBelowTheThresholdOrWithTheRuleOffNeverMakeAHotspot() {
        start(new DetectionProperties(0.8, 0.6, 1, 1.0, 3000, 0.05, 0.10, 0.01));
        queue(0, 0, 0);
        queue(1, 1000, 50); // 5 %: below 10 %
        queue(2, 2000, 100);
        assertThat(kinds()).isEmpty();
        t.close();
        start(RAW); // the rule off (the default): 50 % drops are not a hotspot
        queue(0, 0, 0);
        queue(1, 1000, 1000);
        queue(2, 2000, 2000);
        assertThat(kinds()).isEmpty();
    }

    @Test
    void oneSampleDroppingMoreThanTheAtOnceFractionIsHotWithoutWaitingForTheNext() {
        // 2 samples above 10 % enter; one above 25 % enters at once.
        start(new DetectionProperties(0.8, 0.6, 2, 1.0, 3000, 0.05, 0.10, 0.01, 0.25));
        queue(0, 0, 0);
        queue(1, 1000, 0);
        queue(2, 1850, 150); // 15 %: above 10 % but not 25 %: the first of two
        assertThat(kinds()).isEmpty();
        queue(3, 2850, 150); // clean: the count starts again
        queue(4, 3450, 550); // 40 %: at once
        assertThat(kinds()).containsExactly("hotspot-start@4000000000");
    }

    @Test
    void burstsBelowTheAtOnceFractionStillNeedTheSuccessiveSamples() {
        start(new DetectionProperties(0.8, 0.6, 2, 1.0, 3000, 0.05, 0.10, 0.01, 0.25));
        queue(0, 0, 0);
        queue(1, 800, 200); // 20 %
        queue(2, 1800, 200);
        queue(3, 2600, 400); // 20 %
        queue(4, 3600, 400);
        assertThat(kinds()).as("lossy samples that never follow each other").isEmpty();
        queue(5, 4400, 600); // 20 %
        queue(6, 5200, 800); // 20 %: the second in a row
        assertThat(kinds()).containsExactly("hotspot-start@6000000000");
    }

    @Test
    void dropThresholdsAreCheckedByName() {
        t = null;
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DetectionProperties(0.8, 0.6, 2, 1.0, 3000, 0.05,
                0.1, 0.01, 0.05)).hasMessageStartingWith("weft.telemetry.detection.at-once-drop-fraction");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DetectionProperties(0.8, 0.6, 2, 1.0, 3000, 0.05,
                0, 0, 0.3)).hasMessageStartingWith("weft.telemetry.detection.at-once-drop-fraction");
        t = null;
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DetectionProperties(0.8, 0.6, 2, 1.0, 3000, 0.05,
                1.0, 0)).hasMessageStartingWith("weft.telemetry.detection.high-drop-fraction");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DetectionProperties(0.8, 0.6, 2, 1.0, 3000, 0.05,
                0.1, 0.2)).hasMessageStartingWith("weft.telemetry.detection.low-drop-fraction");
    }
}
