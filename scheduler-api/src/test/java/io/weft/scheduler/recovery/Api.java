package io.weft.scheduler.recovery;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Plain HTTP calls to one service address, as its clients make them (the address survives a restart). */
final class Api {
    static final JsonMapper JSON = JsonMapper.builder().build();

    private final String base;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    Api(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    HttpResponse<String> get(String path, String token, Duration timeout) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
                .header("Authorization", "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> postJob(String token, String idempotencyKey, String body)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/v1/jobs")).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** GET that must answer 200; the parsed body. */
    JsonNode read(String path, String token) throws IOException, InterruptedException {
        HttpResponse<String> r = get(path, token, Duration.ofSeconds(30));
        if (r.statusCode() != 200) {
            throw new AssertionError("GET " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    /** The service's {@code weft_longpoll_waiters} gauge (agents parked right now). */
    int waiters() throws IOException, InterruptedException {
        String body = http.send(HttpRequest.newBuilder(URI.create(base + "/actuator/prometheus"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
        var m = java.util.regex.Pattern.compile("(?m)^weft_longpoll_waiters\\{[^}]*} ([0-9.E]+)").matcher(body);
        if (!m.find()) {
            throw new AssertionError("no weft_longpoll_waiters gauge in /actuator/prometheus");
        }
        return (int) Double.parseDouble(m.group(1));
    }
}
