package io.weft.telemetry.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.DevstackExtension;
import io.weft.devstack.junit.WeftDevstackTest;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.plan.Planner;
import io.weft.plan.SnapshotJson;
import io.weft.telemetry.TelemetryCollectorApplication;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The whole collector on the real embedded Kafka + PostgreSQL: a planned snapshot of the contracts'
 * 2x2 example on weft.fabric, scripted gnmic events that fill leaf1-spine1 towards spine1 at 95 %
 * (and leaf2-spine1 at 30 %) → a hotspot-start on weft.hotspots at the N-th rate sample, rows in
 * PostgreSQL, and both REST reads showing them; the live load feed (snapshot, coalesced deltas, resume,
 * hotspots). Every JSON answer is checked against contracts/openapi/telemetry-collector.yaml.
 */
@WeftDevstackTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CollectorEndToEndTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final long LINE_OCTETS_PER_S = 400_000_000_000L / 8;
    private static final String READER = "e2e-reader-token-0123456789";
    private static final String AGENT = "e2e-agent-token-0123456789";

    private static ConfigurableApplicationContext app;
    private static DevstackEndpoints devstack;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        devstack = DevstackExtension.endpoints();
        Fabric fabric = FabricJson.read(Path.of("../contracts/examples/leaf-spine-2x2.json"));
        String snapshot = MAPPER.writeValueAsString(SnapshotJson.toTree(Planner.plan(fabric, null), Map.of(), 1));
        try (KafkaProducer<String, String> p = producer()) {
            p.send(new ProducerRecord<>("weft.fabric", fabric.id(), snapshot)).get();
        }
        Path state = Files.createTempDirectory("weft-telemetry-e2e");
        app = new SpringApplicationBuilder(TelemetryCollectorApplication.class).run(
                "--server.port=0",
                "--spring.datasource.url=" + devstack.jdbcUrl(),
                "--spring.datasource.username=" + devstack.jdbcUser(),
                "--spring.datasource.password=" + devstack.jdbcPassword(),
                "--weft.telemetry.kafka.bootstrap-servers=" + devstack.kafkaBootstrapServers(),
                "--weft.telemetry.kafka.application-id=weft-telemetry-e2e-" + UUID.randomUUID(),
                "--weft.telemetry.kafka.state-dir=" + state,
                "--weft.collector.auth.reads=token",
                "--weft.collector.auth.tokens=reader:scheduler=" + READER + ";nic:agent:nic1=" + AGENT);
        port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
        await("streams RUNNING", () -> get("/v1/status").body.path("streams").asText().equals("RUNNING"));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void aHotLinkBecomesAHotspotEventRowsAndRestAnswers() throws Exception {
        long t0 = (Instant.now().getEpochSecond() - 20) * 1_000_000_000L;
        try (KafkaProducer<String, String> p = producer()) {
            long hot = 0;
            long warm = 0;
            for (int s = 0; s <= 5; s++) {
                long ns = t0 + s * 1_000_000_000L;
                p.send(new ProducerRecord<>("weft.telemetry.interfaces", "leaf1", event("leaf1", "eth1", ns, hot)));
                p.send(new ProducerRecord<>("weft.telemetry.interfaces", "leaf2", event("leaf2", "eth1", ns, warm)));
                hot += (long) (0.95 * LINE_OCTETS_PER_S);
                warm += (long) (0.30 * LINE_OCTETS_PER_S);
            }
            p.send(new ProducerRecord<>("weft.telemetry.interfaces", "leaf1", "not json at all"));
            p.flush();
        }

        // weft.hotspots: exactly one start, at the 3rd rate sample (samples-to-enter = 3), i.e. sample 3.
        List<JsonNode> events = new ArrayList<>();
        try (KafkaConsumer<String, String> c = consumer()) {
            c.subscribe(List.of("weft.hotspots"));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (events.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                    events.add(MAPPER.readTree(r.value()));
                }
            }
        }
        assertThat(events).hasSize(1);
        JsonNode start = events.get(0);
        assertThat(start.get("kind").asText()).isEqualTo("hotspot-start");
        assertThat(start.get("linkId").asText()).isEqualTo("leaf1-spine1");
        assertThat(start.get("direction").asText()).isEqualTo("spine1");
        assertThat(start.get("sampleTimestampNs").asText()).isEqualTo(Long.toString(t0 + 3_000_000_000L));

        // PostgreSQL, through the REST API.
        String eventId = start.get("eventId").asText();
        await("GET /v1/hotspots shows the event", () -> get("/v1/hotspots?linkId=leaf1-spine1").body.path("events")
                .findValuesAsText("eventId").contains(eventId));
        assertThat(CollectorContract.errors("HotspotPage", get("/v1/hotspots?linkId=leaf1-spine1").body)).isEmpty();
        JsonNode listed = get("/v1/hotspots?linkId=leaf1-spine1").body.path("events").get(0);
        assertThat(listed.get("kind").asText()).isEqualTo("hotspot-start");
        assertThat(listed.get("sampleTimestampNs").asText()).isEqualTo(start.get("sampleTimestampNs").asText());
        assertThat(listed.get("utilisation").asDouble()).isEqualTo(start.get("utilisation").asDouble());

        String from = Instant.ofEpochSecond(t0 / 1_000_000_000L).toString();
        String to = Instant.ofEpochSecond(t0 / 1_000_000_000L + 10).toString();
        await("five seconds of rollups", () -> get("/v1/links/leaf1-spine1/series?from=" + from + "&to=" + to)
                .body.path("points").size() == 5);
        JsonNode series = get("/v1/links/leaf1-spine1/series?from=" + from + "&to=" + to).body;
        assertThat(CollectorContract.errors("LinkSeries", series)).isEmpty();
        JsonNode points = series.path("points");
        for (JsonNode pt : points) {
            assertThat(pt.get("toNode").asText()).isEqualTo("spine1");
            assertThat(pt.get("utilisationAvg").asDouble()).isBetween(0.949, 0.951);
        }
        assertThat(points.get(4).get("hot").asBoolean()).isTrue();
        assertThat(points.get(0).get("hot").asBoolean()).isFalse();

        // leaf2 is another partition (another task): its last load leaves on that task's own flush of
        // waiting loads (links-load-interval-ms), up to a second after leaf1's.
        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        await("five rollups of leaf2-spine1", () -> jdbc.queryForObject(
                "SELECT count(*) FROM telemetry.link_rollup WHERE link_id = 'leaf2-spine1'", Integer.class) >= 5);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM telemetry.link_rollup WHERE link_id = 'leaf2-spine1'",
                Integer.class)).isEqualTo(5);
        await("the malformed record counted", () -> get("/v1/status").body.path("counters")
                .path("deadletter.not-json").asInt() == 1);
    }

    @Test
    void flowReportsAreServedPerNic() throws Exception {
        String report = "{\"schemaVersion\":1,\"nic\":\"nic2\",\"timestampNs\":\"5\",\"flows\":[{\"flowId\":\"f1\","
                + "\"dstNic\":\"nic3\",\"ev\":49153,\"bytes\":\"100\",\"rateGbps\":10.5,\"ecnMarked\":\"0\","
                + "\"cnpCount\":\"0\",\"drops\":\"0\"}]}";
        try (KafkaProducer<String, String> p = producer()) {
            p.send(new ProducerRecord<>("weft.telemetry.flows", "nic2", report)).get();
        }
        await("GET /v1/flows?nic=nic2 shows the flow", () -> get("/v1/flows?nic=nic2").body.path("flows").size() == 1);
        JsonNode f = get("/v1/flows?nic=nic2").body.path("flows").get(0);
        assertThat(f.get("ev").asInt()).isEqualTo(49153);
        assertThat(f.get("rateGbps").asDouble()).isEqualTo(10.5);
        Reply missing = get("/v1/flows");
        assertThat(missing.status).isEqualTo(400);
        assertThat(missing.contentType).startsWith("application/problem+json");
        assertThat(missing.body.get("parameter").asText()).isEqualTo("nic");
    }

    /** The door (contracts/auth.md): reads need a scheduler or operator token. */
    @Test
    void readsNeedAReaderTokenAndRefusalsNameNoTokenValue() {
        Reply none = get("/v1/hotspots", null);
        assertThat(none.status).isEqualTo(401);
        assertThat(none.contentType).startsWith("application/problem+json");
        Reply unknown = get("/v1/hotspots", READER + "x");
        assertThat(unknown.status).isEqualTo(401);
        assertThat(unknown.body.toString()).doesNotContain(READER);
        Reply agent = get("/v1/links/leaf1-spine1/series", AGENT);
        assertThat(agent.status).isEqualTo(403);
        assertThat(agent.body.path("detail").asText())
                .isEqualTo("token 'nic' has scope agent; this needs scheduler or operator");
        assertThat(get("/v1/status", READER).status).isEqualTo(200);
    }

    @Test
    void badParametersAreProblemJsonNamingTheParameter() throws Exception {
        Reply r = get("/v1/hotspots?from=yesterday");
        assertThat(r.status).isEqualTo(400);
        assertThat(r.contentType).startsWith("application/problem+json");
        assertThat(r.body.get("detail").asText()).startsWith("from: must be an RFC 3339 time");
        assertThat(r.body.get("parameter").asText()).isEqualTo("from");
        assertThat(CollectorContract.problemErrors(r.body)).isEmpty();
        Reply order = get("/v1/links/leaf1-spine1/series?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z");
        assertThat(order.status).isEqualTo(400);
        assertThat(order.body.get("detail").asText()).startsWith("from: must be before to");
        assertThat(get("/v1/hotspots?limit=0").body.get("parameter").asText()).isEqualTo("limit");
        assertThat(get("/v1/hotspots?kind=melted").status).isEqualTo(400);
    }

    @Test
    void partitionsAreCreatedAheadAndDroppedPastRetention() {
        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        LocalDate old = today.minusDays(30);
        String oldName = "link_rollup_p" + old.toString().replace("-", "");
        jdbc.execute("CREATE TABLE telemetry." + oldName + " PARTITION OF telemetry.link_rollup FOR VALUES FROM ('"
                + old + " 00:00:00+00') TO ('" + old.plusDays(1) + " 00:00:00+00')");
        app.getBean(Partitions.class).maintain();
        List<String> parts = jdbc.queryForList("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = "
                + "i.inhrelid"
                + " JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'link_rollup'", String.class);
        assertThat(parts).doesNotContain(oldName)
                .contains("link_rollup_p" + today.toString().replace("-", ""),
                        "link_rollup_p" + today.plusDays(2).toString().replace("-", ""));
    }

    /**
     * Runs last: it makes a second hotspot (on leaf1-spine2), and the first test expects exactly one
     * event on weft.hotspots.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void theLiveFeedStreamsASnapshotThenCoalescedDeltasResumesAndForwardsHotspots() throws Exception {
        String stream = "http://127.0.0.1:" + port + "/v1/links/load/stream";
        String lastId;
        long lastSeq;
        try (SseClient client = new SseClient(HTTP, stream, null, READER)) {
            SseClient.Event first = client.next(Duration.ofSeconds(30));
            assertThat(first.name()).isEqualTo("snapshot");
            JsonNode snapshot = MAPPER.readTree(first.data());
            assertThat(CollectorContract.errors("LoadSnapshot", snapshot)).isEmpty();
            String epoch = snapshot.get("epoch").asText();
            assertThat(first.id()).isEqualTo(epoch + ":" + snapshot.get("seq").asLong());

            // leaf2 -> spine2 at 50 %, leaf1 -> spine2 at 95 % (hot after three rate samples).
            long t0 = (Instant.now().getEpochSecond() - 40) * 1_000_000_000L;
            try (KafkaProducer<String, String> p = producer()) {
                long hot = 0;
                long half = 0;
                for (int s = 0; s <= 6; s++) {
                    long ns = t0 + s * 1_000_000_000L;
                    p.send(new ProducerRecord<>("weft.telemetry.interfaces", "leaf1", event("leaf1", "eth2", ns, hot)));
                    p.send(new ProducerRecord<>("weft.telemetry.interfaces", "leaf2",
                            event("leaf2", "eth2", ns, half)));
                    hot += (long) (0.95 * LINE_OCTETS_PER_S);
                    half += (long) (0.50 * LINE_OCTETS_PER_S);
                }
                p.flush();
            }

            JsonNode hotspot = null;
            JsonNode half = null;
            long previousSeq = snapshot.get("seq").asLong();
            long previousArrival = 0;
            long minGapNs = Long.MAX_VALUE;
            SseClient.Event lastLoads = first;
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while ((hotspot == null || half == null) && System.nanoTime() < deadline) {
                SseClient.Event e = client.next(Duration.ofSeconds(60));
                JsonNode d = MAPPER.readTree(e.data());
                if (e.name().equals("hotspot")) {
                    assertThat(CollectorContract.errors("HotspotEvent", d)).isEmpty();
                    assertThat(e.id()).isNull();
                    if (d.get("linkId").asText().equals("leaf1-spine2")
                            && d.get("kind").asText().equals("hotspot-start")) {
                        hotspot = d;
                    }
                    continue;
                }
                assertThat(e.name()).isEqualTo("loads");
                assertThat(CollectorContract.errors("LoadDelta", d)).isEmpty();
                assertThat(d.get("epoch").asText()).isEqualTo(epoch);
                // Deltas follow each other (the first may overlap the snapshot: it repeats current values).
                assertThat(d.get("fromSeq").asLong()).isLessThanOrEqualTo(previousSeq);
                assertThat(d.get("seq").asLong()).isGreaterThan(previousSeq);
                previousSeq = d.get("seq").asLong();
                if (previousArrival != 0) {
                    minGapNs = Math.min(minGapNs, e.arrivedNs() - previousArrival);
                }
                previousArrival = e.arrivedNs();
                lastLoads = e;
                for (JsonNode l : d.get("loads")) {
                    if (l.get("linkId").asText().equals("leaf2-spine2") && l.get("toNode").asText().equals("spine2")) {
                        half = l;
                    }
                }
            }
            assertThat(hotspot).as("hotspot-start of leaf1-spine2 on the stream").isNotNull();
            assertThat(hotspot.get("direction").asText()).isEqualTo("spine2");
            assertThat(half).as("load of leaf2-spine2>spine2 on the stream").isNotNull();
            assertThat(half.get("utilisation").asDouble()).isBetween(0.499, 0.501);
            // At most 10 Hz: deltas leave 100 ms apart; arrival times jitter, hence the margin.
            assertThat(minGapNs).isGreaterThan(50_000_000L);
            lastId = lastLoads.id();
            lastSeq = previousSeq;
        }

        try (SseClient resumed = new SseClient(HTTP, stream, lastId, READER)) {
            SseClient.Event e = resumed.next(Duration.ofSeconds(30));
            assertThat(e.name()).as("a known Last-Event-ID resumes without a snapshot").isEqualTo("loads");
            JsonNode d = MAPPER.readTree(e.data());
            assertThat(CollectorContract.errors("LoadDelta", d)).isEmpty();
            assertThat(d.get("fromSeq").asLong()).isEqualTo(lastSeq);
        }
        try (SseClient stranger = new SseClient(HTTP, stream, "another-epoch:3", READER)) {
            assertThat(stranger.next(Duration.ofSeconds(30)).name()).isEqualTo("snapshot");
        }

        JsonNode now = get("/v1/links/load").body;
        assertThat(CollectorContract.errors("LoadSnapshot", now)).isEmpty();
        assertThat(now.get("loads").findValuesAsText("linkId")).contains("leaf1-spine2", "leaf2-spine2");
        assertThat(CollectorContract.document().path("info").path("version").asText()).isEqualTo("1");
    }

    private static String event(String target, String iface, long ns, long outOctets) {
        return "[{\"name\":\"ifcounters\",\"timestamp\":" + ns + ",\"tags\":{\"source\":\"" + target
                + "\",\"interface_name\":\"" + iface + "\",\"subscription-name\":\"ifcounters\"},\"values\":{"
                + "\"openconfig:/interfaces/interface/state/counters/out-octets\":\"" + outOctets + "\","
                + "\"/interfaces/interface/state/oper-status\":\"UP\"}}]";
    }

    private static KafkaProducer<String, String> producer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, devstack.kafkaBootstrapServers());
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 16 * 1024 * 1024);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    private static KafkaConsumer<String, String> consumer() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, devstack.kafkaBootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "e2e-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }

    private record Reply(int status, String contentType, JsonNode body) {
    }

    private static Reply get(String path) {
        return get(path, READER);
    }

    private static Reply get(String path, String token) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(10)).GET();
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""),
                    r.body().isEmpty() ? MAPPER.nullNode() : MAPPER.readTree(r.body()));
        } catch (Exception e) {
            throw new IllegalStateException("GET " + path + ": " + e, e);
        }
    }

    /** Polls a condition (integration only: the pipeline is asynchronous); fails after 60 s. */
    private static void await(String what, Supplier<Boolean> condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.get()) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("timed out waiting for " + what);
    }
}
