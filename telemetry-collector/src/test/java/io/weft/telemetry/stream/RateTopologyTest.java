package io.weft.telemetry.stream;

import static io.weft.telemetry.stream.TopologyFixture.LINE_OCTETS_PER_S;
import static io.weft.telemetry.stream.TopologyFixture.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.telemetry.config.DetectionProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Rates through the whole topology: wrap, reset, duplicates, out-of-order samples and gaps. */
class RateTopologyTest {
    private TopologyFixture t;

    @BeforeEach
    void start() {
        t = new TopologyFixture(DetectionProperties.DEFAULTS);
        t.publishFabric(1);
    }

    @AfterEach
    void stop() {
        t.close();
    }

    @Test
    void firstSampleIsTheBaselineThenRateAndUtilisation() {
        t.outOctets(1, 1_000);
        assertThat(t.linkLoads()).isEmpty();
        t.outOctets(2, 1_000 + LINE_OCTETS_PER_S / 2);
        List<JsonNode> loads = t.linkLoads();
        assertThat(loads).hasSize(1);
        JsonNode l = loads.get(0);
        assertThat(l.get("linkId").asText()).isEqualTo("leaf1-spine1");
        assertThat(l.get("toNode").asText()).isEqualTo("spine1");
        assertThat(l.get("rateGbps").asDouble()).isCloseTo(200.0, within(1e-9));
        assertThat(l.get("utilisation").asDouble()).isCloseTo(0.5, within(1e-9));
        assertThat(l.get("timestampNs").asText()).isEqualTo("2000000000");
        assertThat(l.get("hot").asBoolean()).isFalse();
        assertThat(Schemas.errors("schemas/link-load.schema.json", l)).isEmpty();
    }

    @Test
    void duplicatesAndOutOfOrderSamplesAreIgnoredAndTheBaselineStays() {
        t.outOctets(1, 0);
        t.outOctets(2, LINE_OCTETS_PER_S / 4);
        t.outOctets(2, LINE_OCTETS_PER_S);          // duplicate timestamp, other value: ignored
        t.outOctets(1.5, LINE_OCTETS_PER_S / 8);    // out of order: ignored
        t.outOctets(3, LINE_OCTETS_PER_S / 2);      // a quarter of the line since t=2
        List<JsonNode> loads = t.linkLoads();
        assertThat(loads).extracting(l -> l.get("utilisation").asDouble())
                .containsExactly(0.25, 0.25);
    }

    @Test
    void aGapGivesTheRateOverTheLongerInterval() {
        t.outOctets(1, 0);
        t.outOctets(4, 3 * LINE_OCTETS_PER_S / 10); // 3 s at 10 %
        assertThat(t.linkLoads()).singleElement()
                .satisfies(l -> assertThat(l.get("utilisation").asDouble()).isCloseTo(0.1, within(1e-9)));
    }

    @Test
    void a64BitWrapGivesTheTrueRate() {
        long nearTop = -1L - LINE_OCTETS_PER_S / 10;      // 2^64 - 1 - 5e9, unsigned
        t.outOctets(1, nearTop);
        t.outOctets(2, LINE_OCTETS_PER_S / 10);           // crossed 2^64: one tenth + a tenth of the line
        assertThat(t.linkLoads()).singleElement()
                .satisfies(l -> assertThat(l.get("utilisation").asDouble()).isCloseTo(0.2, within(1e-9)));
    }

    @Test
    void aResetRestartsFromTheNewValueWithoutAFalseRate() {
        t.outOctets(1, 900_000_000_000L);
        t.outOctets(2, 900_000_000_000L + LINE_OCTETS_PER_S / 2);
        t.outOctets(3, 1_000);                             // reboot: far below, a wrap would be 1000x line rate
        t.outOctets(4, 1_000 + LINE_OCTETS_PER_S / 10);
        assertThat(t.linkLoads()).extracting(l -> l.get("utilisation").asDouble())
                .containsExactly(0.5, 0.1);
    }

    @Test
    void aNicFacingPortMeasuresBothDirectionsOfItsLink() {
        t.send("leaf1", event("leaf1", "eth3", 1_000_000_000L, "in-octets", "0", "out-octets", "0"));
        t.send("leaf1", event("leaf1", "eth3", 2_000_000_000L, "in-octets", Long.toString(LINE_OCTETS_PER_S / 2),
                "out-octets", Long.toString(LINE_OCTETS_PER_S / 4)));
        assertThat(t.linkLoads()).extracting(l -> l.get("toNode").asText() + "=" + l.get("utilisation").asDouble())
                .containsExactlyInAnyOrder("leaf1=0.5", "nic1=0.25");
    }

    @Test
    void dropRateAndEcnFractionFromPacketAndQueueCounters() {
        t.send("leaf1", event("leaf1", "eth1", 1_000_000_000L, "out-octets", "0", "out-pkts",
                "0", "out-discards", "0"));
        t.send("leaf1", queue("leaf1", "eth1", "q3", 1_000_000_000L, 0, 0));
        t.send("leaf1", queue("leaf1", "eth1", "q3", 2_000_000_000L, 1000, 250));
        t.send("leaf1", event("leaf1", "eth1", 2_000_000_000L, "out-octets", "1000000", "out-pkts", "990",
                "out-discards", "10"));
        JsonNode l = t.linkLoads().get(0);
        assertThat(l.get("dropRate").asDouble()).isCloseTo(0.01, within(1e-9));
        assertThat(l.get("ecnFraction").asDouble()).isCloseTo(0.25, within(1e-9));
    }

    @Test
    void interfacesThatAreNotFabricPortsAreCountedNotDeadLettered() {
        t.send("leaf1", event("leaf1", "mgmt0", 1_000_000_000L, "out-octets", "5"));
        assertThat(t.counters.get("interfaces.unmapped")).isEqualTo(1);
        assertThat(t.deadLetters()).isEmpty();
    }

    @Test
    void anOlderSnapshotDoesNotReplaceANewerOne() {
        t.publishFabric(5);
        t.publishFabric(3);
        assertThat(((InterfaceDirectionIndexStore) t.driver.getStateStore(TelemetryTopology.FABRIC_STORE)).fabrics()
                .get("ls-2x2").version()).isEqualTo(5);
    }

    static String queue(String target, String iface, String queue, long ns, long transmit, long ecnMarked) {
        return "{\"name\":\"queues\",\"timestamp\":" + ns + ",\"tags\":{\"target\":\"" + target
                + "\",\"interface_interface-id\":\"" + iface + "\",\"queue_name\":\"" + queue + "\"},\"values\":{"
                + "\"/qos/interfaces/interface/output/queues/queue/state/transmit-pkts\":\"" + transmit + "\","
                + "\"/qos/interfaces/interface/output/queues/queue/state/ecn-marked-pkts\":\"" + ecnMarked + "\"}}";
    }
}
