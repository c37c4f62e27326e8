package io.weft.telemetry.history;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A minimal server-sent-events reader for tests: each event with the time it arrived. */
final class SseClient implements AutoCloseable {
    record Event(String name, String id, String data, long arrivedNs) {
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final Thread reader;
    private volatile Stream<String> lines;

    /** @param token a bearer token (the collector's reads need one unless they are open), or null */
    SseClient(HttpClient http, String url, String lastEventId, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).header("Accept", "text/event-stream").GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (lastEventId != null) {
            b.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<Stream<String>> r = http.send(b.build(), HttpResponse.BodyHandlers.ofLines());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(url + ": HTTP " + r.statusCode());
        }
        lines = r.body();
        reader = new Thread(this::read, "test-sse-reader");
        reader.setDaemon(true);
        reader.start();
    }

    private void read() {
        String name = "message";
        String id = null;
        StringBuilder data = new StringBuilder();
        try {
            for (String line : (Iterable<String>) lines::iterator) {
                if (line.isEmpty()) {
                    if (data.length() > 0) {
                        events.add(new Event(name, id, data.toString(), System.nanoTime()));
                    }
                    name = "message";
                    id = null;
                    data.setLength(0);
                    continue;
                }
                if (line.startsWith(":")) {
                    continue;
                }
                int colon = line.indexOf(':');
                String field = colon < 0 ? line : line.substring(0, colon);
                String value = colon < 0 ? "" : line.substring(colon + 1);
                if (value.startsWith(" ")) {
                    value = value.substring(1);
                }
                switch (field) {
                    case "event" -> name = value;
                    case "id" -> id = value;
                    case "data" -> data.append(data.length() > 0 ? "\n" : "").append(value);
                    default -> { }
                }
            }
        } catch (RuntimeException e) {
            // closed
        }
    }

    /** The next event, waiting up to {@code timeout}; fails when none came. */
    Event next(Duration timeout) throws InterruptedException {
        Event e = events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (e == null) {
            throw new AssertionError("no server-sent event within " + timeout);
        }
        return e;
    }

    @Override
    public void close() {
        Stream<String> l = lines;
        if (l != null) {
            l.close();
        }
        reader.interrupt();
    }
}
