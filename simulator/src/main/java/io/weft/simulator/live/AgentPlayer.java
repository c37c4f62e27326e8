package io.weft.simulator.live;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Plays the NIC agents: one long-poll per NIC on scheduler-api's agent API
 * ({@code GET /v1/agents/{nic}/paths?since=V&wait=S} with the agent bearer token), exactly as a
 * nic-agent without the stream does. Each answered profile is applied to the {@link LiveFabric}
 * and handed to {@code onProfile} with its arrival time; 304 polls again, 204 (no path yet) polls
 * with since=0, anything else retries after a capped backoff. Asynchronous: no thread per NIC.
 */
final class AgentPlayer implements AutoCloseable {
    static final int WAIT_S = 25;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "live-agent-retry");
        t.setDaemon(true);
        return t;
    });
    private final URI scheduler;
    private final String token;
    private final LiveFabric fabric;
    private final BiConsumer<String, List<LiveFabric.Change>> onProfile;
    private final Map<String, Long> versions = new ConcurrentHashMap<>();
    private volatile boolean closed;

    AgentPlayer(URI scheduler, String token, LiveFabric fabric, BiConsumer<String, List<LiveFabric.Change>> onProfile) {
        this.scheduler = scheduler;
        this.token = token;
        this.fabric = fabric;
        this.onProfile = onProfile;
    }

    /** Starts one long-poll loop per NIC (a NIC already followed is left alone). */
    void follow(List<String> nics) {
        for (String nic : nics) {
            if (versions.putIfAbsent(nic, 0L) == null) {
                poll(nic, 0);
            }
        }
    }

    long version(String nic) {
        return versions.getOrDefault(nic, 0L);
    }

    private void poll(String nic, int failures) {
        if (closed) {
            return;
        }
        long since = versions.get(nic);
        HttpRequest req = HttpRequest.newBuilder(scheduler.resolve("/v1/agents/" + nic + "/paths?since=" + since
                        + "&wait=" + WAIT_S))
                .timeout(Duration.ofSeconds(WAIT_S + 10))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json")
                .GET().build();
        http.sendAsync(req, HttpResponse.BodyHandlers.ofString()).whenComplete((resp, err) -> {
            if (closed) {
                return;
            }
            if (err != null) {
                retry(nic, failures + 1, "poll failed: " + err);
                return;
            }
            int s = resp.statusCode();
            try {
                if (s == 200) {
                    JsonNode profile = JSON.readTree(resp.body());
                    List<ProfileEntry> entries = ProfileEntry.parse(profile);
                    versions.put(nic, profile.path("version").asLong(since));
                    onProfile.accept(nic, fabric.applyProfile(nic, entries));
                    poll(nic, 0);
                } else if (s == 304 || s == 204) {
                    poll(nic, 0);
                } else {
                    retry(nic, failures + 1, "HTTP " + s + ": " + abbreviate(resp.body()));
                }
            } catch (Exception e) {
                retry(nic, failures + 1, e.toString());
            }
        });
    }

    private void retry(String nic, int failures, String why) {
        if (failures == 1 || failures % 20 == 0) {
            System.err.println("live: agent " + nic + ": " + why + " (retrying)");
        }
        long ms = Math.min(5_000, 200L << Math.min(failures, 5));
        retries.schedule(() -> poll(nic, failures), ms, TimeUnit.MILLISECONDS);
    }

    private static String abbreviate(String s) {
        return s == null ? "" : s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    @Override
    public void close() {
        closed = true;
        retries.shutdownNow();
    }
}
