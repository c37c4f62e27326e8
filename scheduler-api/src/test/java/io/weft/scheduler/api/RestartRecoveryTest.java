package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.WeftDevstackTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stops the service in the middle of a stream of job submissions and starts it again on the same
 * database: every job the first instance acknowledged (201) is there exactly once, active, with
 * its paths; per-NIC versions keep growing; retried Idempotency-Keys return the stored job.
 * Runs two instances in their own schema, so the numbers are not disturbed by other tests.
 */
@WeftDevstackTest
class RestartRecoveryTest {
    private static final String TOKEN = "recovery-token-0123456789";
    private static final String AGENT = "recovery-agent-0123456789";
    private static final String OPERATOR = "recovery-operator-0123456789";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void acknowledgedJobsSurviveARestartExactlyOnce(DevstackEndpoints e) throws Exception {
        String schema = "recovery_" + System.nanoTime();
        ConfigurableApplicationContext first = start(schema, e);
        int port = ((WebServerApplicationContext) first).getWebServer().getPort();
        Map<String, String> acked = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch some = new CountDownLatch(5);
        Thread submitter = new Thread(() -> {
            for (int i = 0; !stop.get() && i < 10_000; i++) {
                try {
                    HttpResponse<String> r = submit(port, i);
                    if (r.statusCode() == 201) {
                        acked.put("key-" + i, JSON.readTree(r.body()).get("id").asString());
                        some.countDown();
                    }
                } catch (Exception ex) {
                    // The server went away mid-request: that submission was never acknowledged.
                }
            }
        }, "submitter");
        submitter.start();
        some.await();
        long versionBefore = nicVersion(port);
        first.close();
        stop.set(true);
        submitter.join();
        assertThat(acked).hasSizeGreaterThanOrEqualTo(5);

        ConfigurableApplicationContext second = start(schema, e);
        try {
            int port2 = ((WebServerApplicationContext) second).getWebServer().getPort();
            JsonNode list = get(port2, "/v1/jobs?size=500&state=ACTIVE");
            List<String> ids = new ArrayList<>();
            list.get("items").forEach(j -> ids.add(j.get("id").asString()));
            Set<String> unique = new HashSet<>(ids);
            assertThat(unique).hasSameSizeAs(ids);
            assertThat(unique).containsAll(acked.values());
            for (String id : acked.values()) {
                JsonNode job = get(port2, "/v1/jobs/" + id);
                assertThat(job.get("flows")).isNotEmpty();
                job.get("flows").forEach(f -> assertThat(f.get("state").asString()).isEqualTo("GOOD"));
            }
            // A client retrying an acknowledged request gets the stored job, not a second one.
            String anyKey = acked.keySet().iterator().next();
            HttpResponse<String> retry = submit(port2, Integer.parseInt(anyKey.substring(4)));
            assertThat(retry.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(retry.body()).get("id").asString()).isEqualTo(acked.get(anyKey));
            // Versions stay monotonic across the restart: a new job gets a larger one.
            assertThat(submit(port2, 1_000_000).statusCode()).isEqualTo(201);
            assertThat(nicVersion(port2)).isGreaterThan(versionBefore);
        } finally {
            second.close();
        }
    }

    /**
     * A drain moves flows and the undrain leaves them where they went (nothing moves without need),
     * so the paths differ from what a fresh placement picks. A restart must keep them, and the agents
     * must see no new version. Drains go through the controller and come back on weft.fabric.
     */
    @Test
    void pathsMovedByADrainSurviveARestartWithoutNewVersions(DevstackEndpoints e) throws Exception {
        String schema = "recovery_moved_" + System.nanoTime();
        ConfigurableApplicationContext first = start(schema, e, true);
        String jobId;
        Map<String, String> pathsBefore;
        long versionBefore;
        try {
            int port = ((WebServerApplicationContext) first).getWebServer().getPort();
            HttpResponse<String> created = submit(port, 7);
            assertThat(created.statusCode()).isEqualTo(201);
            JsonNode job = JSON.readTree(created.body());
            jobId = job.get("id").asString();
            String hot = job.get("flows").get(0).get("links").get(1).asString();
            assertThat(post(port, "/v1/fabric/links/" + hot + "/drain").statusCode()).isEqualTo(200);
            assertThat(post(port, "/v1/fabric/links/" + hot + "/undrain").statusCode()).isEqualTo(200);
            pathsBefore = paths(get(port, "/v1/jobs/" + jobId));
            assertThat(pathsBefore.values()).noneMatch(links -> links.contains(hot));
            versionBefore = nicVersion(port);
        } finally {
            first.close();
        }

        ConfigurableApplicationContext second = start(schema, e, true);
        try {
            int port2 = ((WebServerApplicationContext) second).getWebServer().getPort();
            assertThat(paths(get(port2, "/v1/jobs/" + jobId))).isEqualTo(pathsBefore);
            assertThat(nicVersion(port2)).isEqualTo(versionBefore);
        } finally {
            second.close();
        }
    }

