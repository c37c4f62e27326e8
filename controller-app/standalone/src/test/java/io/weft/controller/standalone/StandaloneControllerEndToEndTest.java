package io.weft.controller.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.contracts.HotspotEvent;
import io.weft.contracts.Topics;
import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.WeftDevstackTest;
import io.weft.fabric.FabricJson;
import io.weft.plan.SnapshotJson;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The controller as ./weft controller runs it, on the shared embedded Kafka, edited while it runs. */
@WeftDevstackTest
class StandaloneControllerEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static final String OPERATOR = "e2e-operator-token-0123456789";

    private final HttpClient http = HttpClient.newHttpClient();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    @Test
    void publishesServesAndRepublishesOnEdit(DevstackEndpoints devstack) throws Exception {
        String fabricId = "e2e-" + UUID.randomUUID().toString().substring(0, 8);
        Path file = dir.resolve("fabric.json");
        TestFabrics.write(file, TestFabrics.leafSpine(fabricId, 2, 2, 400));
        ControllerOptions options = new ControllerOptions(file, devstack.kafkaBootstrapServers(), "127.0.0.1", 0,
                dir.resolve("state"), 50);

        JsonNode v2;
        try (StandaloneController controller = start(options)) {
            String base = "http://127.0.0.1:" + controller.httpPort();

            HttpResponse<String> first = get(base + "/fabric", null);
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(first.headers().firstValue("Content-Type")).hasValue("application/json");
            JsonNode served = FabricJson.mapper().readTree(first.body());
            assertThat(served.path("fabricId").asText()).isEqualTo(fabricId);
            assertThat(served.path("version").asLong()).isEqualTo(1);
            assertThat(lastOnKafka(devstack, fabricId)).isEqualTo(served);

            String etag = first.headers().firstValue("ETag").orElseThrow();
            assertThat(get(base + "/fabric", etag).statusCode()).isEqualTo(304);

            // An edit: doubled capacities. The new version appears over HTTP and on Kafka.
            TestFabrics.write(file, TestFabrics.leafSpine(fabricId, 2, 2, 800));
            v2 = awaitFabric(base, s -> s.path("version").asLong() == 2);
            assertThat(v2.path("fabric").path("links").get(0).path("capacityGbps").asInt()).isEqualTo(800);
            assertThat(lastOnKafka(devstack, fabricId)).isEqualTo(v2);
            assertThat(get(base + "/fabric", etag).statusCode()).isEqualTo(200);

            // A bad edit: reported on /healthz, version 2 keeps being served and nothing new is published.
            String good = Files.readString(file);
            TestFabrics.write(file, good.replace("\"role\" : \"spine\"", "\"role\" : \"core\""));
            JsonNode health = awaitJson(base + "/healthz", h -> h.path("status").asText().equals("degraded"));
            assertThat(health.path("lastError").asText()).contains(file.toString()).contains("role");
            assertThat(health.path("version").asLong()).isEqualTo(2);
            assertThat(FabricJson.mapper().readTree(get(base + "/fabric", null).body())).isEqualTo(v2);
            assertThat(lastOnKafka(devstack, fabricId).path("version").asLong()).isEqualTo(2);

            TestFabrics.write(file, good);
            awaitJson(base + "/healthz", h -> h.path("status").asText().equals("ok"));

            // An operator drains a link: version 3 carries it, on HTTP and Kafka.
            HttpResponse<String> drained = put(base + "/links/leaf1-spine1/state", "{\"state\":\"drained\"}");
            assertThat(drained.statusCode()).isEqualTo(200);
            assertThat(FabricJson.mapper().readTree(drained.body()).path("version").asLong()).isEqualTo(3);
            assertThat(lastOnKafka(devstack, fabricId).path("linkStates").path("leaf1-spine1").asText())
                    .isEqualTo("drained");
            assertThat(put(base + "/links/nope/state", "{\"state\":\"drained\"}").statusCode()).isEqualTo(404);
            assertThat(put(base + "/links/leaf1-spine1/state", "{\"state\":\"down\"}").statusCode()).isEqualTo(400);

            // The telemetry collector reports leaf2-spine2 down on weft.hotspots. The listener joins its group
            // asynchronously and starts at the end of the topic, so the event is re-sent until it is seen.
            long deadline = System.nanoTime() + WAIT.toNanos();
            JsonNode linkStates = served;
            while (!linkStates.path("leaf2-spine2").asText().equals("down") && System.nanoTime() < deadline) {
                sendHotspot(devstack, "link-down", "leaf2-spine2");
                Thread.sleep(300);
                linkStates = FabricJson.mapper().readTree(get(base + "/fabric", null).body()).path("linkStates");
            }
            assertThat(linkStates.path("leaf2-spine2").asText()).isEqualTo("down");
            assertThat(linkStates.path("leaf1-spine1").asText()).isEqualTo("drained");
            v2 = FabricJson.mapper().readTree(get(base + "/fabric", null).body());
            assertThat(SnapshotSchema.violations(v2)).as("served snapshot vs. the contract").isEmpty();
            assertThat(SnapshotSchema.violations(lastOnKafka(devstack, fabricId))).as("published snapshot").isEmpty();
            assertThat(get(base + "/nothing", null).statusCode()).isEqualTo(404);
            assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "/fabric"))
                    .header("Authorization", "Bearer " + OPERATOR)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode()).isEqualTo(405);
        }
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("fabric " + fabricId + " version 2");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("still serving version 2");

        // A restart with an empty state directory continues from Kafka's last record: same ids and link states.
        ControllerOptions fresh = new ControllerOptions(file, devstack.kafkaBootstrapServers(), "127.0.0.1", 0,
                dir.resolve("other-state"), 50);
        try (StandaloneController controller = start(fresh)) {
            JsonNode v3 = FabricJson.mapper()
                    .readTree(get("http://127.0.0.1:" + controller.httpPort() + "/fabric", null).body());
            assertThat(v3.path("version").asLong()).isEqualTo(v2.path("version").asLong() + 1);
            assertThat(v3.path("linkStates")).isEqualTo(v2.path("linkStates"));
            assertThat(controller.controller().current().plan().nodeIds())
                    .isEqualTo(SnapshotJson.planFromTree(v2).nodeIds());
        }
    }

    @Test
    void aTakenHttpPortFailsTheStartWithoutPublishing(DevstackEndpoints devstack) throws Exception {
        String fabricId = "e2e-port-" + UUID.randomUUID().toString().substring(0, 8);
        Path file = dir.resolve("fabric.json");
        TestFabrics.write(file, TestFabrics.leafSpine(fabricId, 2, 1, 400));
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            ControllerOptions options = new ControllerOptions(file, devstack.kafkaBootstrapServers(), "127.0.0.1",
                    taken.getLocalPort(), dir.resolve("state"), 50);

            assertThatThrownBy(() -> start(options))
                    .isInstanceOf(StandaloneController.StartException.class)
                    .hasMessageStartingWith("HTTP port 127.0.0.1:" + taken.getLocalPort() + " is not usable");
        }
        assertThat(lastOnKafkaOrNull(devstack, fabricId)).isNull();
    }

    private StandaloneController start(ControllerOptions options) throws Exception {
        return StandaloneController.start(options, "ops:operator=" + OPERATOR,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private HttpResponse<String> get(String url, String ifNoneMatch) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (ifNoneMatch != null) {
            b.header("If-None-Match", ifNoneMatch);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> put(String url, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + OPERATOR)
                .PUT(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void sendHotspot(DevstackEndpoints devstack, String kind, String linkId) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, devstack.kafkaBootstrapServers());
        HotspotEvent event = new HotspotEvent(UUID.randomUUID().toString(), HotspotEvent.Kind.fromJson(kind), linkId,
                "spine2", 1, Instant.parse("2026-01-01T00:00:00Z"), Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(Topics.HOTSPOTS, event.key(), event.toJson())).get();
        }
    }

    private JsonNode awaitFabric(String base, Predicate<JsonNode> condition) throws Exception {
        return awaitJson(base + "/fabric", condition);
    }

    /** Polls until the JSON answer satisfies the condition; returns the last answer either way. */
    private JsonNode awaitJson(String url, Predicate<JsonNode> condition) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        JsonNode last = FabricJson.mapper().readTree(get(url, null).body());
        while (!condition.test(last) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            last = FabricJson.mapper().readTree(get(url, null).body());
        }
        return last;
    }

    /** The last weft.fabric record under the key, read by an independent consumer. */
    private static JsonNode lastOnKafka(DevstackEndpoints devstack, String key) throws Exception {
        JsonNode last = lastOnKafkaOrNull(devstack, key);
        assertThat(last).as("a weft.fabric record keyed " + key).isNotNull();
        return last;
    }

    private static JsonNode lastOnKafkaOrNull(DevstackEndpoints devstack, String key) throws Exception {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, devstack.kafkaBootstrapServers());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        String value = null;
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(Topics.FABRIC, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (consumer.position(tp) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    if (key.equals(r.key())) {
                        value = r.value();
                    }
                }
            }
        }
        return value == null ? null : FabricJson.mapper().readTree(value);
    }
}
