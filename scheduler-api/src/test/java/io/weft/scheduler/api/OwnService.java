package io.weft.scheduler.api;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Function;

import io.weft.contracts.HotspotEvent;
import io.weft.contracts.LinkState;
import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.DevstackExtension;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.plan.FabricPlan;
import io.weft.plan.SnapshotJson;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.test.context.DynamicPropertyRegistry;
import tools.jackson.databind.JsonNode;

/**
 * A scheduler-api test context of its own on the shared devstack: its fabric file, PostgreSQL schema
 * {@code scheduler_<name>}, fabric and hotspot topics and consumer group, so that it shares nothing
 * with the API tests on the 2x2 example (which place from weft.fabric).
 */
public final class OwnService {
    private OwnService() {
    }

    /**
     * POSTs a job as the scheduler and returns the created job. The service reads its fabric at
     * start, so a first 503 is retried for up to 30 s; any other answer fails the test.
     *
     * @param request the test's request builder for a path and token
     */
    static JsonNode postJob(Function<String, HttpRequest.Builder> request, String body) {
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            HttpResponse<String> r = MultipathSpreadingTest.send(request.apply("/v1/jobs")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build());
            if (r.statusCode() == 201) {
                return MultipathSpreadingTest.JSON.readTree(r.body());
            }
            if (r.statusCode() != 503 || System.nanoTime() > until) {
                throw new AssertionError("job not created: " + r.statusCode() + " " + r.body());
            }
            MultipathSpreadingTest.sleep();
        }
    }

    /** Registers the service's properties; returns the fabric topic it places from. */
    public static String register(DynamicPropertyRegistry r, String name, Fabric fabric, String tokens)
            throws IOException {
        DevstackEndpoints e = DevstackExtension.endpoints();
        String run = Long.toString(System.currentTimeMillis(), 36);
        String fabricTopic = "weft.fabric." + name + "-" + run;
        String hotspots = "weft.hotspots." + name + "-" + run;
        createTopics(e.kafkaBootstrapServers(), fabricTopic, hotspots);
        Path file = Files.createTempFile("weft-" + name + "-fabric", ".json");
        Files.writeString(file, FabricJson.write(fabric));
        String schema = "scheduler_" + name;
        r.add("spring.datasource.url", e::jdbcUrl);
        r.add("spring.datasource.username", e::jdbcUser);
        r.add("spring.datasource.password", e::jdbcPassword);
        r.add("spring.datasource.hikari.schema", () -> schema);
        r.add("spring.flyway.schemas", () -> schema);
        r.add("spring.flyway.default-schema", () -> schema);
        r.add("weft.scheduler.kafka.bootstrap-servers", e::kafkaBootstrapServers);
        r.add("weft.scheduler.kafka.fabric-topic", () -> fabricTopic);
        r.add("weft.scheduler.fabric.file", file::toString);
        r.add("weft.scheduler.auth.tokens", () -> tokens);
        r.add("weft.reroute.hotspots-topic", () -> hotspots);
        r.add("weft.reroute.group-id", () -> name + "-test-" + run);
        return fabricTopic;
    }

    /** The controller's snapshot of {@code plan} with the given links not up, as it writes it to {@code topic}. */
    public static void publishLinkStates(String topic, FabricPlan plan, Map<String, LinkState> notUp, long version)
            throws Exception {
        Map<String, LinkState> states = new LinkedHashMap<>();
        plan.fabric().links().forEach(l -> states.put(l.id(), notUp.getOrDefault(l.id(), LinkState.UP)));
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, DevstackExtension.endpoints().kafkaBootstrapServers());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, plan.fabric().id(),
                    SnapshotJson.toTree(plan, states, version).toString())).get();
        }
    }

    /**
     * A hotspot event as the telemetry collector writes it, on the hotspot topic that goes with
     * {@code fabricTopic} (see {@link #register}); returns its eventId.
     *
     * @param direction the node the hot direction points to
     */
    public static String publishHotspot(String fabricTopic, HotspotEvent.Kind kind, String linkId, String direction)
            throws Exception {
        Instant now = Instant.now();
        boolean hot = kind == HotspotEvent.Kind.HOTSPOT_START;
        HotspotEvent e = new HotspotEvent(UUID.randomUUID().toString(), kind, linkId, direction,
                now.getEpochSecond() * 1_000_000_000L + now.getNano(), now, hot ? 0.97 : Double.NaN,
                hot ? 0.01 : Double.NaN, Double.NaN, hot ? 0.9 : Double.NaN);
        String topic = fabricTopic.replace("weft.fabric.", "weft.hotspots.");
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, DevstackExtension.endpoints().kafkaBootstrapServers());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, e.key(), e.toJson())).get();
        }
        return e.eventId();
    }

    static void createTopics(String bootstrap, String... topics) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        List<NewTopic> news = new ArrayList<>();
        for (String t : topics) {
            news.add(new NewTopic(t, 1, (short) 1));
        }
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(news).all().get();
        } catch (Exception ex) {
            if (!(ex.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("creating the test topics " + news + ": " + ex, ex);
            }
        }
    }
}
