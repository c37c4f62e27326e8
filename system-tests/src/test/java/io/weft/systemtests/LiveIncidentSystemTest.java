package io.weft.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.devstack.junit.DevstackExtension;
import io.weft.devstack.junit.WeftDevstackTest;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.harness.ChildService;
import io.weft.harness.Http;
import org.junit.jupiter.api.Test;

/**
 * The demo's incident, end to end: the live fabric (simulator/, {@code io.weft.simulator.live.LiveMain},
 * a child JVM on its packaged jar) is the switches and the NIC agents of the demo's 2-leaf, 4-spine
 * fabric, beside the real controller, collector and scheduler of {@link WeftSystem}. It places two
 * jobs, degrades a spine link direction carrying one flow and then fails the busiest spine link.
 * Asserted: each fault moved exactly the flows the live fabric announced before injecting it (one
 * flow for the degraded direction, every flow on the failed link), the scheduler's own path history
 * says the same (with the collector's hotspot / link-down as the reason) and moved nothing else,
 * and every moved flow's simulated rate came back to its demand. Timings are printed, not asserted.
 */
@WeftDevstackTest
class LiveIncidentSystemTest {
    /** The default incident's steps, closer together: the same checks in about 40 s. */
    private static final String INCIDENT = """
            {"schemaVersion": 1, "settleS": 20, "steps": [
              {"atS": 0, "action": "job", "idempotencyKey": "live-ring",
               "job": {"name": "live-ring", "pattern": "ring", "endpoints": ["nic1", "nic3", "nic2", "nic4"],
                       "demandGbps": 100}},
              {"atS": 2, "action": "job", "idempotencyKey": "live-pair",
               "job": {"name": "live-pair", "pattern": "ring", "endpoints": ["nic1", "nic4"], "demandGbps": 100}},
              {"atS": 8, "action": "degrade", "link": "auto"},
              {"atS": 20, "action": "fail", "link": "auto"}
            ]}
            """;

    @Test
    void theIncidentMovesExactlyTheFlowsItAnnounces() throws Exception {
        Path root = SystemTestPaths.root();
        Fabric fabric = FabricJson.read(root.resolve("contracts/examples/leaf-spine-2x4.json"));
        Path scenario = SystemTestPaths.target().resolve("live-incident.json");
        Files.writeString(scenario, INCIDENT);
        try (WeftSystem weft = WeftSystem.start(fabric, DevstackExtension.endpoints())) {
            // From here on the live fabric is the switches: the scripted ones stop (the collector
            // takes the live fabric's lower counters for a counter reset, as after a switch reboot).
            weft.switches.close();
            ChildService live = ChildService.start(SystemTestPaths.root(), SystemTestPaths.target(), "live-fabric",
                    "simulator", "io.weft.simulator.live.LiveMain",
                    "256m", Map.of("WEFT_KAFKA_BOOTSTRAP", weft.devstack.kafkaBootstrapServers(),
                            "WEFT_LIVE_AGENT_TOKEN", WeftSystem.AGENT_TOKEN,
                            "WEFT_LIVE_SCHEDULER_TOKEN", WeftSystem.SCHEDULER_TOKEN),
                    List.of("--scheduler", "http://127.0.0.1:" + weft.schedulerPort,
                            "--scenario", scenario.toString()));
            List<ChildService> all = new ArrayList<>(weft.children);
            all.add(live);
            try {
                WeftSystem.await("the live incident to end", all, () -> live.tail(400).contains("incident over"));
                check(weft, live);
            } catch (RuntimeException | AssertionError e) {
                System.err.println("live incident failed; logs:\n" + WeftSystem.tails(all, 80));
                throw e;
            } finally {
                live.stop();
            }
        }
    }

