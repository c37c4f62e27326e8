package io.weft.scheduler.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.WeftDevstackTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Restart recovery with a real crash: the service runs as a child JVM, is killed with
 * SIGKILL while job submissions and agent long-polls are in flight, and is started again on the
 * same database and port. Then:
 * <ul>
 *   <li>every acknowledged (201) job exists exactly once; retrying an unacknowledged submission
 *       with its Idempotency-Key gives the stored job (200) or a new one (201), never a second;</li>
 *   <li>the engine's reservations ({@code GET /v1/fabric}) equal the stored paths of the stored
 *       jobs: no flow lost or counted twice;</li>
 *   <li>per-NIC versions are at least those agents saw before the kill, and every later change
 *       gets a strictly higher one;</li>
 *   <li>agents that resume polling with the last version they saw get exactly what they missed:
 *       never a version at or below their {@code since}, and their last profile lists exactly the
 *       stored flows of their NIC; a job placed after the restart wakes every parked agent.</li>
 * </ul>
 * The service's output is in {@code target/kill-restart-service-{1,2}.log}; a failure prints the
 * tails.
 */
@WeftDevstackTest
class KillRestartRecoveryTest {
    static final String SCHEDULER = "kill-sched-token-0123456789";
    static final String OPERATOR = "kill-oper-token-0123456789";
    static final String AGENT = "kill-agent-token-0123456789";
    static final List<String> NICS = List.of("nic1", "nic2", "nic3", "nic4");
    static final String TOKENS = "sched:scheduler=" + SCHEDULER + ";ops:operator=" + OPERATOR
            + ";agents:agent:" + String.join(",", NICS) + "=" + AGENT;
    static final Path FABRIC = Path.of("../contracts/examples/leaf-spine-2x2.json").toAbsolutePath()
            .normalize();
    private static final int AGENTS_PER_NIC = 2;
    private static final int SUBMITTERS = 4;
    /** Acknowledged jobs to wait for before the kill. */
    private static final int ACKED_BEFORE_KILL = 40;
    /** Smaller than the job count, so that listing the jobs takes several pages. */
    private static final int PAGE_SIZE = 16;

    @RegisterExtension
    static final RecoveryChildren CHILDREN = new RecoveryChildren();
    private static final List<Agent> AGENTS = CHILDREN.agents;

    @Test
    void acknowledgedJobsReservationsAndVersionsSurviveSigkill(DevstackEndpoints e) throws Exception {
        CHILDREN.run(logs -> run(e, logs), "kill-restart-service-1.log", "kill-restart-service-2.log");
    }

    /** What the clients knew when the service died. */
    private record BeforeKill(Kill kill, Map<String, String> sent, Map<String, String> acked,
                              Map<Agent, Long> agentVersion, Map<Agent, Integer> agentProfiles,
                              Map<String, Long> maxVersionSeen) {
    }

    /** The moment of the SIGKILL: requests out, and whether a commit was still unacknowledged. */
    private record Kill(int posts, int polls, boolean afterUnacknowledgedCommit) {
    }

    /** Outcome of retrying the unacknowledged submissions. */
    private record Retries(int replayed, int placedNow) {
    }

    private void run(DevstackEndpoints e, Path[] logs) throws Exception {
        String schema = "kill_restart_" + System.nanoTime();
        int port = ServiceProcess.freePort();
        Api api = new Api(port);
        long t0 = System.nanoTime();

        ServiceProcess first = start(e, schema, port, logs[0], api);
        double firstStartS = (System.nanoTime() - t0) / 1e9;
        startAgents(api);
        BeforeKill before = submitAndKill(e, schema, api, first);

        // Restart on the same database and port; the agents resume by themselves.
        long t1 = System.nanoTime();
        start(e, schema, port, logs[1], api);
        double secondStartS = (System.nanoTime() - t1) / 1e9;

        checkVersionsDidNotGoBack(api, before.maxVersionSeen());
        Retries retries = checkJobsExactlyOnce(api, before.sent(), before.acked());
        Map<String, Set<String>> flowsBySrc = checkReservationsEqualStoredPaths(api);
        Map<String, Long> current = checkAgentsCaughtUp(api, before, flowsBySrc);
        checkNewJobWakesEveryAgent(api, current);
        for (Agent a : AGENTS) {
            assertThat(a.violations()).as("agent of " + a.nic()).isEmpty();
        }

        Map<Integer, Integer> startupErrors = new TreeMap<>();
        AGENTS.forEach(a -> a.startupErrors().forEach((status, n) -> startupErrors.merge(status, n, Integer::sum)));
        System.out.printf(Locale.ROOT, "kill -9 recovery: %d jobs sent, %d acknowledged before the kill, "
                        + "%d submissions and %d long-polls in flight at the kill (just after an unacknowledged "
                        + "commit: %s); after restart %d retries replayed a stored job, %d placed a lost one; "
                        + "agents' polls answered by the starting service, by status: %s; starts %.1f s and %.1f s, "
                        + "whole test %.1f s; load %s%n",
                before.sent().size(), before.acked().size(), before.kill().posts(), before.kill().polls(),
                before.kill().afterUnacknowledgedCommit(), retries.replayed(), retries.placedNow(), startupErrors,
                firstStartS, secondStartS, (System.nanoTime() - t0) / 1e9,
                Files.readString(Path.of("/proc/loadavg")).trim());
        AGENTS.forEach(Agent::stop);
    }