    /**
     * Stopping answers parked polls with "nothing newer" and ends event streams at once: otherwise the web server's
     * graceful
     * shutdown would wait for each of them, and the agents would see a cut connection instead of a 304.
     */
    @Test
    void stoppingAnswersParkedPollsWithNothingNewer(DevstackEndpoints e) throws Exception {
        String schema = "recovery_stop_" + System.nanoTime();
        ConfigurableApplicationContext ctx = start(schema, e);
        int port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
        assertThat(submit(port, 1).statusCode()).isEqualTo(201);
        long v = nicVersion(port);
        var poll = http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/v1/agents/nic1/paths?since=" + v + "&wait=60")).header("Authorization", "Bearer " + AGENT)
                .build(), HttpResponse.BodyHandlers.ofString());
        var events = http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/events"))
                .header("Authorization", "Bearer " + OPERATOR).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofString());
        var board = ctx.getBean(io.weft.scheduler.agent.PathBoard.class);
        var log = ctx.getBean(io.weft.scheduler.events.EventLog.class);
        for (int i = 0; i < 200 && (board.waiting() == 0 || log.subscriberCount() == 0); i++) {
            Thread.sleep(25);
        }
        assertThat(board.waiting()).isEqualTo(1);
        assertThat(log.subscriberCount()).isEqualTo(1);
        ctx.close();
        HttpResponse<String> r = poll.get(20, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(r.statusCode()).isEqualTo(304);
        assertThat(r.headers().firstValue("Weft-Version")).hasValue(Long.toString(v));
        // The event stream ends too (the client reconnects with Last-Event-ID).
        assertThat(events.get(20, java.util.concurrent.TimeUnit.SECONDS).body()).contains("event:hello");
    }

    private static Map<String, String> paths(JsonNode job) {
        Map<String, String> out = new java.util.TreeMap<>();
        job.get("flows").forEach(f -> out.put(f.get("id").asString(), f.get("links").toString()));
        return out;
    }

    private HttpResponse<String> post(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Bearer " + OPERATOR).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static ConfigurableApplicationContext start(String schema, DevstackEndpoints e) {
        return start(schema, e, false);
    }

    /** @param followController follow weft.fabric and forward drains to the test JVM's controller */
    private static ConfigurableApplicationContext start(String schema, DevstackEndpoints e, boolean followController) {
        String kafka = followController ? e.kafkaBootstrapServers() : "";
        String controller = followController ? "http://127.0.0.1:" + TestController.port(e) : "";
        return SchemaService.start(e, schema,
                "--weft.scheduler.kafka.bootstrap-servers=" + kafka,
                "--weft.scheduler.controller.url=" + controller,
                "--weft.scheduler.controller.token=" + TestController.TOKEN,
                "--weft.scheduler.auth.tokens=s:scheduler=" + TOKEN + ";a:agent:nic1=" + AGENT
                        + ";o:operator=" + OPERATOR);
    }

    private HttpResponse<String> submit(int port, int i) throws Exception {
        String body = "{\"name\":\"r" + i
                + "\",\"pattern\":\"ring\",\"endpoints\":[\"nic1\",\"nic3\",\"nic2\",\"nic4\"],"
                + "\"demandGbps\":" + (i == 7 ? 100 : 1) + "}";
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/jobs"))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .header("Idempotency-Key", "key-" + i).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private long nicVersion(int port) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/v1/agents/nic1/paths")).header("Authorization", "Bearer " + AGENT).build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body()).get("version").asLong();
    }

    private JsonNode get(int port, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Bearer " + TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }
}
