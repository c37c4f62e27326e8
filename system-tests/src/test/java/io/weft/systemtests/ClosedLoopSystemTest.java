package io.weft.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.DevstackExtension;
import io.weft.devstack.junit.WeftDevstackTest;
import io.weft.fabric.Fabric;
import io.weft.harness.Http;
import io.weft.lab.fabric.LeafSpineGenerator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The closed loop with every part real: switch counters (gnmic events from this JVM) → the
 * telemetry collector's hotspot and link-down events → the scheduler API's re-placement → the NIC
 * agent's long-poll (from this JVM), with the standalone controller publishing the fabric and following
 * link-down. Kafka and PostgreSQL are the devstack's; the three services are child JVMs on their
 * packaged jars (see {@link WeftSystem}), started once for the class.
 *
 * <p>The fabric is 4 leaves x 8 spines x 4 NICs at 400G; the job is a ring over all 16 NICs, interleaved
 * across leaves, so every flow crosses a spine and no link direction carries more than one of them (the
 * scheduler's t = 1). Each test leaves the fabric as it found it (job released, links up, no hotspot).
 */
@WeftDevstackTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClosedLoopSystemTest {
    /** The scheduler's elephant tolerance (weft.reroute.t, default). */
    private static final int T = 1;
    private static final Duration LOOP_TIMEOUT = Duration.ofSeconds(60);

    private static WeftSystem weft;
    /** Each test sees only the collector's events of its own time. */
    private static Instant testStarted;
    private static SchedulerClient scheduler;
    private static final AtomicReference<WeftSystem> RUNNING = new AtomicReference<>();

    /** A failed test prints the tail of every service's log. */
    @RegisterExtension
    static final TestWatcher LOG_TAILS = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            WeftSystem w = RUNNING.get();
            if (w != null) {
                System.err.println(context.getDisplayName() + " failed; service logs:\n" + w.tails(80));
            }
        }
    };

    @BeforeAll
    static void startWeft() {
        Fabric fabric = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(4, 8, 4));
        // Children must not outlive a test JVM that is killed or exits early.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            WeftSystem w = RUNNING.getAndSet(null);
            if (w != null) {
                w.close();
            }
        }, "weft-system-test-children"));
        long t0 = System.nanoTime();
        weft = WeftSystem.start(fabric, DevstackExtension.endpoints());
        RUNNING.set(weft);
        scheduler = new SchedulerClient(weft.schedulerPort);
        System.out.printf(Locale.ROOT, "system test: Weft ready in %.1f s (controller :%d, collector :%d, "
                        + "scheduler :%d; load average %s)%n", (System.nanoTime() - t0) / 1e9, weft.controllerPort,
                weft.collectorPort, weft.schedulerPort, loadAverage());
    }

    @BeforeEach
    void markStart() {
        testStarted = Instant.now();
    }

    @AfterAll
    static void stopWeft() {
        WeftSystem w = RUNNING.getAndSet(null);
        if (w != null) {
            for (String name : List.of("controller", "telemetry-collector", "scheduler-api")) {
                System.out.printf(Locale.ROOT, "system test: %s used %.1f CPU s%n", name,
                        w.child(name).cpuSeconds());
            }
            w.close();
        }
    }

    @Test
    @Order(1)
    void aLinkMadeHotByItsCountersLosesExactlyOneFlowAndTheAgentGetsTheNewCarrier() throws Exception {
        JsonNode job = scheduler.createRing("hot-link", interleavedRing(), 100);
        String jobId = job.get("id").asText();
        try {
            assertThat(job.get("flows")).hasSize(16);
            assertThat(SchedulerClient.fabricArcLoad(job).values()).allMatch(n -> n <= T);

            // The victim's leaf -> spine direction: measured by the leaf port's out-octets.
            JsonNode victim = job.get("flows").get(0);
            String victimId = victim.get("id").asText();
            String hotArc = SchedulerClient.arcs(victim).get(1);
            String hotLink = hotArc.substring(0, hotArc.indexOf('>'));
            String towards = hotArc.substring(hotArc.indexOf('>') + 1);
            String nic = victim.get("src").asText();
            long before = scheduler.version(nic);
            CompletableFuture<Http.Reply> poll = scheduler.longPoll(nic, before, 60);
            weft.await("the agent's long-poll parked", () -> scheduler.waitingAgents() >= 1);

            weft.switches.setUtilisation(hotLink, towards, 0.95);
            Http.Reply answered = poll.get(LOOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertThat(answered.status()).isEqualTo(200);
            assertThat(answered.body().get("version").asLong()).isGreaterThan(before);

            JsonNode moved = awaitJob(jobId, j -> !SchedulerClient.arcs(SchedulerClient.flow(j, victimId))
                    .contains(hotArc));
            String newCarrier = SchedulerClient.flow(moved, victimId).get("carriers").get(0).asText();
            assertThat(newCarrier).isNotEqualTo(victim.get("carriers").get(0).asText());
            assertThat(answered.text()).contains(newCarrier);

            // The collector's event is what moved it: one hotspot-start for that direction, named by the move.
            JsonNode start = awaitHotspots(hotLink, "hotspot-start", 1).get(0);
            assertThat(start.get("direction").asText()).isEqualTo(towards);
            String eventId = start.get("eventId").asText();
            assertThat(reasonsOf(scheduler.history(jobId), victimId)).anyMatch(r -> r.startsWith("hotspot:" + eventId));

            // Three more intervals with the link still hot: nothing else leaves it, nothing herds.
            WeftSystem.sleep(3 * WeftSystem.INTERVAL_MS);
            JsonNode settled = scheduler.job(jobId);
            assertThat(SchedulerClient.movedFlows(job, settled)).containsExactly(victimId);
            assertThat(SchedulerClient.fabricArcLoad(settled).values()).allMatch(n -> n <= T);
            assertThat(SchedulerClient.fabricArcLoad(settled)).doesNotContainKey(hotArc);
            // One bump for the NIC (versions come from one shared sequence: compare, do not count): the
            // version the agent was answered with is still current, and it is the move's.
            long answeredVersion = answered.body().get("version").asLong();
            assertThat(scheduler.version(nic)).isEqualTo(answeredVersion);
            assertThat(changesOf(scheduler.history(jobId), victimId)).hasSize(2)
                    .last().satisfies(c -> assertThat(c.get("version").asLong()).isEqualTo(answeredVersion));
            assertThat(hotspots(hotLink, "hotspot-start")).hasSize(1);
            for (JsonNode f : settled.get("flows")) {
                assertThat(f.get("state").asText()).isEqualTo("GOOD");
            }

            // Information, not assertions (the machine is shared): where the loop's time went.
            Instant sample = instantOfNs(start.get("sampleTimestampNs").asText());
            Instant detected = Instant.parse(start.get("detectedAt").asText());
            System.out.printf(Locale.ROOT, "system test: hot %s (counters of %s): sample -> agent answered %d ms, "
                            + "sample -> hotspot-start %d ms; the scheduler's chain: %s (interval %d ms; "
                            + "load average %s)%n",
                    hotArc, weft.switches.measuringPort(hotLink, towards),
                    Duration.between(sample, answered.at()).toMillis(), Duration.between(sample, detected).toMillis(),
                    loopTimings(eventId), WeftSystem.INTERVAL_MS, loadAverage());

            // The traffic goes where the flow went: the collector ends the hotspot, nothing moves back.
            weft.switches.setUtilisation(hotLink, towards, ScriptedSwitches.BACKGROUND_UTILISATION);
            awaitHotspots(hotLink, "hotspot-end", 1);
            assertThat(SchedulerClient.movedFlows(job, scheduler.job(jobId))).containsExactly(victimId);
        } finally {
            weft.switches.setUtilisation(hotLinkOf(job), towardsOf(job), ScriptedSwitches.BACKGROUND_UTILISATION);
            scheduler.release(jobId);
        }
    }

    @Test
    @Order(2)
    void aLinkThatGoesDownLosesAllItsFlowsInOnePass() throws Exception {
        JsonNode job = scheduler.createRing("link-down", interleavedRing(), 100);
        String jobId = job.get("id").asText();
        String down = SchedulerClient.busiestLink(job);
        try {
            List<String> onIt = SchedulerClient.flowsOnLink(job, down);
            assertThat(onIt).isNotEmpty();
            Set<String> sources = new HashSet<>();
            for (String id : onIt) {
                sources.add(SchedulerClient.flow(job, id).get("src").asText());
            }
            Map<String, Long> before = new LinkedHashMap<>();
            for (String nic : WeftSystem.nics(weft.fabric)) {
                before.put(nic, scheduler.version(nic));
            }
            Map<String, CompletableFuture<Http.Reply>> polls = new LinkedHashMap<>();
            for (String nic : sources) {
                polls.put(nic, scheduler.longPoll(nic, before.get(nic), 60));
            }
            weft.await("the agents' long-polls parked", () -> scheduler.waitingAgents() >= sources.size());

            weft.switches.setOperStatus(down, "DOWN");
            Map<String, Long> answered = new LinkedHashMap<>();
            for (var p : polls.entrySet()) {
                Http.Reply r = p.getValue().get(LOOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                assertThat(r.status()).isEqualTo(200);
                answered.put(p.getKey(), r.body().get("version").asLong());
            }
            JsonNode after = awaitJob(jobId, j -> SchedulerClient.flowsOnLink(j, down).isEmpty());
            // The controller followed the collector's link-down too: its next snapshot has the link down,
            // and the scheduler has applied it (which must find nothing left to move).
            weft.await("the scheduler on a snapshot with " + down + " down", () -> scheduler.fabricState()
                    .path("linkStates").path(down).asText().equals("down"));
            after = scheduler.job(jobId);

            assertThat(SchedulerClient.movedFlows(job, after)).containsExactlyInAnyOrderElementsOf(onIt);
            assertThat(SchedulerClient.fabricArcLoad(after).values()).allMatch(n -> n <= T);
            for (JsonNode f : after.get("flows")) {
                assertThat(f.get("state").asText()).isEqualTo("GOOD");
            }
            // One pass: one new version per NIC whose flow was on the link (the one its agent was answered
            // with, still current after the controller's snapshot), none elsewhere ...
            for (var e : before.entrySet()) {
                long expected = sources.contains(e.getKey()) ? answered.get(e.getKey()) : e.getValue();
                assertThat(scheduler.version(e.getKey())).as("version of %s", e.getKey()).isEqualTo(expected);
            }
            // ... one change per moved flow, whose reason is the link-down, and one flows-replaced event
            // for the link naming every flow.
            JsonNode history = scheduler.history(jobId);
            for (String id : onIt) {
                List<JsonNode> changes = changesOf(history, id);
                assertThat(changes).as("path changes of %s", id).hasSize(2);
                JsonNode move = changes.get(1);
                assertThat(move.get("reason").asText()).startsWith("link-down:" + down);
                String src = SchedulerClient.flow(job, id).get("src").asText();
                assertThat(move.get("version").asLong()).isEqualTo(answered.get(src));
            }
            // Whichever sees the failure first moves the flows with this reason: the scheduler on the
            // collector's link-down (subject = the reason), or on the controller's snapshot ("link-states").
            Map<String, Integer> passes = flowsReplaced("link-down:" + down);
            assertThat(passes.values()).containsExactly(onIt.size());
            awaitHotspots(down, "link-down", 1); // the collector saw it (its history is written behind)
            System.out.printf(Locale.ROOT, "system test: link %s down: %d flows moved in one pass, by %s "
                    + "(load average %s)%n", down, onIt.size(), passes.keySet(), loadAverage());
        } finally {
            scheduler.release(jobId);
            weft.switches.setOperStatus(down, "UP");
            try {
                weft.await("the scheduler on a snapshot with " + down + " up again", () -> scheduler.fabricState()
                        .path("linkStates").path(down).asText().equals("up"));
            } catch (RuntimeException e) {
                // Clean-up only: must not hide why the test failed.
                System.err.println("system test: " + down + " did not come back up: " + e.getMessage());
            }
        }
    }

    @Test
    @Order(3)
    void aBurstOfHotspotsOnManyLinksMovesEachFlowOnceAndCreatesNoCollision() throws Exception {
        JsonNode job = scheduler.createRing("burst", interleavedRing(), 100);
        String jobId = job.get("id").asText();
        // The uplinks (leaf -> spine) of half the flows, two per leaf, hot in the same gnmic sample.
        Map<String, String> hotArcOf = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            JsonNode f = job.get("flows").get(i);
            hotArcOf.put(f.get("id").asText(), SchedulerClient.arcs(f).get(1));
        }
        Map<String, Double> hot = new LinkedHashMap<>();
        Map<String, Double> cool = new LinkedHashMap<>();
        hotArcOf.values().forEach(a -> {
            hot.put(a, 0.95);
            cool.put(a, ScriptedSwitches.BACKGROUND_UTILISATION);
        });
        try {
            assertThat(new HashSet<>(hotArcOf.values())).hasSize(8);
            weft.switches.setUtilisations(hot);
            JsonNode moved = awaitJob(jobId, j -> hotArcOf.entrySet().stream().noneMatch(e ->
                    SchedulerClient.arcs(SchedulerClient.flow(j, e.getKey())).contains(e.getValue())));
            // Three more intervals, all eight still hot: nothing else moves, nothing collides.
            WeftSystem.sleep(3 * WeftSystem.INTERVAL_MS);
            JsonNode settled = scheduler.job(jobId);
            assertThat(SchedulerClient.movedFlows(job, settled)).containsExactlyInAnyOrderElementsOf(hotArcOf.keySet());
            assertThat(SchedulerClient.movedFlows(moved, settled)).isEmpty();
            assertThat(SchedulerClient.fabricArcLoad(settled).values()).allMatch(n -> n <= T);
            assertThat(SchedulerClient.fabricArcLoad(settled).keySet()).doesNotContainAnyElementsOf(hotArcOf.values());
            JsonNode history = scheduler.history(jobId);
            for (String id : hotArcOf.keySet()) {
                assertThat(changesOf(history, id)).as("path changes of %s", id).hasSize(2);
                assertThat(changesOf(history, id).get(1).get("reason").asText()).startsWith("hotspot:");
            }
            for (String arc : hotArcOf.values()) {
                String link = arc.substring(0, arc.indexOf('>'));
                assertThat(awaitHotspots(link, "hotspot-start", 1)).hasSize(1);
            }
            System.out.printf(Locale.ROOT, "system test: burst of %d hot uplinks: %d flows moved, max %d per link "
                    + "direction (load average %s)%n", hotArcOf.size(), hotArcOf.size(),
                    SchedulerClient.fabricArcLoad(settled).values().stream().mapToInt(Integer::intValue).max()
                            .orElse(0), loadAverage());

            // Traffic follows the flows: every hotspot ends, nothing moves back.
            weft.switches.setUtilisations(cool);
            for (String arc : hotArcOf.values()) {
                awaitHotspots(arc.substring(0, arc.indexOf('>')), "hotspot-end", 1);
            }
            assertThat(SchedulerClient.movedFlows(settled, scheduler.job(jobId))).isEmpty();
        } finally {
            weft.switches.setUtilisations(cool);
            scheduler.release(jobId);
        }
    }

    // --- helpers

    /** Interleaved ring: leaf1-nic1, leaf2-nic1, .., leaf4-nic1, leaf1-nic2, ..: every flow crosses a spine. */
    private static List<String> interleavedRing() {
        List<String> out = new ArrayList<>();
        for (int h = 1; h <= 4; h++) {
            for (int l = 1; l <= 4; l++) {
                out.add("leaf" + l + "-nic" + h);
            }
        }
        return out;
    }

    private static String hotLinkOf(JsonNode job) {
        String arc = SchedulerClient.arcs(job.get("flows").get(0)).get(1);
        return arc.substring(0, arc.indexOf('>'));
    }

    private static String towardsOf(JsonNode job) {
        String arc = SchedulerClient.arcs(job.get("flows").get(0)).get(1);
        return arc.substring(arc.indexOf('>') + 1);
    }

    private static JsonNode awaitJob(String jobId, Predicate<JsonNode> done) {
        AtomicReference<JsonNode> last = new AtomicReference<>();
        weft.await("job " + jobId + " in the expected state", () -> {
            last.set(scheduler.job(jobId));
            return done.test(last.get());
        });
        return last.get();
    }

    /** The collector's recorded events of one kind on a link since this test began (GET /v1/hotspots, newest first). */
    private static List<JsonNode> hotspots(String linkId, String kind) {
        Http.Reply r = Http.get(weft.collectorPort, "/v1/hotspots?linkId=" + linkId + "&kind=" + kind + "&from="
                + testStarted, WeftSystem.SCHEDULER_TOKEN);
        assertThat(r.status()).as("GET /v1/hotspots: %s", r.text()).isEqualTo(200);
        List<JsonNode> out = new ArrayList<>();
        r.body().path("events").forEach(out::add);
        return out;
    }

    private static List<JsonNode> awaitHotspots(String linkId, String kind, int atLeast) {
        weft.await(atLeast + " " + kind + " of " + linkId + " in the collector's history",
                () -> hotspots(linkId, kind).size() >= atLeast);
        return hotspots(linkId, kind);
    }

    /** A flow's path changes, oldest first (the first is its placement when the job was created). */
    private static List<JsonNode> changesOf(JsonNode history, String flowId) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode c : history.path("changes")) {
            if (c.path("flowId").asText().equals(flowId)) {
                out.add(c);
            }
        }
        return out;
    }

    private static List<String> reasonsOf(JsonNode history, String flowId) {
        List<String> out = new ArrayList<>();
        for (JsonNode c : history.path("changes")) {
            if (c.path("flowId").asText().equals(flowId)) {
                out.add(c.path("reason").asText());
            }
        }
        return out;
    }

    /** Every flows-replaced event whose reason is {@code reason}: its subject → how many flows it moved. */
    private static Map<String, Integer> flowsReplaced(String reason) throws Exception {
        DevstackEndpoints e = weft.devstack;
        Map<String, Integer> out = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection(e.jdbcUrl(), e.jdbcUser(), e.jdbcPassword());
             PreparedStatement s = c.prepareStatement("select id, subject, (payload->>'flows')::int from "
                     + "scheduler.events where type = 'flows-replaced' and payload->>'reason' = ? order by id")) {
            s.setString(1, reason);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getLong(1) + ":" + rs.getString(2), rs.getInt(3));
                }
            }
        }
        return out;
    }

    /**
     * Link states have one owner: a drain asked of scheduler-api goes to the controller with
     * scheduler-api's own operator token, comes back in the controller's snapshot on weft.fabric, and
     * the answer names the flows that snapshot moved. Every door (the controller, the collector,
     * scheduler-api) refuses a missing, unknown or too-weak token and takes the right one.
     */
    @Test
    @Order(4)
    void aDrainGoesThroughTheControllerAndEveryDoorChecksItsToken() throws Exception {
        String wrong = "not-a-token-of-this-system-0123";
        String anyLink = weft.fabric.links().get(0).id();
        String statePath = "/links/" + anyLink + "/state";
        String up = "{\"state\":\"up\"}";
        assertThat(put(weft.controllerPort, statePath, null, up).status()).isEqualTo(401);
        assertThat(put(weft.controllerPort, statePath, wrong, up).status()).isEqualTo(401);
        assertThat(put(weft.controllerPort, statePath, WeftSystem.SCHEDULER_TOKEN, up).status()).isEqualTo(403);
        assertThat(put(weft.controllerPort, statePath, WeftSystem.OPERATOR_TOKEN, up).status()).isEqualTo(200);
        assertThat(Http.get(weft.controllerPort, "/fabric", null).status()).isEqualTo(401);
        assertThat(Http.get(weft.controllerPort, "/fabric", WeftSystem.AGENT_TOKEN).status()).isEqualTo(403);
        assertThat(Http.get(weft.controllerPort, "/healthz", null).status()).isEqualTo(200);
        assertThat(Http.get(weft.collectorPort, "/v1/status", null).status()).isEqualTo(401);
        assertThat(Http.get(weft.collectorPort, "/v1/status", wrong).status()).isEqualTo(401);
        assertThat(Http.get(weft.collectorPort, "/v1/hotspots", WeftSystem.AGENT_TOKEN).status()).isEqualTo(403);
        assertThat(Http.get(weft.collectorPort, "/v1/status", WeftSystem.OPERATOR_TOKEN).status()).isEqualTo(200);
        String somePath = "/v1/fabric/links/" + anyLink + "/drain";
        assertThat(Http.post(weft.schedulerPort, somePath, null, "").status()).isEqualTo(401);
        assertThat(Http.post(weft.schedulerPort, somePath, WeftSystem.SCHEDULER_TOKEN, "").status()).isEqualTo(403);

        JsonNode job = scheduler.createRing("drain", interleavedRing(), 100);
        String jobId = job.get("id").asText();
        String link = SchedulerClient.busiestLink(job);
        try {
            List<String> onIt = SchedulerClient.flowsOnLink(job, link);
            assertThat(onIt).isNotEmpty();
            long t0 = System.nanoTime();
            Http.Reply drained = Http.post(weft.schedulerPort, "/v1/fabric/links/" + link + "/drain",
                    WeftSystem.OPERATOR_TOKEN, "");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(drained.status()).as(drained.text()).isEqualTo(200);
            assertThat(drained.body().get("state").asText()).isEqualTo("drained");
            List<String> moved = new ArrayList<>();
            drained.body().get("movedFlows").forEach(f -> moved.add(f.asText()));
            assertThat(moved).containsAll(onIt);
            JsonNode snapshot = Http.get(weft.controllerPort, "/fabric", WeftSystem.OPERATOR_TOKEN).body();
            assertThat(snapshot.path("linkStates").path(link).asText()).as("the controller owns the drain")
                    .isEqualTo("drained");
            assertThat(snapshot.path("version").asLong())
                    .isGreaterThanOrEqualTo(drained.body().get("version").asLong());
            assertThat(SchedulerClient.flowsOnLink(scheduler.job(jobId), link)).isEmpty();
            System.out.printf(Locale.ROOT, "system test: drain through the controller answered in %d ms, %d flows "
                    + "moved (load average %s)%n", ms, moved.size(), loadAverage());

            Http.Reply undrained = Http.post(weft.schedulerPort, "/v1/fabric/links/" + link + "/undrain",
                    WeftSystem.OPERATOR_TOKEN, "");
            assertThat(undrained.status()).as(undrained.text()).isEqualTo(200);
            assertThat(undrained.body().get("state").asText()).isEqualTo("up");
        } finally {
            scheduler.release(jobId);
        }
    }

    private static Http.Reply put(int port, String path, String token, String json) {
        return Http.send(Http.request(port, path, token).header("Content-Type", "application/json")
                .PUT(java.net.http.HttpRequest.BodyPublishers.ofString(json)).build());
    }

    /** The scheduler's own timing chain of a hotspot's move (its loop-timings event), as stored. */
    private static String loopTimings(String eventId) throws Exception {
        DevstackEndpoints e = weft.devstack;
        try (Connection c = DriverManager.getConnection(e.jdbcUrl(), e.jdbcUser(), e.jdbcPassword());
             PreparedStatement s = c.prepareStatement("select c::text from scheduler.events, "
                     + "jsonb_array_elements(payload->'chains') c where type = 'loop-timings' and c->>'eventId' = ?")) {
            s.setString(1, eventId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : "(not recorded yet)";
            }
        }
    }

    private static Instant instantOfNs(String ns) {
        long v = Long.parseLong(ns);
        return Instant.ofEpochSecond(v / 1_000_000_000L, v % 1_000_000_000L);
    }

    private static String loadAverage() {
        try {
            String[] f = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (java.io.IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
