package io.weft.scheduler.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.weft.contracts.HotspotEvent;
import io.weft.contracts.LinkState;
import io.weft.devstack.junit.WeftDevstackTest;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.scheduler.SchedulerApiApplication;
import io.weft.scheduler.api.OwnService;
import io.weft.scheduler.reroute.HotspotListener;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The writer's profiles, built from what its commits wrote ({@link ProfileCache}), against a fresh
 * read of PostgreSQL: after every step of seeded random sequences of placements (single and
 * multipath, every encoding, refused ones included), releases, re-spreads and fabric changes that
 * take spine links down and up again, and hotspots on links the jobs use (the re-placements those
 * trigger), every NIC's profile must be
 * the same JSON byte for byte, and the cache must have followed every change (a NIC it had to drop
 * would be read back correctly, but would mean a writer that did not hand over its change).
 */
@WeftDevstackTest
// Its own service, used by no other class: closed after it.
@DirtiesContext
@SpringBootTest(classes = SchedulerApiApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"weft.scheduler.limits.multipath-budget-ms=2000", "weft.scheduler.respread.budget-ms=2000",
                "weft.scheduler.respread.min-interval-ms=0",
                // A hotspot may move a flow onto a spine that already carries a few (one, by default).
                "weft.reroute.t=8"})
class ProfileCacheDifferentialTest {
    static final String SCHEDULER = "pc-sched-token-0123456789";
    static final String OPERATOR = "pc-oper-token-0123456789";
    static final Fabric FABRIC = LeafSpineGenerator.generate(
            new LeafSpineGenerator.Params("ls-profile-cache", 3, 3, 4, 1, 400, 400, 100, 500));
    static final int STEPS = 48;
    static final String[] ENCODINGS = {"srv6", "ev", "both"};
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static String fabricTopic;

    @LocalServerPort
    int port;
    @Autowired
    ProfileCache cache;
    @Autowired
    ProfileReader reader;
    @Autowired
    PathBoard board;
    @Autowired
    ObjectMapper json;
    @Autowired
    HotspotListener listener;

    @DynamicPropertySource
    static void props(DynamicPropertyRegistry r) throws IOException {
        fabricTopic = OwnService.register(r, "pcache", FABRIC,
                "pcs:scheduler=" + SCHEDULER + ";pco:operator=" + OPERATOR);
    }

    @Test
    void randomChangesKeepTheCachedProfilesEqualToTheDatabase() throws Exception {
        FabricPlan plan = Planner.plan(FABRIC, null);
        List<String> nics = new ArrayList<>();
        FABRIC.nodes().forEach(n -> {
            if (n.id().contains("-nic")) {
                nics.add(n.id());
            }
        });
        Collections.sort(nics);
        List<String> spineLinks = new ArrayList<>();
        for (Link l : plan.fabric().links()) {
            if (l.id().contains("spine")) {
                spineLinks.add(l.id());
            }
        }
        awaitFabric();
        long seed = Long.getLong("weft.test.seed", 20261127L);
        Random rnd = new Random(seed);
        List<String> active = new ArrayList<>();
        long fabricVersion = 1000;
        int followed = 0;
        Map<String, Integer> kinds = new java.util.TreeMap<>();
        nics.forEach(reader::current); // the cache starts from a read of every NIC
        assertThat(listener.awaitAssigned(Duration.ofSeconds(30))).as("the hotspot feed is assigned").isTrue();
        try {
            for (int step = 0; step < STEPS; step++) {
                double roll = rnd.nextDouble();
                String what;
                if (active.size() < 2 || roll < 0.4 && active.size() < 6) {
                    what = place(rnd, nics, active);
                } else if (roll < 0.6) {
                    String id = active.remove(rnd.nextInt(active.size()));
                    send(request("/v1/jobs/" + id, SCHEDULER).DELETE().build(), 200);
                    what = "release " + id;
                } else if (roll < 0.7) {
                    JsonNode r = send(request("/v1/fabric/multipath/respread", OPERATOR)
                            .POST(HttpRequest.BodyPublishers.noBody()).build(), 200);
                    what = "respread applied=" + r.get("applied").asBoolean();
                } else if (roll < 0.8) {
                    what = hotspot(rnd, active);
                } else {
                    Map<String, LinkState> notUp = new LinkedHashMap<>();
                    if (rnd.nextBoolean()) {
                        notUp.put(spineLinks.get(rnd.nextInt(spineLinks.size())), LinkState.DOWN);
                    }
                    OwnService.publishLinkStates(fabricTopic, plan, notUp, ++fabricVersion);
                    awaitFabricVersion(fabricVersion);
                    what = (notUp.isEmpty() ? "links all up" : "link down") + ": " + notUp.keySet();
                }
                kinds.merge(what.startsWith("release") ? "release" : what.split(":")[0], 1, Integer::sum);
                followed += compare(nics, "seed " + seed + " step " + step + " (" + what + ")");
            }
        } finally {
            for (String id : active) {
                send(request("/v1/jobs/" + id, SCHEDULER).DELETE().build(), 200);
            }
        }
        assertThat(followed).as("NIC profiles compared").isEqualTo(STEPS * nics.size());
        System.err.println("profile cache differential, seed " + seed + ": " + kinds);
        assertThat(kinds.keySet()).as("every kind of change was made")
                .contains("release", "link down", "links all up", "hotspot moved")
                .anyMatch(k -> k.startsWith("respread")).anyMatch(k -> k.startsWith("place"));
    }

