package io.weft.scheduler.api;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.DevstackExtension;
import io.weft.devstack.junit.WeftDevstackTest;
import io.weft.scheduler.SchedulerApiApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole service on a random port, on the shared embedded Kafka + PostgreSQL, placing on the
 * contracts' 2-leaf/2-spine example (nic1, nic2 on leaf1; nic3, nic4 on leaf2; 400G links).
 * Every test class extending this shares one Spring context, so tests must not assume an empty
 * database: they create their own jobs and look only at those.
 */
@WeftDevstackTest
@SpringBootTest(classes = SchedulerApiApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class ApiTestSupport {
    static final String SCHEDULER = "sched-token-0123456789";
    static final String OPERATOR = "oper-token-0123456789";
    static final String AGENT_12 = "agent-token-nic1-nic2";
    static final String AGENT_3 = "agent-token-nic3-only";
    static final Path FABRIC = Path.of("../contracts/examples/leaf-spine-2x2.json").toAbsolutePath().normalize();

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void devstack(DynamicPropertyRegistry r) {
        DevstackEndpoints e = DevstackExtension.endpoints();
        r.add("spring.datasource.url", e::jdbcUrl);
        r.add("spring.datasource.username", e::jdbcUser);
        r.add("spring.datasource.password", e::jdbcPassword);
        r.add("weft.scheduler.kafka.bootstrap-servers", e::kafkaBootstrapServers);
        r.add("weft.scheduler.fabric.file", FABRIC::toString);
        int controllerPort = TestController.port(e);
        r.add("weft.scheduler.controller.url", () -> "http://127.0.0.1:" + controllerPort);
        r.add("weft.scheduler.controller.token", () -> TestController.TOKEN);
        r.add("weft.scheduler.auth.tokens", () -> "sched:scheduler=" + SCHEDULER + ";ops:operator=" + OPERATOR
                + ";a12:agent:nic1,nic2=" + AGENT_12 + ";a3:agent:nic3=" + AGENT_3);
        r.add("weft.scheduler.limits.max-body-bytes", () -> "65536");
        r.add("weft.scheduler.limits.max-flows-per-job", () -> "64");
        r.add("weft.scheduler.limits.long-poll-max-wait-seconds", () -> "20");
    }

    /** Status, headers and parsed body (null when empty) of one exchange. */
    record Reply(int status, HttpResponse<String> raw, JsonNode body) {
        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }

        String contentType() {
            return header("Content-Type");
        }
    }

    Reply get(String path, String token) {
        return send(builder(path, token).GET().build());
    }

    Reply delete(String path, String token) {
        return send(builder(path, token).DELETE().build());
    }

    Reply post(String path, String token, String body, String... headers) {
        HttpRequest.Builder b = builder(path, token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b.build());
    }

    HttpRequest.Builder builder(String path, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    static Reply send(HttpRequest req) {
        try {
            HttpResponse<String> r = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
            JsonNode body = r.body() == null || r.body().isBlank() || r.headers().firstValue("Content-Type")
                    .map(ct -> !ct.contains("json")).orElse(true) ? null : JSON.readTree(r.body());
            return new Reply(r.statusCode(), r, body);
        } catch (IOException e) {
            throw new AssertionError("request failed: " + req.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** A ring job over the given NICs; returns the created job. */
    JsonNode createRing(String name, double demandGbps, String... nics) {
        StringBuilder eps = new StringBuilder();
        for (String n : nics) {
            eps.append(eps.isEmpty() ? "" : ",").append('"').append(n).append('"');
        }
        Reply r = post("/v1/jobs", SCHEDULER, "{\"name\":\"" + name + "\",\"pattern\":\"ring\",\"endpoints\":[" + eps
                + "],\"demandGbps\":" + demandGbps + "}");
        if (r.status() != 201) {
            throw new AssertionError("job not created: " + r.status() + " " + r.raw().body());
        }
        return r.body();
    }
}
