package io.weft.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link EvPortList} against vectors/ev-ports.json and the EV port lists of vectors/agent-profiles.json,
 * the same files the nic-agent's Go code is held to.
 */
class EvPortListTest {

    @TestFactory
    Stream<DynamicTest> everyEvPortsVector() {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : SchemaSupport.json("vectors/ev-ports.json").get("cases")) {
            tests.add(DynamicTest.dynamicTest(c.get("name").asText(), () -> {
                List<Integer> ports = new ArrayList<>();
                long[] weights = new long[c.get("entries").size()];
                for (int i = 0; i < weights.length; i++) {
                    ports.add(c.get("entries").get(i).get("port").asInt());
                    weights[i] = c.get("entries").get(i).get("weight").asLong();
                }
                int[] slots = EvPortList.slots(weights);
                assertThat(slots).containsExactly(ints(c.get("slots")).stream().mapToInt(Integer::intValue).toArray());
                assertThat(EvPortList.spray(ports, slots)).isEqualTo(ints(c.get("ports")));
            }));
        }
        assertThat(tests).hasSizeGreaterThanOrEqualTo(5);
        return tests.stream();
    }

    /** The agent uses every GOOD udp-sport entry; entries on one port add their weights. */
    @Test
    void theMultipathProfilesPortListIsTheOneTheAgentPublishes() {
        int checked = 0;
        for (JsonNode c : SchemaSupport.json("vectors/agent-profiles.json").get("cases")) {
            if (!c.has("evPorts")) {
                continue;
            }
            for (JsonNode want : c.get("evPorts")) {
                Map<Integer, Long> weights = new LinkedHashMap<>();
                for (JsonNode peer : c.get("profile").get("peers")) {
                    if (!peer.get("peer").asText().equals(want.get("peer").asText())) {
                        continue;
                    }
                    for (JsonNode e : peer.get("entries")) {
                        if (e.get("format").asText().equals("udp-sport") && e.get("state").asText().equals("GOOD")) {
                            int port = Integer.parseInt(e.get("value").asText());
                            weights.merge(port, e.get("weight").asLong(), Long::sum);
                        }
                    }
                }
                int[] slots = EvPortList.slots(weights.values().stream().mapToLong(Long::longValue).toArray());
                assertThat(EvPortList.spray(new ArrayList<>(weights.keySet()), slots)).as(c.get("name").asText())
                        .isEqualTo(ints(want.get("ports")));
                checked++;
            }
        }
        assertThat(checked).as("multipath-weighted-paths names its EV port list").isPositive();
    }

    @Test
    void portsOfReadsTheLineOfOnePair() {
        List<String> file = List.of("2001:db8::1,2001:db8::2=49408,49409,49408", "2001:db8::1,2001:db8::3=4791");
        assertThat(EvPortList.portsOf(file, "2001:db8::1", "2001:db8::2")).containsExactly(49408, 49409, 49408);
        assertThat(EvPortList.portsOf(file, "2001:db8::1", "2001:db8::3")).containsExactly(4791);
        assertThat(EvPortList.portsOf(file, "2001:db8::1", "2001:db8::")).isEmpty();
    }

    @Test
    void aWeightThatIsNotPositiveIsRefusedNamingTheField() {
        assertThatThrownBy(() -> EvPortList.slots(new long[] {100, 0})).isInstanceOf(ContractException.class)
                .hasMessageContaining("weight");
    }

    private static List<Integer> ints(JsonNode array) {
        List<Integer> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asInt()));
        return out;
    }
}
