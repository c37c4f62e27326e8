package io.weft.scheduler.recovery;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import tools.jackson.databind.JsonNode;

/**
 * A job scheduler submitting a stream of jobs from several threads, each job with its own
 * Idempotency-Key and a unique name. Records what it sent and what the service acknowledged
 * (201) before it went away; anything else is unacknowledged and may or may not be stored.
 */
final class JobStream {
    /** Two-NIC rings over the 2x2 fabric's NICs: every NIC's version moves, each at its own pace. */
    private static final String[][] PAIRS = {{"nic1", "nic3"}, {"nic2", "nic4"}, {"nic1", "nic2"},
        {"nic3", "nic4"}, {"nic1", "nic4"}, {"nic2", "nic3"}};

    private final Api api;
    private final String token;
    private final List<Thread> threads = new ArrayList<>();
    /** Idempotency-Key -> body, for every request sent (or about to be). */
    private final Map<String, String> sent = new ConcurrentHashMap<>();
    /** Idempotency-Key -> job id, for every 201 received. */
    private final Map<String, String> acked = new ConcurrentHashMap<>();
    /** Highest per-NIC version any 201 showed (a flow's version is its source NIC's). */
    private final Map<String, Long> versionsSeen = new ConcurrentHashMap<>();
    private final List<String> unexpected = new CopyOnWriteArrayList<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean stop;

    JobStream(Api api, String token) {
        this.api = api;
        this.token = token;
    }

    /** The body of the n-th stream job: a ring over one NIC pair, 1 to 4 Gbit/s per flow, 1 to 3 slices. */
    static String body(String name, int n) {
        String[] pair = PAIRS[n % PAIRS.length];
        return String.format(Locale.ROOT, "{\"name\":\"%s\",\"pattern\":\"ring\",\"endpoints\":[\"%s\",\"%s\"],"
                + "\"demandGbps\":%d,\"qpSlices\":%d}", name, pair[0], pair[1], 1 + n % 4, 1 + n % 3);
    }

    void start(int submitters) {
        for (int t = 0; t < submitters; t++) {
            int thread = t;
            Thread th = new Thread(() -> submitLoop(thread), "submitter-" + t);
            th.setDaemon(true);
            threads.add(th);
            th.start();
        }
    }

    private void submitLoop(int thread) {
        for (int i = 0; !stop; i++) {
            String key = "stream-" + thread + "-" + i;
            String body = body("s" + thread + "-" + i, thread * 7 + i);
            sent.put(key, body);
            inFlight.incrementAndGet();
            try {
                HttpResponse<String> r = api.postJob(token, key, body);
                if (r.statusCode() == 201) {
                    JsonNode job = Api.JSON.readTree(r.body());
                    job.get("flows").forEach(f -> versionsSeen.merge(f.get("src").asString(), f.get("version").asLong(),
                            Math::max));
                    acked.put(key, job.get("id").asString());
                } else {
                    unexpected.add(key + ": " + r.statusCode() + " " + r.body());
                }
            } catch (IOException e) {
                // The service went away with this request in flight: not acknowledged.
                return;
            } catch (InterruptedException e) {
                return;
            } finally {
                inFlight.decrementAndGet();
            }
        }
    }

    /** Stops submitting and waits for every thread (each ends on its first failed request). */
    void stopAndJoin() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            t.join(60_000);
            if (t.isAlive()) {
                throw new AssertionError(t.getName() + " still running 60 s after the stream was stopped");
            }
        }
    }

    int inFlight() {
        return inFlight.get();
    }

    int ackedCount() {
        return acked.size();
    }

    Map<String, String> sent() {
        return Map.copyOf(sent);
    }

    Map<String, String> acked() {
        return Map.copyOf(acked);
    }

    Map<String, Long> versionsSeen() {
        return Map.copyOf(versionsSeen);
    }

    /** Answers other than 201 while the service was up (none expected: every job fits). */
    List<String> unexpected() {
        return List.copyOf(unexpected);
    }
}
