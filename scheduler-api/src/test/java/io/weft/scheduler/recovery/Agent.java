package io.weft.scheduler.recovery;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import tools.jackson.databind.JsonNode;

/**
 * A NIC agent as the API expects one to behave: it long-polls its NIC's EV profile with
 * {@code since} = the last version it received, and when the service is gone it keeps retrying
 * with that same version, so it resumes on a restarted service exactly where it stopped.
 *
 * <p>Records every profile it receives and every answer that breaks the contract; the test
 * asserts on those records.
 */
final class Agent implements Runnable {
    static final int WAIT_SECONDS = 20;

    /** One 200 answer: the poll's since (-1 = none) and the profile's version and flow slice ids. */
    record Profile(long since, long version, Set<String> flowIds) {
    }

    private final String nic;
    private final String token;
    private final Api api;
    private final List<Profile> received = new CopyOnWriteArrayList<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final AtomicInteger connectionErrors = new AtomicInteger();
    /** 5xx answers (by status) of a service that had not yet answered this agent since it came up. */
    private final Map<Integer, AtomicInteger> startupErrors = new ConcurrentHashMap<>();
    private volatile Profile last;
    private volatile boolean polling;
    private volatile boolean stop;

    Agent(String nic, String token, Api api) {
        this.nic = nic;
        this.token = token;
        this.api = api;
    }

    @Override
    public void run() {
        long since = -1;
        // Whether the service answered a poll normally since the connection last failed: once it
        // has, it is loaded and serving, and a 5xx breaks the contract.
        boolean up = false;
        while (!stop) {
            String query = since < 0 ? "" : "?since=" + since + "&wait=" + WAIT_SECONDS;
            try {
                polling = since >= 0;
                HttpResponse<String> r = api.get("/v1/agents/" + nic + "/paths" + query, token,
                        Duration.ofSeconds(WAIT_SECONDS + 15));
                polling = false;
                switch (r.statusCode()) {
                    case 200 -> {
                        since = accept(since, Api.JSON.readTree(r.body()));
                        up = true;
                    }
                    case 304, 204 -> {
                        checkNothingNewer(since, r);
                        up = true;
                    }
                    // A starting service without its fabric yet: 503 says poll again (counted apart,
                    // see startupErrors()); a contract breach once it is up.
                    case 503 -> {
                        if (up) {
                            violations.add(nic + ": since=" + since + " answered " + r.statusCode()
                                    + " after serving: " + r.body());
                        } else {
                            startupErrors.computeIfAbsent(r.statusCode(), k -> new AtomicInteger()).incrementAndGet();
                        }
                        pause();
                    }
                    default -> {
                        violations.add(nic + ": since=" + since + " answered " + r.statusCode() + ": " + r.body());
                        pause();
                    }
                }
            } catch (IOException e) {
                polling = false;
                up = false;
                connectionErrors.incrementAndGet();
                pause();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                violations.add(nic + ": unreadable answer: " + e);
                pause();
            }
        }
    }

    private long accept(long since, JsonNode profile) {
        long version = profile.get("version").asLong();
        Set<String> ids = new TreeSet<>();
        profile.get("peers").forEach(p -> p.get("entries").forEach(e -> {
            String id = e.get("id").asString();
            ids.add(id.substring(0, id.lastIndexOf('#')));
        }));
        Profile p = new Profile(since, version, ids);
        // The contract: a since=v poll never returns version <= v (a duplicate), and what one agent
        // sees only grows, also across restarts.
        if (since >= 0 && version <= since) {
            violations.add(nic + ": since=" + since + " returned version " + version);
        }
        Profile before = last;
        if (before != null && version <= before.version()) {
            violations.add(nic + ": version " + version + " after " + before.version());
        }
        received.add(p);
        last = p;
        return version;
    }

    /**
     * A 304/204 says nothing newer than {@code since} arrived while the poll waited. Its version
     * header may be newer (a change that landed as the wait ended: the next poll gets it at once),
     * never older: that would mean the version went back.
     */
    private void checkNothingNewer(long since, HttpResponse<String> r) {
        long v = r.headers().firstValue("Weft-Version").map(Long::parseLong).orElse(-1L);
        if (since < 0 || v < since) {
            violations.add(nic + ": since=" + since + " answered " + r.statusCode() + " with Weft-Version " + v);
        }
    }

    private void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop = true;
        }
    }

    void stop() {
        stop = true;
    }

    String nic() {
        return nic;
    }

    /** The latest profile received, or null. */
    Profile last() {
        return last;
    }

    /** Version of the latest profile received; -1 before the first. */
    long lastVersion() {
        Profile p = last;
        return p == null ? -1 : p.version();
    }

    /** True while a poll with a since is out (it may be parked on the service). */
    boolean polling() {
        return polling;
    }

    List<Profile> received() {
        return List.copyOf(received);
    }

    List<String> violations() {
        return List.copyOf(violations);
    }

    int connectionErrors() {
        return connectionErrors.get();
    }

    /** 5xx answers by status while the service was starting (before it served this agent). */
    Map<Integer, Integer> startupErrors() {
        Map<Integer, Integer> out = new TreeMap<>();
        startupErrors.forEach((status, n) -> out.put(status, n.get()));
        return out;
    }
}
