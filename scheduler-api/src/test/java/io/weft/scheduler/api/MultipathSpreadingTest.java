package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.weft.contracts.EvPortList;
import io.weft.devstack.junit.WeftDevstackTest;
import io.weft.fabric.Fabric;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.scheduler.SchedulerApiApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Spreading through the REST API, on a fabric where one path per flow cannot reach the NIC bound:
 * a 2:1 leaf-spine (2 leaves, 2 spines, 4 NICs of 400G per leaf) with another job's 200G already
 * on the leaf1 → leaf2 uplinks. Three line-rate flows leave leaf1 for leaf2: one path each puts two
 * on one uplink (2.0); spread in eighths they reach the LP optimum (1200 + 200) / 800 = 1.75.
 * The service runs on its own fabric file, PostgreSQL schema and topics, sharing nothing with the
 * API tests on the 2x2 example.
 */
@WeftDevstackTest
@SpringBootTest(classes = SchedulerApiApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MultipathSpreadingTest {
    static final String SCHEDULER = "mp-sched-token-0123456789";
    static final String AGENT = "mp-agent-token-0123456789";
    static final Fabric FABRIC = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 2, 4));
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static final String THREE_LINE_RATE_FLOWS = "\"pattern\":\"explicit\",\"flows\":["
            + "{\"src\":\"leaf1-nic1\",\"dst\":\"leaf2-nic1\",\"demandGbps\":400},"
            + "{\"src\":\"leaf1-nic2\",\"dst\":\"leaf2-nic2\",\"demandGbps\":400},"
            + "{\"src\":\"leaf1-nic3\",\"dst\":\"leaf2-nic3\",\"demandGbps\":400}]";

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void props(DynamicPropertyRegistry r) throws IOException {
        OwnService.register(r, "mp", FABRIC,
                "mps:scheduler=" + SCHEDULER + ";mpa:agent:leaf1-nic1,leaf1-nic2=" + AGENT);
    }

    @Test
    void aMultipathJobGetsWeightedEntriesPerPeerAndBeatsOnePathPerFlow() {
        String background = post("{\"name\":\"background\",\"pattern\":\"explicit\",\"flows\":"
                + "[{\"src\":\"leaf1-nic4\",\"dst\":\"leaf2-nic4\",\"demandGbps\":200}]}");
        JsonNode job = postJob("{\"name\":\"spread\"," + THREE_LINE_RATE_FLOWS
                + ",\"multipath\":{\"maxPaths\":4,\"granularity\":8}}");
        String id = job.get("id").asString();

        JsonNode mp = job.get("multipath");
        assertThat(mp.has("fallback")).as(mp.toString()).isFalse();
        assertThat(mp.get("singlePathMaxLoad").asDouble()).isEqualTo(2.0);
        assertThat(mp.get("maxLoad").asDouble()).isCloseTo(1.75, within(1e-9));
        assertThat(mp.get("lowerBound").asDouble()).isCloseTo(1.75, within(1e-9));
        assertThat(mp.get("granularBound").asDouble()).as("eighths carry 1.75 exactly").isCloseTo(1.75, within(1e-9));
        assertThat(mp.get("maxPathsPerFlow").asInt()).isBetween(2, 4);
        assertThat(job.get("quality").get("maxLinkLoad").asDouble()).isCloseTo(1.75, within(1e-9));

        // Each flow's slices: weights in eighths summing to 1, demands summing to the flow's.
        Map<Integer, Double> weight = new HashMap<>();
        Map<String, Double> sliceWeight = new HashMap<>();
        for (JsonNode f : job.get("flows")) {
            double w = f.get("weight").asDouble();
            assertThat(w * 8).as(f.get("id").asString()).isCloseTo(Math.rint(w * 8), within(1e-12));
            assertThat(f.get("demandGbps").asDouble()).isCloseTo(400 * w, within(1e-9));
            weight.merge(f.get("index").asInt(), w, Double::sum);
            sliceWeight.put(f.get("id").asString(), w);
        }
        assertThat(weight).containsOnlyKeys(0, 1, 2);
        weight.values().forEach(w -> assertThat(w).isCloseTo(1.0, within(1e-12)));

        // The agents' profiles: per peer one weighted entry per path and format, each path its own
        // EV, and the EV port list the agent derives from the weights is the flow's eighths.
        int spreadPeers = 0;
        for (String nic : List.of("leaf1-nic1", "leaf1-nic2")) {
            for (JsonNode peer : get("/v1/agents/" + nic + "/paths", AGENT).get("peers")) {
                List<JsonNode> srv6 = new ArrayList<>();
                List<JsonNode> ev = new ArrayList<>();
                for (JsonNode e : peer.get("entries")) {
                    if (id.equals(e.path("jobId").asString(null))) {
                        (e.get("format").asString().equals("srv6") ? srv6 : ev).add(e);
                    }
                }
                if (srv6.isEmpty()) {
                    continue;
                }
                assertThat(ev).hasSameSizeAs(srv6);
                spreadPeers += srv6.size() > 1 ? 1 : 0;
                assertThat(srv6.stream().mapToInt(e -> e.get("weight").asInt()).sum()).isEqualTo(400_000);
                Set<String> values = new HashSet<>();
                long[] evWeights = new long[ev.size()];
                int[] eighths = new int[ev.size()];
                for (int i = 0; i < ev.size(); i++) {
                    JsonNode e = ev.get(i);
                    assertThat(values.add(e.get("value").asString())).as("one EV per path").isTrue();
                    evWeights[i] = e.get("weight").asLong();
                    String slice = e.get("id").asString().replace("#ev", "");
                    eighths[i] = (int) Math.round(sliceWeight.get(slice) * 8);
                }
                assertThat(EvPortList.slots(evWeights)).containsExactly(reduced(eighths));
            }
        }
        assertThat(spreadPeers).as("some flow of leaf1-nic1/nic2 is spread").isPositive();

        delete("/v1/jobs/" + id);

        // The same flows with qpSlices 1: the stack sends each flow on one path, so no spreading.
        JsonNode single = postJob("{\"name\":\"one-qp\"," + THREE_LINE_RATE_FLOWS
                + ",\"qpSlices\":1,\"multipath\":{\"maxPaths\":4,\"granularity\":8}}");
        assertThat(single.get("multipath").get("fallback").asString()).startsWith("qpSlices 1:");
        assertThat(single.get("multipath").get("maxPathsPerFlow").asInt()).isEqualTo(1);
        assertThat(single.get("multipath").get("maxLoad").asDouble()).isEqualTo(2.0);
        assertThat(single.get("flows")).hasSize(3);
        single.get("flows").forEach(f -> assertThat(f.has("weight")).isFalse());
        delete("/v1/jobs/" + single.get("id").asString());
        delete("/v1/jobs/" + background);
    }

    static int[] reduced(int[] units) {
        int g = 0;
        for (int u : units) {
            g = java.math.BigInteger.valueOf(g).gcd(java.math.BigInteger.valueOf(u)).intValue();
        }
        int[] out = units.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] /= g;
        }
        return out;
    }

    /** Creates a job and returns its id. */
    String post(String body) {
        return postJob(body).get("id").asString();
    }

    JsonNode postJob(String body) {
        return OwnService.postJob(path -> request(path, SCHEDULER), body);
    }

    JsonNode get(String path, String token) {
        HttpResponse<String> r = send(request(path, token).GET().build());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    void delete(String path) {
        assertThat(send(request(path, SCHEDULER).DELETE().build()).statusCode()).isEqualTo(200);
    }

    HttpRequest.Builder request(String path, String token) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token);
    }

    static HttpResponse<String> send(HttpRequest req) {
        try {
            return HTTP.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static void sleep() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