    private static void startAgents(Api api) throws Exception {
        for (String nic : NICS) {
            for (int k = 0; k < AGENTS_PER_NIC; k++) {
                Agent a = new Agent(nic, AGENT, api);
                AGENTS.add(a);
                Thread th = new Thread(a, "agent-" + nic + "-" + k);
                th.setDaemon(true);
                th.start();
            }
        }
        await("every agent's first profile", 30, () -> AGENTS.stream().allMatch(a -> a.lastVersion() >= 0));
    }

    /** Streams submissions, kills the service mid-stream and records what the clients knew. */
    private static BeforeKill submitAndKill(DevstackEndpoints e, String schema, Api api, ServiceProcess service)
            throws Exception {
        JobStream stream = new JobStream(api, SCHEDULER);
        stream.start(SUBMITTERS);
        await(ACKED_BEFORE_KILL + " acknowledged jobs and every agent woken", 60,
                () -> stream.ackedCount() >= ACKED_BEFORE_KILL
                        && AGENTS.stream().allMatch(a -> a.received().size() >= 2));
        Map<Agent, Integer> errorsAtKill = new HashMap<>();
        AGENTS.forEach(a -> errorsAtKill.put(a, a.connectionErrors()));
        Kill kill = killMidStream(e, schema, service, stream);
        assertThat(service.killHard()).as("exit status of a SIGKILLed JVM").isEqualTo(128 + 9);
        stream.stopAndJoin();
        // Every agent's poll has failed: from now on, until the restart, nothing can reach them.
        await("every agent to notice the service is gone", 10,
                () -> AGENTS.stream().allMatch(a -> a.connectionErrors() > errorsAtKill.get(a)));
        Map<Agent, Long> agentVersion = new HashMap<>();
        Map<Agent, Integer> agentProfiles = new HashMap<>();
        Map<String, Long> maxSeen = new TreeMap<>();
        for (Agent a : AGENTS) {
            agentVersion.put(a, a.lastVersion());
            agentProfiles.put(a, a.received().size());
            maxSeen.merge(a.nic(), a.lastVersion(), Math::max);
        }
        // The scheduler saw versions too: those of the flows in each 201.
        stream.versionsSeen().forEach((nic, v) -> maxSeen.merge(nic, v, Math::max));
        assertThat(stream.unexpected()).as("answers other than 201 before the kill").isEmpty();
        assertThat(stream.acked()).hasSizeGreaterThanOrEqualTo(ACKED_BEFORE_KILL);
        return new BeforeKill(kill, stream.sent(), stream.acked(), agentVersion, agentProfiles, maxSeen);
    }

    /**
     * Sends SIGKILL once a submission and a long-poll are in flight, as soon as the database holds
     * more jobs than the scheduler has seen acknowledged (a commit whose 201 is still on its way),
     * or after 10 s without catching that moment: a random kill almost never lands there.
     */
    private static Kill killMidStream(DevstackEndpoints e, String schema, ServiceProcess service, JobStream stream)
            throws Exception {
        try (Connection db = DriverManager.getConnection(e.jdbcUrl(), e.jdbcUser(), e.jdbcPassword());
             PreparedStatement count = db.prepareStatement("select count(*) from " + schema + ".jobs")) {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (true) {
                int posts = stream.inFlight();
                int polls = (int) AGENTS.stream().filter(Agent::polling).count();
                long stored;
                try (ResultSet rs = count.executeQuery()) {
                    rs.next();
                    stored = rs.getLong(1);
                }
                // Acknowledged jobs are a subset of stored ones: more stored than acknowledged after
                // the count was taken means one committed and its client has not heard yet.
                boolean unacknowledgedCommit = stored > stream.ackedCount();
                if (posts > 0 && polls > 0 && (unacknowledgedCommit || System.nanoTime() > deadline)) {
                    service.sigkill();
                    return new Kill(posts, polls, unacknowledgedCommit);
                }
            }
        }
    }