    private String place(Random rnd, List<String> nics, List<String> active) {
        List<String> shuffled = new ArrayList<>(nics);
        Collections.shuffle(shuffled, rnd);
        List<String> ends = shuffled.subList(0, 2 + rnd.nextInt(4));
        String encoding = ENCODINGS[rnd.nextInt(ENCODINGS.length)];
        boolean multipath = rnd.nextInt(3) == 0;
        int demand = multipath ? 400 : 25 * (1 + rnd.nextInt(8));
        String body = "{\"name\":\"pc-" + active.size() + "\",\"pattern\":\"ring\",\"endpoints\":[\""
                + String.join("\",\"", ends) + "\"],\"demandGbps\":" + demand + ",\"encoding\":\"" + encoding + "\""
                + (multipath ? ",\"multipath\":{\"maxPaths\":2,\"granularity\":16}" : "") + "}";
        HttpResponse<String> r = raw(request("/v1/jobs", SCHEDULER).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        // EV jobs whose paths EV routing cannot reach are refused (409); the flows it moved still count.
        assertThat(r.statusCode()).as(body + ": " + r.body()).isIn(201, 409);
        if (r.statusCode() == 201) {
            active.add(json.readTree(r.body()).get("id").asString());
        }
        return "place " + r.statusCode() + " " + encoding + (multipath ? " multipath" : "") + ": " + body;
    }

    /**
     * A hotspot on the leaf-to-spine direction of one of the job's flows, as the collector reports it;
     * waits until the loop's pass shows in a job's history (the flow it moves may be another job's, and
     * it may find none to move), then ends it.
     */
    private String hotspot(Random rnd, List<String> active) throws Exception {
        String jobId = active.get(rnd.nextInt(active.size()));
        List<JsonNode> flows = new ArrayList<>();
        send(request("/v1/jobs/" + jobId, SCHEDULER).GET().build(), 200).get("flows").forEach(f -> {
            if (f.path("links").size() >= 3) {
                flows.add(f);
            }
        });
        if (flows.isEmpty()) {
            return "hotspot none: no switch path in " + jobId;
        }
        JsonNode flow = flows.get(rnd.nextInt(flows.size()));
        String link = flow.get("links").get(1).asString();
        String direction = flow.get("nodes").get(2).asString();
        String id = OwnService.publishHotspot(fabricTopic, HotspotEvent.Kind.HOTSPOT_START, link, direction);
        boolean moved = false;
        long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (!moved && System.nanoTime() < until) {
            Thread.sleep(100);
            for (String job : active) {
                moved |= send(request("/v1/jobs/" + job + "/history", SCHEDULER).GET().build(), 200).toString()
                        .contains("hotspot:" + id);
            }
        }
        OwnService.publishHotspot(fabricTopic, HotspotEvent.Kind.HOTSPOT_END, link, direction);
        return "hotspot " + (moved ? "moved" : "kept") + ": " + link + " to " + direction;
    }

    /**
     * Every NIC: the cache has it at its latest version, and its profile is the database's JSON. Retried
     * while versions move (a fabric change's re-placement may still be committing).
     */
    private int compare(List<String> nics, String step) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            Map<String, Long> before = versions(nics);
            Map<String, String> cached = new LinkedHashMap<>();
            Map<String, String> read = new LinkedHashMap<>();
            Map<String, EvProfile> fromDb = reader.readAll(nics);
            for (String nic : nics) {
                ProfileCache.Snapshot s = cache.at(nic, before.get(nic));
                cached.put(nic, s == null ? "no snapshot at " + before.get(nic)
                        : new String(json.writeValueAsBytes(cache.profile(nic, s))));
                read.put(nic, new String(json.writeValueAsBytes(fromDb.get(nic))));
            }
            if (before.equals(versions(nics)) && cached.equals(read) || System.nanoTime() > until) {
                assertThat(cached).as(step).isEqualTo(read);
                return nics.size();
            }
            Thread.sleep(100);
        }
    }

    private Map<String, Long> versions(List<String> nics) {
        Map<String, Long> out = new LinkedHashMap<>();
        nics.forEach(n -> out.put(n, board.version(n)));
        return out;
    }

    private void awaitFabric() throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (raw(request("/v1/fabric", OPERATOR).GET().build()).statusCode() != 200) {
            assertThat(System.nanoTime()).as("the service has a fabric").isLessThan(until);
            Thread.sleep(200);
        }
    }

    private void awaitFabricVersion(long version) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (send(request("/v1/fabric", OPERATOR).GET().build(), 200).get("version").asLong() != version) {
            assertThat(System.nanoTime()).as("fabric version " + version).isLessThan(until);
            Thread.sleep(100);
        }
    }

    private JsonNode send(HttpRequest req, int status) {
        HttpResponse<String> r = raw(req);
        assertThat(r.statusCode()).as(req.uri() + ": " + r.body()).isEqualTo(status);
        return json.readTree(r.body());
    }

    private static HttpResponse<String> raw(HttpRequest req) {
        try {
            return HTTP.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private HttpRequest.Builder request(String path, String token) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token);
    }
}
