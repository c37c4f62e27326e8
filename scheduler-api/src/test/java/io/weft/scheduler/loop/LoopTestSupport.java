package io.weft.scheduler.loop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.weft.contracts.DirectionKey;
import io.weft.contracts.HotspotEvent;
import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.DevstackExtension;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Role;
import io.weft.lab.fabric.LeafSpineGenerator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.test.context.DynamicPropertyRegistry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The scheduler on its own fabric (4 leaves x 8 spines x 4 NICs, 400G), its own PostgreSQL schema
 * and its own Kafka topics, so that the loop tests share nothing with the API tests running in the
 * same JVM: a stray snapshot or hotspot of theirs cannot move these flows, nor these theirs.
 */
final class LoopTestSupport {
    static final String SCHEDULER = "loop-sched-token-0123456789";
    static final String AGENT = "loop-agent-token-0123456789";
    static final String RUN = Long.toString(System.currentTimeMillis(), 36);
    static final String HOTSPOTS = "weft.hotspots.loop-" + RUN;
    static final String FABRIC_TOPIC = "weft.fabric.loop-" + RUN;
    static final Fabric FABRIC = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(4, 8, 4));
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private LoopTestSupport() {
    }

    static void register(DynamicPropertyRegistry r, long intervalMs) {
        properties(DevstackExtension.endpoints(), FABRIC, intervalMs).forEach((k, v) -> r.add(k, () -> v));
    }

    /** The scheduler's properties for a loop run on this devstack and fabric (topics created here). */
    static Map<String, String> properties(DevstackEndpoints e, Fabric fabric, long intervalMs) {
        createTopics(e.kafkaBootstrapServers());
        Path file;
        try {
            file = Files.createTempFile("weft-loop-fabric", ".json");
            Files.writeString(file, FabricJson.write(fabric));
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        List<String> nics = new ArrayList<>();
        fabric.nodesWithRole(Role.NIC).forEach(n -> nics.add(n.id()));
        Map<String, String> p = new java.util.LinkedHashMap<>();
        p.put("spring.datasource.url", e.jdbcUrl());
        p.put("spring.datasource.username", e.jdbcUser());
        p.put("spring.datasource.password", e.jdbcPassword());
        p.put("spring.datasource.hikari.schema", "scheduler_loop");
        p.put("spring.flyway.schemas", "scheduler_loop");
        p.put("spring.flyway.default-schema", "scheduler_loop");
        p.put("weft.scheduler.kafka.bootstrap-servers", e.kafkaBootstrapServers());
        p.put("weft.scheduler.kafka.fabric-topic", FABRIC_TOPIC);
        p.put("weft.scheduler.fabric.file", file.toString());
        p.put("weft.scheduler.auth.tokens", "lsched:scheduler=" + SCHEDULER + ";lagent:agent:"
                + String.join(",", nics) + "=" + AGENT);
        p.put("weft.reroute.hotspots-topic", HOTSPOTS);
        p.put("weft.reroute.group-id", "loop-test-" + RUN);
        p.put("weft.reroute.interval-ms", Long.toString(intervalMs));
        return p;
    }

    static List<String> nics() {
        List<String> out = new ArrayList<>();
        FABRIC.nodesWithRole(Role.NIC).forEach(n -> out.add(n.id()));
        return out;
    }

    private static void createTopics(String bootstrap) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic(HOTSPOTS, 1, (short) 1), new NewTopic(FABRIC_TOPIC, 1, (short) 1)))
                    .all().get();
        } catch (Exception ex) {
            if (!(ex.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                throw new IllegalStateException("creating the loop test topics: " + ex, ex);
            }
        }
    }

    static KafkaProducer<String, String> producer() {
        return producer(DevstackExtension.endpoints().kafkaBootstrapServers());
    }

    static KafkaProducer<String, String> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        p.put(ProducerConfig.ACKS_CONFIG, "1");
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    /** A hotspot event as the telemetry collector writes it; returns its eventId. */
    static String publish(KafkaProducer<String, String> producer, String kind, String linkId, String direction,
                          Instant sample, Instant detected) throws Exception {
        long sampleNs = sample.getEpochSecond() * 1_000_000_000L + sample.getNano();
        boolean hot = kind.startsWith("hotspot");
        HotspotEvent e = new HotspotEvent(UUID.randomUUID().toString(), HotspotEvent.Kind.fromJson(kind), linkId,
                direction, sampleNs, detected, hot ? 0.97 : Double.NaN, hot ? 0.01 : Double.NaN, Double.NaN,
                hot ? 0.9 : Double.NaN);
        producer.send(new ProducerRecord<>(HOTSPOTS, e.key(), e.toJson())).get();
        return e.eventId();
    }

    record Reply(int status, JsonNode body, long answeredNanos) {
    }

    static HttpRequest.Builder request(int port, String path, String token) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token);
    }

    static Reply send(HttpRequest req) {
        try {
            HttpResponse<String> r = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body().isEmpty() ? null : JSON.readTree(r.body()), System.nanoTime());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts an agent long-poll; the reply records when it was answered (client side). */
    static CompletableFuture<Reply> longPoll(int port, String nic, long since, int waitSeconds) {
        HttpRequest req = request(port, "/v1/agents/" + nic + "/paths?since=" + since + "&wait=" + waitSeconds, AGENT)
                .GET().build();
        return HTTP.sendAsync(req, HttpResponse.BodyHandlers.ofString()).thenApply(r -> {
            long at = System.nanoTime();
            return new Reply(r.statusCode(), r.body().isEmpty() ? null : JSON.readTree(r.body()), at);
        });
    }

    static long version(int port, String nic) {
        Reply r = send(request(port, "/v1/agents/" + nic + "/paths", AGENT).GET().build());
        return r.status() == 200 ? r.body().get("version").asLong() : 0;
    }

    static JsonNode createJob(int port, String name, List<String> endpoints, double demandGbps) {
        return createJob(port, name, endpoints, demandGbps, "srv6");
    }

    static JsonNode createJob(int port, String name, List<String> endpoints, double demandGbps, String encoding) {
        StringBuilder eps = new StringBuilder();
        for (String n : endpoints) {
            eps.append(eps.isEmpty() ? "" : ",").append('"').append(n).append('"');
        }
        Reply r = send(request(port, "/v1/jobs", SCHEDULER).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + name + "\",\"pattern\":\"ring\","
                        + "\"order\":\"given\",\"endpoints\":[" + eps + "],\"demandGbps\":" + demandGbps
                        + ",\"encoding\":\"" + encoding + "\"}")).build());
        if (r.status() != 201) {
            throw new AssertionError("job not created: " + r.status() + " " + r.body());
        }
        return r.body();
    }

    static JsonNode job(int port, String id) {
        return send(request(port, "/v1/jobs/" + id, SCHEDULER).GET().build()).body();
    }

    static void release(int port, String id) {
        send(request(port, "/v1/jobs/" + id, SCHEDULER).DELETE().build());
    }

    /** Link directions ("link>toNode") of a flow view, from its node list. */
    static List<String> arcs(JsonNode flow) {
        List<String> out = new ArrayList<>();
        JsonNode links = flow.get("links");
        JsonNode nodes = flow.get("nodes");
        for (int i = 0; i < links.size(); i++) {
            out.add(DirectionKey.text(links.get(i).asString(), nodes.get(i + 1).asString()));
        }
        return out;
    }

    /** Elephants per switch-to-switch link direction over the job's flows. */
    static Map<String, Integer> fabricArcLoad(JsonNode job) {
        Map<String, Integer> out = new HashMap<>();
        for (JsonNode f : job.get("flows")) {
            List<String> a = arcs(f);
            for (String k : a.subList(1, a.size() - 1)) {
                out.merge(k, 1, Integer::sum);
            }
        }
        return out;
    }

    /** Interleaved ring: leaf1-nic1, leaf2-nic1, .., leaf4-nic1, leaf1-nic2, ..: every flow crosses the spines. */
    static List<String> interleavedRing() {
        return interleavedRing(4, 4);
    }

    static List<String> interleavedRing(int leaves, int nicsPerLeaf) {
        List<String> out = new ArrayList<>();
        for (int h = 1; h <= nicsPerLeaf; h++) {
            for (int l = 1; l <= leaves; l++) {
                out.add("leaf" + l + "-nic" + h);
            }
        }
        return out;
    }
}