    private static void check(WeftSystem weft, ChildService live) throws IOException {
        String log = Files.readString(live.log());
        for (String line : log.split("\n")) {
            if (line.startsWith("live +") || line.startsWith("live: fabric")) {
                System.out.println("system test: " + line);
            }
        }
        List<JsonNode> outcomes = new ArrayList<>();
        for (String line : log.split("\n")) {
            if (line.startsWith("live outcome ")) {
                outcomes.add(Http.JSON.readTree(line.substring("live outcome ".length())));
            }
        }
        assertThat(outcomes).extracting(o -> o.path("action").asText()).containsExactly("degrade", "fail");
        JsonNode degrade = outcomes.get(0);
        JsonNode fail = outcomes.get(1);
        assertThat(strings(degrade.path("expected"))).as("a degraded direction carrying one flow").hasSize(1);
        assertThat(strings(fail.path("expected"))).as("the failed link carried flows").isNotEmpty();
        for (JsonNode o : outcomes) {
            assertThat(strings(o.path("moved"))).as(o.path("action").asText() + " on " + o.path("target").asText())
                    .isEqualTo(strings(o.path("expected")));
            assertThat(o.path("hotspotMs").asLong()).as("the collector saw " + o.path("target").asText())
                    .isGreaterThanOrEqualTo(0);
            o.path("flows").fields().forEachRemaining(f -> assertThat(f.getValue().path("recoveredMs").asLong())
                    .as(f.getKey() + "'s rate back at its demand").isGreaterThanOrEqualTo(0));
        }
        // The scheduler's own record: which flows moved, and why.
        Set<String> byHotspot = new TreeSet<>();
        Set<String> byLinkDown = new TreeSet<>();
        List<String> other = new ArrayList<>();
        Http.Reply jobs = Http.get(weft.schedulerPort, "/v1/jobs", WeftSystem.SCHEDULER_TOKEN);
        assertThat(jobs.status()).isEqualTo(200);
        int jobCount = 0;
        for (JsonNode j : jobs.body().path("items")) {
            jobCount++;
            Http.Reply h = Http.get(weft.schedulerPort, "/v1/jobs/" + j.path("id").asText() + "/history",
                    WeftSystem.SCHEDULER_TOKEN);
            assertThat(h.status()).isEqualTo(200);
            Set<String> placed = new TreeSet<>();
            for (JsonNode c : h.body().path("changes")) {
                String flow = c.path("flowId").asText();
                String reason = c.path("reason").asText();
                if (reason.startsWith("hotspot:")) {
                    byHotspot.add(flow);
                } else if (reason.startsWith("link-down:")) {
                    byLinkDown.add(flow);
                } else if (!placed.add(flow)) {
                    other.add(flow + " " + reason);
                }
            }
        }
        assertThat(jobCount).isEqualTo(2);
        assertThat(byHotspot).as("moved by a hotspot").isEqualTo(strings(degrade.path("expected")));
        assertThat(byLinkDown).as("moved by the link-down").isEqualTo(strings(fail.path("expected")));
        assertThat(other).as("any other change after placement").isEmpty();
        // The simulated agents' flow reports reached the collector through scheduler-api.
        Http.Reply flows = Http.get(weft.collectorPort, "/v1/flows?nic=nic1", WeftSystem.SCHEDULER_TOKEN);
        assertThat(flows.status()).isEqualTo(200);
        assertThat(flows.body().path("flows").toString()).as("nic1's reported flows")
                .contains(fail.path("expected").get(0).asText().split("/")[0]);
        System.out.printf(Locale.ROOT, "system test: live incident: degrade %s moved %s (hotspot read +%d ms), "
                        + "fail %s moved %s (link-down read +%d ms); load average %s%n",
                degrade.path("target").asText(),
                degrade.path("moved"), degrade.path("hotspotMs").asLong(), fail.path("target").asText(),
                fail.path("moved"), fail.path("hotspotMs").asLong(), loadAverage());
    }

    private static Set<String> strings(JsonNode array) {
        Set<String> out = new TreeSet<>();
        array.forEach(x -> out.add(x.asText()));
        return out;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
