package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The streaming variant of the agent contract: GET /v1/agents/{nic}/paths/stream. */
class PathStreamTest extends ApiTestSupport {

    /** One parsed server-sent event: its name, id, data and its {@code :published-us=} comment (null if none). */
    record Event(String name, String id, String data, String publishedUs) {
    }

    /** Opens a stream and feeds its events to a queue from a reader thread. */
    private CompletableFuture<HttpResponse<Stream<String>>> open(String path, String token, BlockingQueue<Event> events,
                                                                 String... headers) {
        java.net.http.HttpRequest.Builder b = builder(path, token).header("Accept", "text/event-stream");
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        CompletableFuture<HttpResponse<Stream<String>>> f = HTTP.sendAsync(b.GET().build(),
                HttpResponse.BodyHandlers.ofLines());
        f.thenAccept(r -> {
            if (r.statusCode() != 200) {
                return;
            }
            Thread t = new Thread(() -> {
                Map<String, String> fields = new HashMap<>();
                r.body().forEach(line -> {
                    if (line.isEmpty()) {
                        if (fields.containsKey("data")) {
                            events.add(new Event(fields.get("event"), fields.get("id"), fields.get("data"),
                                    fields.get("published-us")));
                        }
                        fields.clear();
                    } else if (line.startsWith(":published-us=")) {
                        fields.put("published-us", line.substring(":published-us=".length()));
                    } else if (!line.startsWith(":")) {
                        int colon = line.indexOf(':');
                        fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
                    }
                });
            }, "sse-reader");
            t.setDaemon(true);
            t.start();
        });
        return f;
    }

    @Test
    void everyNewVersionIsOneEventOnTheSameResponse() throws Exception {
        long v0 = get("/v1/agents/nic2/paths", AGENT_12).body().get("version").asLong();
        BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        List<String> jobs = new ArrayList<>();
        CompletableFuture<HttpResponse<Stream<String>>> stream = open("/v1/agents/nic2/paths/stream?since=" + v0,
                AGENT_12, events);
        try {
            HttpResponse<Stream<String>> r = stream.get(10, TimeUnit.SECONDS);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
            assertThat(events.poll(300, TimeUnit.MILLISECONDS)).as("nothing newer than since yet").isNull();

            long before = java.time.Instant.now().toEpochMilli() * 1000;
            jobs.add(createRing("stream-1", 40, "nic2", "nic3").get("id").asString());
            long after = java.time.Instant.now().toEpochMilli() * 1000 + 1000;
            Event first = events.poll(20, TimeUnit.SECONDS);
            assertThat(first).as("an event after the first job").isNotNull();
            assertThat(first.name()).isEqualTo("profile");
            JsonNode p1 = JSON.readTree(first.data());
            assertThat(p1.get("nic").asString()).isEqualTo("nic2");
            assertThat(Long.parseLong(first.id())).isEqualTo(p1.get("version").asLong()).isGreaterThan(v0);
            assertThat(p1.get("peers")).isNotEmpty();
            assertThat(first.publishedUs()).as("the event says when its version was published").isNotNull();
            assertThat(Long.parseLong(first.publishedUs())).isBetween(before, after);

            jobs.add(createRing("stream-2", 40, "nic2", "nic4").get("id").asString());
            Event second = events.poll(20, TimeUnit.SECONDS);
            assertThat(second).as("a second event on the same response").isNotNull();
            assertThat(Long.parseLong(second.id())).isGreaterThan(Long.parseLong(first.id()));
            assertThat(JSON.readTree(second.data()).get("version").asLong()).isEqualTo(Long.parseLong(second.id()));
        } finally {
            stream.thenAccept(r -> r.body().close());
            // The context and database are shared with the other API tests: leave no reservation.
            jobs.forEach(id -> delete("/v1/jobs/" + id, SCHEDULER));
        }
    }

    @Test
    void withoutSinceTheCurrentProfileComesAtOnce() throws Exception {
        BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> stream = open("/v1/agents/nic1/paths/stream", AGENT_12, events);
        try {
            Event e = events.poll(10, TimeUnit.SECONDS);
            assertThat(e).isNotNull();
            assertThat(e.name()).isEqualTo("profile");
            assertThat(JSON.readTree(e.data()).get("nic").asString()).isEqualTo("nic1");
        } finally {
            stream.thenAccept(r -> r.body().close());
        }
    }

