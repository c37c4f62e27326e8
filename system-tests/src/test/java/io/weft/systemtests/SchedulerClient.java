package io.weft.systemtests;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.contracts.DirectionKey;
import io.weft.harness.Http;

/** What a job scheduler and a NIC agent ask the scheduler API, and how the test reads its answers. */
final class SchedulerClient {
    private final int port;

    SchedulerClient(int port) {
        this.port = port;
    }

    /** A ring job over {@code endpoints} in the given order, SRv6 carriers. */
    JsonNode createRing(String name, List<String> endpoints, double demandGbps) {
        StringBuilder eps = new StringBuilder();
        for (String n : endpoints) {
            eps.append(eps.isEmpty() ? "" : ",").append('"').append(n).append('"');
        }
        Http.Reply r = Http.post(port, "/v1/jobs", WeftSystem.SCHEDULER_TOKEN, "{\"name\":\"" + name
                + "\",\"pattern\":\"ring\",\"order\":\"given\",\"endpoints\":[" + eps + "],\"demandGbps\":"
                + demandGbps + ",\"encoding\":\"srv6\"}");
        if (r.status() != 201) {
            throw new AssertionError("job not created: " + r.status() + " " + r.text());
        }
        return r.body();
    }

    JsonNode job(String id) {
        return ok(Http.get(port, "/v1/jobs/" + id, WeftSystem.SCHEDULER_TOKEN), "GET /v1/jobs/" + id);
    }

    JsonNode history(String id) {
        return ok(Http.get(port, "/v1/jobs/" + id + "/history", WeftSystem.SCHEDULER_TOKEN),
                "GET /v1/jobs/" + id + "/history");
    }

    JsonNode fabricState() {
        return ok(Http.get(port, "/v1/fabric", WeftSystem.SCHEDULER_TOKEN), "GET /v1/fabric");
    }

    void release(String id) {
        Http.delete(port, "/v1/jobs/" + id, WeftSystem.SCHEDULER_TOKEN);
    }

    /** The NIC's current profile version, as an agent reads it without waiting. */
    long version(String nic) {
        return ok(Http.get(port, "/v1/agents/" + nic + "/paths", WeftSystem.AGENT_TOKEN), "profile of " + nic)
                .get("version").asLong();
    }

    /** An agent's long-poll, parked until the NIC's version passes {@code since} (or {@code waitSeconds}). */
    CompletableFuture<Http.Reply> longPoll(String nic, long since, int waitSeconds) {
        return Http.sendAsync(Http.request(port, "/v1/agents/" + nic + "/paths?since=" + since + "&wait="
                + waitSeconds, WeftSystem.AGENT_TOKEN).GET().build());
    }

    /** Agents' long-polls parked right now (the service's own gauge). */
    int waitingAgents() {
        Http.Reply r = Http.get(port, "/actuator/prometheus", null);
        for (String line : r.text().split("\n")) {
            if (line.startsWith("weft_longpoll_waiters")) {
                return (int) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    private static JsonNode ok(Http.Reply r, String what) {
        if (r.status() != 200) {
            throw new AssertionError(what + ": " + r.status() + " " + r.text());
        }
        return r.body();
    }

    // --- reading job views

    static JsonNode flow(JsonNode job, String id) {
        for (JsonNode f : job.get("flows")) {
            if (f.get("id").asText().equals(id)) {
                return f;
            }
        }
        throw new AssertionError("no flow " + id + " in " + job);
    }

    /** Link directions ("link>toNode") of a flow view, from its node list. */
    static List<String> arcs(JsonNode flow) {
        List<String> out = new ArrayList<>();
        JsonNode links = flow.get("links");
        JsonNode nodes = flow.get("nodes");
        for (int i = 0; i < links.size(); i++) {
            out.add(DirectionKey.text(links.get(i).asText(), nodes.get(i + 1).asText()));
        }
        return out;
    }

    /** Elephants per switch-to-switch link direction over the job's flows. */
    static Map<String, Integer> fabricArcLoad(JsonNode job) {
        Map<String, Integer> out = new TreeMap<>();
        for (JsonNode f : job.get("flows")) {
            List<String> a = arcs(f);
            for (String k : a.subList(1, a.size() - 1)) {
                out.merge(k, 1, Integer::sum);
            }
        }
        return out;
    }

    /** Ids of the flows whose path differs between two views of one job. */
    static List<String> movedFlows(JsonNode before, JsonNode after) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : before.get("flows")) {
            String id = f.get("id").asText();
            if (!arcs(f).equals(arcs(flow(after, id)))) {
                out.add(id);
            }
        }
        return out;
    }

    /** Ids of the flows crossing {@code linkId} in either direction. */
    static List<String> flowsOnLink(JsonNode job, String linkId) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : job.get("flows")) {
            for (JsonNode l : f.get("links")) {
                if (l.asText().equals(linkId)) {
                    out.add(f.get("id").asText());
                }
            }
        }
        return out;
    }

    /** The switch-to-switch link (both directions counted) that carries the most of the job's flows. */
    static String busiestLink(JsonNode job) {
        Map<String, Integer> load = new TreeMap<>();
        fabricArcLoad(job).forEach((k, v) -> load.merge(k.substring(0, k.indexOf('>')), v, Integer::sum));
        return load.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }
}
