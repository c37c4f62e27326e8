package io.weft.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Plain java.net.http calls to the services on loopback, JSON bodies read as trees. */
public final class Http {
    public static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** A reply; {@code body} is null when empty or not JSON, {@code at} is when it arrived (wall clock). */
    public record Reply(int status, JsonNode body, String text, Instant at) {
    }

    private Http() {
    }

    public static HttpRequest.Builder request(int port, String path, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(90));
        return token == null ? b : b.header("Authorization", "Bearer " + token);
    }

    public static Reply get(int port, String path, String token) {
        return send(request(port, path, token).GET().build());
    }

    public static Reply post(int port, String path, String token, String json) {
        return send(request(port, path, token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    public static Reply delete(int port, String path, String token) {
        return send(request(port, path, token).DELETE().build());
    }

    /** Sends; a connection failure is a reply with status -1 (readiness waits retry on it). */
    public static Reply send(HttpRequest req) {
        try {
            HttpResponse<String> r = CLIENT.send(req, HttpResponse.BodyHandlers.ofString());
            return reply(r);
        } catch (IOException e) {
            return new Reply(-1, null, e.toString(), Instant.now());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + req.uri(), e);
        }
    }

    public static CompletableFuture<Reply> sendAsync(HttpRequest req) {
        return CLIENT.sendAsync(req, HttpResponse.BodyHandlers.ofString()).thenApply(Http::reply);
    }

    private static Reply reply(HttpResponse<String> r) {
        Instant at = Instant.now();
        JsonNode body = null;
        try {
            body = r.body().isEmpty() ? null : JSON.readTree(r.body());
        } catch (IOException notJson) {
            // Kept as text: Prometheus output, error pages.
        }
        return new Reply(r.statusCode(), body, r.body(), at);
    }
}
