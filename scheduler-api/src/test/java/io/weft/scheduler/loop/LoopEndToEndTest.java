package io.weft.scheduler.loop;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.weft.contracts.DirectionKey;
import io.weft.devstack.junit.WeftDevstackTest;
import io.weft.scheduler.SchedulerApiApplication;
import io.weft.scheduler.reroute.HotspotListener;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The closed loop on the real embedded Kafka and PostgreSQL: hotspot events on the hotspots topic
 * (published here as the telemetry collector would write them; the collector itself is not in
 * this JVM) move flows, and an agent's parked long-poll returns the new carrier.
 */
@WeftDevstackTest
@SpringBootTest(classes = SchedulerApiApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LoopEndToEndTest {
    private static final long INTERVAL_MS = 200;

    @LocalServerPort
    int port;

    @Autowired
    HotspotListener listener;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    MeterRegistry meters;

    @DynamicPropertySource
    static void props(DynamicPropertyRegistry r) {
        LoopTestSupport.register(r, INTERVAL_MS);
    }

    @Test
    void aHotLinkLosesOneFlowALinkDownLosesAllInOnePassAndNoPassReturnsToIt() throws Exception {
        assertThat(listener.awaitAssigned(Duration.ofSeconds(30))).isTrue();
        JsonNode job = LoopTestSupport.createJob(port, "loop-e2e", LoopTestSupport.interleavedRing(), 100);
        String jobId = job.get("id").asString();
        assertThat(job.get("flows")).hasSize(16);
        assertThat(LoopTestSupport.fabricArcLoad(job).values()).allMatch(n -> n <= 1);

        // --- hotspot on the first flow's uplink (leaf -> spine direction)
        JsonNode victim = job.get("flows").get(0);
        List<String> victimArcs = LoopTestSupport.arcs(victim);
        String hotArc = victimArcs.get(1);
        String hotLink = hotArc.substring(0, hotArc.indexOf('>'));
        String hotDir = hotArc.substring(hotArc.indexOf('>') + 1);
        String src = victim.get("src").asString();
        long before = LoopTestSupport.version(port, src);
        CompletableFuture<LoopTestSupport.Reply> poll = LoopTestSupport.longPoll(port, src, before, 20);
        Thread.sleep(200); // let the long-poll park before the event exists

        try (KafkaProducer<String, String> producer = LoopTestSupport.producer()) {
            Instant now = Instant.now();
            String hotspotId = LoopTestSupport.publish(producer, "hotspot-start", hotLink, hotDir,
                    now.minusMillis(5), now);
            LoopTestSupport.Reply answered = poll.get(10, TimeUnit.SECONDS);
            assertThat(answered.status()).isEqualTo(200);
            assertThat(answered.body().get("version").asLong()).isGreaterThan(before);
            // The agent's profile now carries the victim's new carrier.
            JsonNode afterHot = waitForJob(jobId, j -> !LoopTestSupport.arcs(flow(j, victim.get("id").asString()))
                    .contains(hotArc));
            String newCarrier = flow(afterHot, victim.get("id").asString()).get("carriers").get(0).asString();
            assertThat(newCarrier).isNotEqualTo(victim.get("carriers").get(0).asString());
            assertThat(answered.body().toString()).contains(newCarrier);

            // Three more intervals with the hotspot still active: nothing else may leave it, nothing herds.
            Thread.sleep(3 * INTERVAL_MS);
            JsonNode settled = LoopTestSupport.job(port, jobId);
            assertThat(movedFlows(job, settled)).containsExactly(victim.get("id").asString());
            assertThat(LoopTestSupport.fabricArcLoad(settled).values()).allMatch(n -> n <= 1);
            assertThat(LoopTestSupport.fabricArcLoad(settled)).doesNotContainKey(hotArc);
            JsonNode history = LoopTestSupport.send(LoopTestSupport.request(port, "/v1/jobs/" + jobId + "/history",
                    LoopTestSupport.SCHEDULER).GET().build()).body();
            assertThat(history.toString()).contains("hotspot:" + hotspotId).contains("sample-to-event-ms=5");
            LoopTestSupport.publish(producer, "hotspot-end", hotLink, hotDir, Instant.now(), Instant.now());

            // --- link down: a spine link carrying flows in both directions
            String downLink = busiestLink(settled);
            List<String> onIt = flowsOnLink(settled, downLink);
            assertThat(onIt).isNotEmpty();
            Instant t = Instant.now();
            LoopTestSupport.publish(producer, "link-down", downLink, downLink.substring(downLink.indexOf('-') + 1),
                    t, t);
            JsonNode afterDown = waitForJob(jobId, j -> flowsOnLink(j, downLink).isEmpty());
            assertThat(LoopTestSupport.fabricArcLoad(afterDown).keySet())
                    .noneMatch(k -> DirectionKey.parse(k).linkId().equals(downLink));
            for (JsonNode f : afterDown.get("flows")) {
                assertThat(f.get("state").asString()).isEqualTo("GOOD");
            }
            // One pass: one flows-replaced event for the link, naming every flow that was on it.
            List<Integer> passes = jdbc.sql("select (payload->>'flows')::int from events "
                    + "where type = 'flows-replaced' and subject = ?").param("link-down:" + downLink)
                    .query(Integer.class).list();
            assertThat(passes).containsExactly(onIt.size());
            printServiceShare(downLink);

            // --- the race: the controller's snapshot (link down) has not come, the index still calls the
            // link up, and every other direction at its leaf turns hot. The emptied link looks like the
            // best room in the fabric; no pass may put a flow on it.
            String leaf = downLink.substring(0, downLink.indexOf('-'));
            List<String[]> hotAtLeaf = new ArrayList<>();
            for (String arc : LoopTestSupport.fabricArcLoad(afterDown).keySet()) {
                String link = arc.substring(0, arc.indexOf('>'));
                if (link.startsWith(leaf + "-")) {
                    hotAtLeaf.add(new String[] {link, arc.substring(arc.indexOf('>') + 1)});
                }
            }
            assertThat(hotAtLeaf).isNotEmpty();
            for (String[] h : hotAtLeaf) {
                LoopTestSupport.publish(producer, "hotspot-start", h[0], h[1], Instant.now(), Instant.now());
            }
            Thread.sleep(4 * INTERVAL_MS);
            JsonNode raced = LoopTestSupport.job(port, jobId);
            assertThat(flowsOnLink(raced, downLink)).as("flows moved back onto the down link").isEmpty();
            for (JsonNode f : raced.get("flows")) {
                assertThat(f.get("state").asString()).isEqualTo("GOOD");
            }
            for (String[] h : hotAtLeaf) {
                LoopTestSupport.publish(producer, "hotspot-end", h[0], h[1], Instant.now(), Instant.now());
            }
            LoopTestSupport.publish(producer, "link-up", downLink, downLink.substring(downLink.indexOf('-') + 1),
                    Instant.now(), Instant.now());
            // The whole timing chain of the hotspot's move is kept with the events.
            List<Long> eventToWake = jdbc.sql("select (c->>'eventToWakeMs')::bigint from events, "
                    + "jsonb_array_elements(payload->'chains') c where type = 'loop-timings' and c->>'eventId' = ?")
                    .param(hotspotId).query(Long.class).list();
            assertThat(eventToWake).hasSize(1).allMatch(ms -> ms >= 0);
        } finally {
            LoopTestSupport.release(port, jobId);
        }
        assertThat(meters.get("weft.loop.event.to.wake").timer().count()).isGreaterThanOrEqualTo(2);
    }

    /** Prints where the service's share of the link-down's loop went (the loop-timings chain). */
    private void printServiceShare(String downLink) {
        List<String> chains = jdbc.sql("select c::text from events, jsonb_array_elements(payload->'chains') c "
                + "where type = 'loop-timings' and payload->>'trigger' = 'link-down' and c->>'linkId' = ?")
                .param(downLink).query(String.class).list();
        assertThat(chains).hasSize(1);
        assertThat(chains.get(0)).contains("\"lockWaitUs\"").contains("\"decideUs\"").contains("\"recordUs\"");
        System.out.println("link-down loop chain: " + chains.get(0));
    }

    private JsonNode waitForJob(String jobId, java.util.function.Predicate<JsonNode> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            JsonNode j = LoopTestSupport.job(port, jobId);
            if (done.test(j)) {
                return j;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job never reached the expected state: " + j);
            }
            Thread.sleep(20);
        }
    }

    private static JsonNode flow(JsonNode job, String id) {
        for (JsonNode f : job.get("flows")) {
            if (f.get("id").asString().equals(id)) {
                return f;
            }
        }
        throw new AssertionError("no flow " + id);
    }

    private static List<String> movedFlows(JsonNode before, JsonNode after) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : before.get("flows")) {
            if (!LoopTestSupport.arcs(f).equals(LoopTestSupport.arcs(flow(after, f.get("id").asString())))) {
                out.add(f.get("id").asString());
            }
        }
        return out;
    }

    private static List<String> flowsOnLink(JsonNode job, String linkId) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : job.get("flows")) {
            for (JsonNode l : f.get("links")) {
                if (l.asString().equals(linkId)) {
                    out.add(f.get("id").asString());
                }
            }
        }
        return out;
    }

    /** The leaf-spine link with the most flows (both directions counted). */
    private static String busiestLink(JsonNode job) {
        Map<String, Integer> load = new java.util.TreeMap<>();
        LoopTestSupport.fabricArcLoad(job).forEach((k, v) -> load.merge(k.substring(0, k.indexOf('>')), v,
                Integer::sum));
        return load.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }
}