    /** No NIC's version went back; a poll with the last version seen gets only what is newer. */
    private static void checkVersionsDidNotGoBack(Api api, Map<String, Long> maxSeen) throws Exception {
        Map<String, Long> now = versions(api);
        for (String nic : NICS) {
            long seen = maxSeen.get(nic);
            assertThat(now.get(nic)).as(nic + " version after restart").isGreaterThanOrEqualTo(seen);
            HttpResponse<String> r = api.get("/v1/agents/" + nic + "/paths?since=" + seen + "&wait=0", AGENT,
                    Duration.ofSeconds(10));
            if (now.get(nic) > seen) {
                assertThat(r.statusCode()).as(nic + ": a change the agents missed").isEqualTo(200);
                assertThat(Api.JSON.readTree(r.body()).get("version").asLong()).isEqualTo(now.get(nic));
            } else {
                assertThat(r.statusCode()).as(nic + ": nothing new since " + seen).isEqualTo(304);
                assertThat(r.headers().firstValue("Weft-Version")).hasValue(Long.toString(now.get(nic)));
            }
        }
    }

    /**
     * Each acknowledged job exactly once under the id its 201 gave; each unacknowledged one, when
     * retried with its key, is the stored job (its 201 was lost: 200) or placed now (201); in the
     * end one job per key sent.
     */
    private static Retries checkJobsExactlyOnce(Api api, Map<String, String> sent, Map<String, String> acked)
            throws Exception {
        Map<String, List<String>> byName = jobsByName(api);
        byName.forEach((name, ids) -> assertThat(ids).as("jobs named " + name).hasSize(1));
        for (var a : acked.entrySet()) {
            assertThat(byName.get(nameOf(a.getKey()))).as("acknowledged " + a.getKey()).containsExactly(a.getValue());
        }
        int replayed = 0;
        int placedNow = 0;
        for (var s : sent.entrySet()) {
            if (acked.containsKey(s.getKey())) {
                continue;
            }
            List<String> stored = byName.get(nameOf(s.getKey()));
            HttpResponse<String> r = api.postJob(SCHEDULER, s.getKey(), s.getValue());
            if (stored != null) {
                assertThat(r.statusCode()).as("retry of stored " + s.getKey() + ": " + r.body()).isEqualTo(200);
                assertThat(Api.JSON.readTree(r.body()).get("id").asString()).isEqualTo(stored.get(0));
                replayed++;
            } else {
                assertThat(r.statusCode()).as("retry of lost " + s.getKey() + ": " + r.body()).isEqualTo(201);
                placedNow++;
            }
        }
        for (String key : acked.keySet().stream().sorted().limit(3).toList()) {
            HttpResponse<String> r = api.postJob(SCHEDULER, key, sent.get(key));
            assertThat(r.statusCode()).as("replay of acknowledged " + key).isEqualTo(200);
            assertThat(Api.JSON.readTree(r.body()).get("id").asString()).isEqualTo(acked.get(key));
        }
        byName = jobsByName(api);
        assertThat(byName.keySet()).as("one job per key sent, no more")
                .isEqualTo(new TreeSet<>(sent.keySet().stream().map(KillRestartRecoveryTest::nameOf).toList()));
        byName.forEach((name, ids) -> assertThat(ids).as("jobs named " + name).hasSize(1));
        return new Retries(replayed, placedNow);
    }

    /**
     * The engine's reservations equal the sum of the stored jobs' paths, arc by arc, in kbit/s (the
     * engine's unit: a slice's demand is rounded to it, so the sums compare exactly). Returns the
     * stored flow slice ids by source NIC.
     */
    static Map<String, Set<String>> checkReservationsEqualStoredPaths(Api api) throws Exception {
        Map<String, Long> expected = new TreeMap<>();
        Map<String, Set<String>> flowsBySrc = new TreeMap<>();
        for (List<String> ids : jobsByName(api).values()) {
            JsonNode job = api.read("/v1/jobs/" + ids.get(0), SCHEDULER);
            assertThat(job.get("state").asString()).isEqualTo("ACTIVE");
            for (JsonNode f : job.get("flows")) {
                assertThat(f.get("state").asString()).as(f.get("id").asString()).isEqualTo("GOOD");
                flowsBySrc.computeIfAbsent(f.get("src").asString(), k -> new TreeSet<>()).add(f.get("id").asString());
                JsonNode links = f.get("links");
                JsonNode nodes = f.get("nodes");
                long kbps = Math.max(1, Math.round(f.get("demandGbps").asDouble() * 1e6));
                for (int i = 0; i < links.size(); i++) {
                    expected.merge(links.get(i).asString() + " " + nodes.get(i).asString() + ">"
                            + nodes.get(i + 1).asString(), kbps, Long::sum);
                }
            }
        }
        Map<String, Long> reserved = new TreeMap<>();
        api.read("/v1/fabric", OPERATOR).get("reservations").forEach(r -> reserved.merge(r.get("link").asString()
                + " " + r.get("from").asString() + ">" + r.get("to").asString(),
                Math.round(r.get("reservedGbps").asDouble() * 1e6), Long::sum));
        assertThat(reserved).as("engine reservations (kbit/s) vs stored paths").isEqualTo(expected);
        return flowsBySrc;
    }