    @Test
    void aReconnectingEventSourceResumesFromLastEventId() throws Exception {
        long v = get("/v1/agents/nic1/paths", AGENT_12).body().get("version").asLong();
        BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> stream = open("/v1/agents/nic1/paths/stream", AGENT_12, events,
                "Last-Event-ID", Long.toString(v));
        try {
            assertThat(stream.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            assertThat(events.poll(500, TimeUnit.MILLISECONDS)).as("it has version " + v + ": nothing newer yet")
                    .isNull();
        } finally {
            stream.thenAccept(r -> r.body().close());
        }
        Reply bad = send(builder("/v1/agents/nic1/paths/stream", AGENT_12).header("Last-Event-ID", "x").GET().build());
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body().get("field").asString()).isEqualTo("Last-Event-ID");
        // The largest version the contract allows is taken (by the servlet chain; nothing is newer).
        CompletableFuture<HttpResponse<Stream<String>>> max = open("/v1/agents/nic1/paths/stream", AGENT_12, events,
                "Last-Event-ID", Long.toString(Long.MAX_VALUE));
        try {
            assertThat(max.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        } finally {
            max.thenAccept(r -> r.body().close());
        }
    }

    @Test
    void theStreamIsGuardedLikeTheLongPoll() throws Exception {
        assertThat(HTTP.send(builder("/v1/agents/nic2/paths/stream", AGENT_3).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).as("another NIC's token").isEqualTo(403);
        assertThat(HTTP.send(builder("/v1/agents/nic2/paths/stream", null).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).as("no token").isEqualTo(401);
        Reply unknown = get("/v1/agents/nic99/paths/stream", OPERATOR);
        assertThat(unknown.status()).isEqualTo(404);
    }

    /**
     * The wire, read strictly: the stream's events are written to the connection by the service as
     * whole chunks of a chunked HTTP/1.1 body, each one event; a request that asks to close the
     * connection (so its body cannot be chunked) still gets a working stream.
     */
    @Test
    void eachEventIsOneWholeChunkOfAChunkedBody() throws Exception {
        for (String connection : new String[] {null, "close"}) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoTimeout(20_000);
                s.getOutputStream().write(("GET /v1/agents/nic1/paths/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Authorization: Bearer " + AGENT_12 + "\r\nAccept: text/event-stream\r\n"
                        + (connection == null ? "" : "Connection: " + connection + "\r\n") + "\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                InputStream in = s.getInputStream();
                String head = line(in);
                assertThat(head).as(String.valueOf(connection)).startsWith("HTTP/1.1 200");
                Map<String, String> headers = new HashMap<>();
                for (String h = line(in); !h.isEmpty(); h = line(in)) {
                    int colon = h.indexOf(':');
                    headers.put(h.substring(0, colon).toLowerCase(java.util.Locale.ROOT),
                            h.substring(colon + 1).strip());
                }
                assertThat(headers.get("content-type")).startsWith("text/event-stream");
                String event;
                if (connection == null) {
                    assertThat(headers.get("transfer-encoding")).isEqualTo("chunked");
                    int size = Integer.parseInt(line(in), 16);
                    event = new String(in.readNBytes(size), StandardCharsets.UTF_8);
                    assertThat(line(in)).as("the chunk ends right after the event").isEmpty();
                } else {
                    // Not chunked (the body ends with the connection): the event's lines, up to its blank line.
                    StringBuilder b = new StringBuilder();
                    for (String l = line(in); !l.isEmpty() || b.indexOf("data:") < 0; l = line(in)) {
                        b.append(l).append('\n');
                    }
                    event = b + "\n";
                }
                assertThat(event).as("one whole event").contains("event:profile\n").endsWith("\n\n");
                String data = event.substring(event.indexOf("data:") + 5).strip();
                assertThat(JSON.readTree(data).get("nic").asString()).isEqualTo("nic1");
            }
        }
    }

    /** One CRLF- (or LF-) ended line, without its end. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("the stream ended mid-line: " + b);
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.UTF_8);
    }
}
