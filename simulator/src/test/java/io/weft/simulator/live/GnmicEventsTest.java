package io.weft.simulator.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weft.contracts.Contracts;
import io.weft.telemetry.Counter;
import io.weft.telemetry.GnmicEventParser;
import io.weft.telemetry.InterfaceSample;
import org.junit.jupiter.api.Test;

/**
 * The live fabric's gnmic writer against the shared vectors (contracts/vectors/gnmic-events.json:
 * what gnmic writes) and against the collector's own parser of those records.
 */
class GnmicEventsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void eventsHaveTheShapeOfTheVectorsGnmicEvents() throws Exception {
        JsonNode cases = JSON.readTree(Contracts.read("vectors/gnmic-events.json")).path("cases");
        // Tag names and value paths (origin and module prefixes off) of every accepted vector record.
        Set<String> tagSets = new HashSet<>();
        Set<String> paths = new HashSet<>();
        for (JsonNode c : cases) {
            if (!c.has("samples")) {
                continue;
            }
            JsonNode rec = JSON.readTree(c.path("record").asText());
            for (JsonNode e : rec.isArray() ? rec : JSON.createArrayNode().add(rec)) {
                tagSets.add(new TreeSet<>(names(e.path("tags"))).toString());
                for (String p : names(e.path("values"))) {
                    paths.add(p.replaceFirst("^[a-z-]+:/", "/").replaceAll("/[a-z-]+:", "/"));
                }
            }
        }
        SwitchPort port = new SwitchPort("spine1", "eth3", 400);
        JsonNode written = JSON.readTree(GnmicEvents.record("spine1", List.of(port), 1_700_000_000_123_456_789L));

        assertThat(written).hasSize(2);
        for (JsonNode e : written) {
            assertThat(e.path("timestamp").isIntegralNumber()).isTrue();
            assertThat(e.path("timestamp").asLong()).isEqualTo(1_700_000_000_123_456_789L);
            assertThat(e.path("name").asText()).isEqualTo("weft-ifcounters");
            assertThat(e.path("tags").path("source").asText()).isEqualTo("spine1:57400");
            assertThat(e.path("tags").path("target").asText()).isEqualTo("spine1");
            Set<String> tags = new TreeSet<>(names(e.path("tags")));
            tags.remove("subscription-name"); // the vectors' queue event was recorded without it
            assertThat(tagSets.stream().anyMatch(t -> t.equals(tags.toString())
                    || t.equals(new TreeSet<>(add(tags, "subscription-name")).toString())))
                    .as("tags %s are a tag set of a vector event %s", tags, tagSets).isTrue();
            assertThat(paths).as("every value path is one gnmic wrote in the vectors")
                    .containsAll(names(e.path("values")));
            e.path("values").fields().forEachRemaining(v -> {
                if (!v.getKey().endsWith("oper-status")) {
                    assertThat(v.getValue().isTextual()).as("uint64 counters as strings: " + v.getKey()).isTrue();
                }
            });
        }
    }

    @Test
    void theCollectorReadsEveryCounterAndStatus() throws Exception {
        SwitchPort up = new SwitchPort("leaf1", "eth1", 400);
        up.inOctets = 1_000;
        up.inPkts = 2;
        up.outOctets = -2; // 2^64 - 2: counters are unsigned
        up.outPkts = 7;
        up.outDiscards = 3;
        SwitchPort down = new SwitchPort("leaf1", "eth2", 400);
        down.up = false;

        List<InterfaceSample> s = new GnmicEventParser().parse(
                GnmicEvents.record("leaf1", List.of(up, down), 1_700_000_000_000_000_000L));

        assertThat(s).hasSize(4);
        InterfaceSample i = s.get(0);
        assertThat(i.target()).isEqualTo("leaf1");
        assertThat(i.interfaceName()).isEqualTo("eth1");
        assertThat(i.queue()).isNull();
        assertThat(i.timestampNs()).isEqualTo(1_700_000_000_000_000_000L);
        assertThat(i.operStatus()).isEqualTo("UP");
        assertThat(i.counterDecimal(Counter.IN_OCTETS)).isEqualTo("1000");
        assertThat(i.counterDecimal(Counter.IN_PKTS)).isEqualTo("2");
        assertThat(i.counterDecimal(Counter.OUT_OCTETS)).isEqualTo("18446744073709551614");
        assertThat(i.counterDecimal(Counter.OUT_PKTS)).isEqualTo("7");
        assertThat(i.counterDecimal(Counter.OUT_DISCARDS)).isEqualTo("3");
        InterfaceSample q = s.get(1);
        assertThat(q.interfaceName()).isEqualTo("eth1");
        assertThat(q.queue()).isEqualTo(SwitchPort.QUEUE);
        assertThat(q.counterDecimal(Counter.TRANSMIT_PKTS)).isEqualTo("7");
        assertThat(q.counterDecimal(Counter.TRANSMIT_OCTETS)).isEqualTo("18446744073709551614");
        assertThat(q.counterDecimal(Counter.DROPPED_PKTS)).isEqualTo("3");
        assertThat(s.get(2).interfaceName()).isEqualTo("eth2");
        assertThat(s.get(2).operStatus()).isEqualTo("DOWN");
    }

    @Test
    void countersGrowFromRatesWithoutLosingFractions() {
        SwitchPort p = new SwitchPort("leaf1", "eth1", 400);
        long lastOut = 0;
        for (int i = 0; i < 1_000; i++) {
            // 100 Gbit/s out, 0.3 Gbit/s in, 1 Gbit/s dropped, in ticks of 100 ms with a little jitter.
            p.advance(i % 2 == 0 ? 0.099 : 0.101, 100, 0.3, 1);
            assertThat(p.outOctets).isGreaterThanOrEqualTo(lastOut);
            lastOut = p.outOctets;
        }
        // 100 s in all.
        assertThat(p.outOctets).isBetween(1_250_000_000_000L - 1, 1_250_000_000_000L + 1);
        assertThat(p.inOctets).isBetween(3_750_000_000L - 1, 3_750_000_000L + 1);
        assertThat(p.outPkts).isBetween((long) (1.25e12 / SwitchPort.PACKET_BYTES) - 1,
                (long) (1.25e12 / SwitchPort.PACKET_BYTES) + 1);
        assertThat(p.outDiscards).isBetween((long) (1.25e10 / SwitchPort.PACKET_BYTES) - 1,
                (long) (1.25e10 / SwitchPort.PACKET_BYTES) + 1);
        p.advance(0.1, -5, -5, -5);
        assertThat(p.outOctets).as("a negative rate never makes a counter go back").isEqualTo(lastOut);
    }

    private static Set<String> names(JsonNode o) {
        Set<String> out = new HashSet<>();
        o.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static Set<String> add(Set<String> s, String x) {
        Set<String> out = new HashSet<>(s);
        out.add(x);
        return out;
    }
}