    /**
     * Every agent, resuming with the version it last saw, reached its NIC's current version and
     * lists exactly the NIC's stored flows. Returns the current versions.
     */
    private static Map<String, Long> checkAgentsCaughtUp(Api api, BeforeKill before,
                                                         Map<String, Set<String>> flowsBySrc) throws Exception {
        Map<String, Long> current = versions(api);
        await("every agent at its NIC's current version", 30,
                () -> AGENTS.stream().allMatch(a -> a.lastVersion() == current.get(a.nic())));
        for (Agent a : AGENTS) {
            assertThat(a.last().flowIds()).as(a.nic() + "'s profile").isEqualTo(flowsBySrc.get(a.nic()));
            List<Agent.Profile> after = a.received().subList(before.agentProfiles().get(a), a.received().size());
            if (!after.isEmpty()) {
                assertThat(after.get(0).since()).as(a.nic() + " resumed with the version it last saw")
                        .isEqualTo(before.agentVersion().get(a));
            }
        }
        return current;
    }

    /** No loss after the kill: a job placed now wakes every parked agent with a newer version. */
    private static void checkNewJobWakesEveryAgent(Api api, Map<String, Long> current) throws Exception {
        await("every agent parked", 30, () -> api.waiters() == AGENTS.size());
        HttpResponse<String> created = api.postJob(SCHEDULER, "after-restart",
                "{\"name\":\"after-restart\",\"pattern\":\"ring\",\"endpoints\":[\"nic1\",\"nic3\",\"nic2\",\"nic4\"],"
                        + "\"demandGbps\":5}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        Map<String, String> newFlow = new HashMap<>();
        Api.JSON.readTree(created.body()).get("flows").forEach(f -> {
            String src = f.get("src").asString();
            assertThat(f.get("version").asLong()).as("version of the new flow from " + src)
                    .isGreaterThan(current.get(src));
            newFlow.put(src, f.get("id").asString());
        });
        assertThat(newFlow.keySet()).containsExactlyInAnyOrderElementsOf(NICS);
        await("every agent woken by the new job", 30, () -> AGENTS.stream().allMatch(a -> a.lastVersion() > current
                .get(a.nic()) && a.last().flowIds().contains(newFlow.get(a.nic()))));
        Map<String, Long> end = versions(api);
        for (String nic : NICS) {
            assertThat(end.get(nic)).as(nic).isGreaterThan(current.get(nic));
        }
    }

    /** Starts the service and waits until it placed the stored jobs on its fabric. */
    private static ServiceProcess start(DevstackEndpoints e, String schema, int port, Path log, Api api)
            throws Exception {
        ServiceProcess p = ServiceProcess.start(e, schema, port, TOKENS, FABRIC, log);
        CHILDREN.services.add(p);
        // GET /v1/fabric takes the placement lock, so a 200 also means the restart's re-placement is done.
        await("the service on port " + port + " (log " + log + ")", 120, () -> {
            if (!p.isAlive()) {
                throw new AssertionError("the service exited; see " + log);
            }
            try {
                return api.get("/v1/fabric", OPERATOR, Duration.ofSeconds(10)).statusCode() == 200;
            } catch (IOException notListening) {
                return false;
            }
        });
        return p;
    }

    /** Every NIC's current version, from a pull without {@code since}. */
    static Map<String, Long> versions(Api api) throws Exception {
        Map<String, Long> out = new TreeMap<>();
        for (String nic : NICS) {
            out.put(nic, api.read("/v1/agents/" + nic + "/paths", AGENT).get("version").asLong());
        }
        return out;
    }

    /** Every stored job (paged), by name. */
    static Map<String, List<String>> jobsByName(Api api) throws Exception {
        Map<String, List<String>> out = new TreeMap<>();
        int seen = 0;
        for (int page = 0; ; page++) {
            JsonNode p = api.read("/v1/jobs?size=" + PAGE_SIZE + "&page=" + page, SCHEDULER);
            p.get("items").forEach(j -> out.computeIfAbsent(j.get("name").asString(), k -> new ArrayList<>())
                    .add(j.get("id").asString()));
            seen += p.get("items").size();
            if (p.get("items").isEmpty() || seen >= p.get("total").asLong()) {
                return out;
            }
        }
    }

    /** Job name of a stream key: {@code stream-T-I} is job {@code sT-I}. */
    private static String nameOf(String key) {
        return "s" + key.substring("stream-".length());
    }

    static void await(String what, int seconds, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!condition.call()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + seconds + " s waiting for " + what);
            }
            Thread.sleep(20);
        }
    }
}
