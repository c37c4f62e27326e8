package io.weft.scheduler.recovery;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Plain HTTP calls to a service address, as its clients make them (the address survives a restart).
 * Given several replicas' ports it behaves like a client behind a load balancer that drops a dead
 * backend: a call that cannot connect moves it to the next replica (and fails; the caller retries).
 */
final class Api {
    static final JsonMapper JSON = JsonMapper.builder().build();

    private final String[] bases;
    private volatile int current;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    Api(int... ports) {
        this.bases = new String[ports.length];
        for (int i = 0; i < ports.length; i++) {
            bases[i] = "http://127.0.0.1:" + ports[i];
        }
    }

    /** The same replicas, starting at the {@code first}-th. */
    Api startingAt(int first) {
        int[] ports = new int[bases.length];
        for (int i = 0; i < bases.length; i++) {
            ports[i] = Integer.parseInt(bases[(first + i) % bases.length].substring(bases[0].lastIndexOf(':') + 1));
        }
        return new Api(ports);
    }

    /** The port calls go to now. */
    int port() {
        String b = bases[current];
        return Integer.parseInt(b.substring(b.lastIndexOf(':') + 1));
    }

    /** Moves later calls to the next replica. */
    void next() {
        current = (current + 1) % bases.length;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        int at = current;
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            if (bases.length > 1 && current == at) {
                current = (at + 1) % bases.length;
            }
            throw e;
        }
    }

    HttpResponse<String> get(String path, String token, Duration timeout) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(bases[current] + path)).timeout(timeout)
                .header("Authorization", "Bearer " + token).GET());
    }

    HttpResponse<String> postJob(String token, String idempotencyKey, String body)
            throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(bases[current] + "/v1/jobs")).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** POST without a body (drains). */
    HttpResponse<String> post(String path, String token) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(bases[current] + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.noBody()));
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
        String body = http.send(HttpRequest.newBuilder(URI.create(bases[current] + "/actuator/prometheus"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
        var m = java.util.regex.Pattern.compile("(?m)^weft_longpoll_waiters\\{[^}]*} ([0-9.E]+)").matcher(body);
        if (!m.find()) {
            throw new AssertionError("no weft_longpoll_waiters gauge in /actuator/prometheus");
        }
        return (int) Double.parseDouble(m.group(1));
    }
}
