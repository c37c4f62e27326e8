package io.weft.telemetry.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The benchmark's traffic: the sample interval sets the sample time, not the traffic. */
class WorkloadTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final List<String[]> PORTS = List.of(new String[] {"leaf1", "eth1"}, new String[] {"leaf1", "eth2"},
            new String[] {"spine1", "eth1"});

    private static JsonNode first(Workload w) throws Exception {
        JsonNode v = MAPPER.readTree(w.nextRound().get(0).value());
        return v.isArray() ? v.get(0) : v;
    }

    private static long octets(JsonNode e) {
        return Long.parseLong(e.get("values").get("/interfaces/interface/state/counters/out-octets").asText());
    }

    @Test
    void roundsAreOneSampleIntervalApart() throws Exception {
        Workload w = new Workload(PORTS, 1, 100);
        long t0 = first(w).get("timestamp").asLong();
        long t1 = first(w).get("timestamp").asLong();
        assertThat(t1 - t0).isEqualTo(100_000_000L);
        assertThat(w.sampleIntervalMs()).isEqualTo(100);
    }

    @Test
    void aSecondCarriesTheSameTrafficWhateverTheInterval() throws Exception {
        Workload slow = new Workload(PORTS, 1, 1000);
        Workload fast = new Workload(PORTS, 1, 100);
        long slowOctets = octets(first(slow));     // the first second, in one sample
        long fastOctets = 0;
        for (int i = 0; i < 10; i++) {
            fastOctets = octets(first(fast));      // the same second, in ten
        }
        // The utilisation is sampled at the start of each interval: ten samples follow the curve more
        // closely than one, so allow the difference of a slowly drifting sine over one second.
        assertThat((double) fastOctets).isCloseTo(slowOctets, org.assertj.core.api.Assertions.withinPercentage(15));
    }

    @Test
    void recordsGroupOneSwitchsPortsUpToTheShape() {
        List<Workload.Rec> recs = new Workload(PORTS, 32, 1000).nextRound();
        assertThat(recs).extracting(Workload.Rec::key).containsExactly("leaf1", "spine1");
        assertThat(recs).extracting(Workload.Rec::events).containsExactly(2, 1);
    }

    @Test
    void badOptionsNameTheirFlag() {
        assertThatThrownBy(() -> new Workload(PORTS, 1, 0)).hasMessageStartingWith("--sample-interval-ms:");
        assertThatThrownBy(() -> new Workload(PORTS, 0, 100)).hasMessageStartingWith("--events-per-record:");
    }
}
