package io.weft.scheduler.recovery;

import static io.weft.scheduler.recovery.KillRestartRecoveryTest.AGENT;
import static io.weft.scheduler.recovery.KillRestartRecoveryTest.FABRIC;
import static io.weft.scheduler.recovery.KillRestartRecoveryTest.NICS;
import static io.weft.scheduler.recovery.KillRestartRecoveryTest.OPERATOR;
import static io.weft.scheduler.recovery.KillRestartRecoveryTest.SCHEDULER;
import static io.weft.scheduler.recovery.KillRestartRecoveryTest.TOKENS;
import static io.weft.scheduler.recovery.KillRestartRecoveryTest.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.WeftDevstackTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two scheduler-api replicas (child JVMs) on one database: one holds the writer lease, the other is
 * a standby. Under a steady stream of job submissions (spread over both replicas, retried with their
 * Idempotency-Key on 503 or a dead connection, as a client behind a load balancer does) and agents
 * long-polling both replicas, the writer is killed with SIGKILL. Then:
 * <ul>
 *   <li>before the kill, the standby answers submissions 503 problem+json with Retry-After, and its
 *       parked agents are woken by versions the writer commits (the LISTEN/NOTIFY feed);</li>
 *   <li>the standby takes the lease and places a job within the bound ({@link #TAKEOVER_BOUND_MS});</li>
 *   <li>every acknowledged job exists exactly once, and the engine's reservations equal the stored
 *       paths (no flow placed twice, none lost);</li>
 *   <li>every agent, on either replica before the kill, keeps receiving versions: it is at its NIC's
 *       current version at the end and a job placed after the takeover wakes it; no agent ever saw a
 *       version go back.</li>
 * </ul>
 * Output of the replicas: {@code target/writer-failover-{a,b}.log}.
 */
@WeftDevstackTest
class WriterFailoverTest {
    /** The stated bound: kill -9 of the writer to the first job placed by the standby. */
    static final long TAKEOVER_BOUND_MS = 5_000;
    private static final int AGENTS_PER_NIC_PER_REPLICA = 1;
    private static final int SUBMITTERS = 4;
    private static final int ACKED_BEFORE_KILL = 30;
    private static final int ACKED_AFTER_KILL = 20;

    @RegisterExtension
    static final RecoveryChildren CHILDREN = new RecoveryChildren();
    private static final List<Agent> AGENTS = CHILDREN.agents;

    @Test
    void theStandbyTakesOverWithinTheBoundAndNothingIsLostOrDoubled(DevstackEndpoints e) throws Exception {
        CHILDREN.run(logs -> run(e, logs), "writer-failover-a.log", "writer-failover-b.log");
    }

    private void run(DevstackEndpoints e, Path[] logs) throws Exception {
        String schema = "writer_failover_" + System.nanoTime();
        int portA = ServiceProcess.freePort();
        int portB = ServiceProcess.freePort();
        Api onA = new Api(portA);
        Api onB = new Api(portB);

        ServiceProcess a = ServiceProcess.start(e, schema, portA, TOKENS, FABRIC, logs[0]);
        CHILDREN.services.add(a);
        awaitStatus(a, onA, "/v1/fabric", 200, "replica A as the writer");
        ServiceProcess b = ServiceProcess.start(e, schema, portB, TOKENS, FABRIC, logs[1]);
        CHILDREN.services.add(b);
        awaitStatus(b, onB, "/v1/agents/nic1/paths", 200, "replica B serving agents");

        checkStandbyRefusesWritesWithRetryAfter(onB);
        double standbyWakeMs = standbyAgentsWokenByWriterCommits(onA, onB);
        checkStandbyReadsTheWritersFabric(onA, onB);

        // Agents: the same number on each replica; those on A move to B when A dies.
        for (String nic : NICS) {
            for (int k = 0; k < AGENTS_PER_NIC_PER_REPLICA; k++) {
                for (int first = 0; first < 2; first++) {
                    Agent ag = new Agent(nic, AGENT, new Api(portA, portB).startingAt(first));
                    AGENTS.add(ag);
                    Thread th = new Thread(ag, "agent-" + nic + "-" + first + "-" + k);
                    th.setDaemon(true);
                    th.start();
                }
            }
        }
        await("every agent's first profile", 60, () -> AGENTS.stream().allMatch(ag -> ag.lastVersion() >= 0));

        Submitters stream = new Submitters(portA, portB);
        stream.start(SUBMITTERS);
        await(ACKED_BEFORE_KILL + " acknowledged jobs", 120, () -> stream.acked.size() >= ACKED_BEFORE_KILL);
        assertThat(stream.standbyRefusals.get()).as("submissions that reached the standby were refused").isPositive();

        long killedAt = System.nanoTime();
        stream.killedAt.set(killedAt);
        a.sigkill();
        await("the first job placed by the standby", 60, () -> stream.firstAckAfterKillNs.get() > 0);
        long takeoverMs = (stream.firstAckAfterKillNs.get() - killedAt) / 1_000_000;
        assertThat(a.killHard()).isEqualTo(128 + 9);
        int ackedAtKill = stream.ackedBeforeKill.get();
        await(ACKED_AFTER_KILL + " more acknowledged jobs", 120,
                () -> stream.acked.size() >= ackedAtKill + ACKED_AFTER_KILL);
        stream.stopAndJoin();
        assertThat(stream.unexpected).as("answers other than 200/201/503 or a dead connection").isEmpty();
        assertThat(takeoverMs).as("kill -9 of the writer to the standby's first placed job (ms)")
                .isLessThanOrEqualTo(TAKEOVER_BOUND_MS);

        // Exactly once: one job per key sent (every submission was retried until acknowledged), each
        // acknowledged job under the id its answer gave.
        Map<String, List<String>> byName = KillRestartRecoveryTest.jobsByName(onB);
        byName.forEach((name, ids) -> assertThat(ids).as("jobs named " + name).hasSize(1));
        assertThat(byName).as("the submission the standby refused was not stored").doesNotContainKey("to-standby");
        byName.keySet().removeIf(name -> name.startsWith("wake-"));
        assertThat(byName.keySet()).isEqualTo(stream.acked.keySet());
        stream.acked.forEach((name, id) -> assertThat(byName.get(name)).as(name).containsExactly(id));
        Map<String, Set<String>> flowsBySrc = KillRestartRecoveryTest.checkReservationsEqualStoredPaths(onB);

        // Every agent reached its NIC's current version through B, with exactly the stored flows.
        Map<String, Long> current = KillRestartRecoveryTest.versions(onB);
        await("every agent at its NIC's current version", 60,
                () -> AGENTS.stream().allMatch(ag -> ag.lastVersion() == current.get(ag.nic())));
        for (Agent ag : AGENTS) {
            assertThat(ag.last().flowIds()).as(ag.nic() + "'s profile").isEqualTo(flowsBySrc.get(ag.nic()));
        }
        // A job placed now wakes every agent, all of them parked on B.
        await("every agent parked on B", 60, () -> onB.waiters() == AGENTS.size());
        HttpResponse<String> created = onB.postJob(SCHEDULER, "after-takeover",
                "{\"name\":\"after-takeover\",\"pattern\":\"ring\",\"endpoints\":[\"nic1\",\"nic3\",\"nic2\",\"nic4\"],"
                        + "\"demandGbps\":5}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        await("every agent woken by the job placed after the takeover", 30,
                () -> AGENTS.stream().allMatch(ag -> ag.lastVersion() > current.get(ag.nic())));
        for (Agent ag : AGENTS) {
            assertThat(ag.violations()).as("agent of " + ag.nic()).isEmpty();
        }

        System.out.printf(Locale.ROOT, "writer failover: kill -9 of the writer -> standby's first placed job %d ms "
                        + "(bound %d ms); %d jobs acknowledged (%d before the kill), %d submissions refused 503 by "
                        + "the standby and retried, %d retries after the kill; an agent parked on the standby woken "
                        + "%.1f ms (median) after its job was sent to the writer; load %s%n",
                takeoverMs, TAKEOVER_BOUND_MS, stream.acked.size(), ackedAtKill, stream.standbyRefusals.get(),
                stream.retriesAfterKill.get(), standbyWakeMs, Files.readString(Path.of("/proc/loadavg")).trim());
        AGENTS.forEach(Agent::stop);
    }

    /**
     * Writes reaching the standby: 503 problem+json with Retry-After, nothing stored. A drain is refused
     * before it reaches the controller (none is configured here: that would be the other, final 503).
     */
    private static void checkStandbyRefusesWritesWithRetryAfter(Api onB) throws Exception {
        checkStandbyRefusal(onB.postJob(SCHEDULER, "to-standby", Submitters.body("to-standby", 0)));
        checkStandbyRefusal(onB.post("/v1/fabric/links/leaf1-spine1/drain", OPERATOR));
    }

    /**
     * GET /v1/fabric on the standby: the writer's fabric and reservations (of the jobs the writer just
     * placed), read from PostgreSQL since the writer's engine is in the other process.
     */
    private static void checkStandbyReadsTheWritersFabric(Api onA, Api onB) throws Exception {
        HttpResponse<String> standby = onB.get("/v1/fabric", OPERATOR, Duration.ofSeconds(10));
        assertThat(standby.statusCode()).as("B is a standby: " + standby.body()).isEqualTo(200);
        tools.jackson.databind.JsonNode s = Api.JSON.readTree(standby.body());
        tools.jackson.databind.JsonNode w = Api.JSON.readTree(onA.get("/v1/fabric", OPERATOR, Duration.ofSeconds(10))
                .body());
        assertThat(s.get("fabricId")).isEqualTo(w.get("fabricId"));
        assertThat(s.get("version")).isEqualTo(w.get("version"));
        assertThat(s.get("linkStates")).isEqualTo(w.get("linkStates"));
        assertThat(reserved(s)).as("reservations on the standby").isNotEmpty().isEqualTo(reserved(w));
    }

    /** link/from/to -> reserved Gbps (rounded: sums in another order may differ in the last bits). */
    private static Map<String, Long> reserved(tools.jackson.databind.JsonNode fabric) {
        Map<String, Long> out = new java.util.TreeMap<>();
        for (tools.jackson.databind.JsonNode r : fabric.get("reservations")) {
            out.put(r.get("link").asString() + "/" + r.get("from").asString() + "/" + r.get("to").asString(),
                    Math.round(r.get("reservedGbps").asDouble() * 1000));
        }
        return out;
    }

    private static void checkStandbyRefusal(HttpResponse<String> r) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
        assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(
                ct -> assertThat(ct).startsWith("application/problem+json"));
        assertThat(Api.JSON.readTree(r.body()).get("detail").asString()).contains("standby");
    }

    /**
     * An agent parked on the standby is woken by a job the writer places: the version reaches the
     * standby through PostgreSQL's LISTEN/NOTIFY. Returns the median delay from sending the job to the writer to
     * the standby's answer, over a few jobs.
     */
    private static double standbyAgentsWokenByWriterCommits(Api onA, Api onB) throws Exception {
        List<Double> delays = new ArrayList<>();
        List<Double> afterAck = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            long since = Api.JSON.readTree(onB.get("/v1/agents/nic1/paths", AGENT, Duration.ofSeconds(10)).body())
                    .path("version").asLong(0);
            var poll = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    HttpResponse<String> r = onB.get("/v1/agents/nic1/paths?since=" + since + "&wait=30", AGENT,
                            Duration.ofSeconds(40));
                    return new long[] {r.statusCode(), System.nanoTime()};
                } catch (IOException | InterruptedException ex) {
                    throw new IllegalStateException(ex);
                }
            });
            await("the agent parked on the standby", 30, () -> onB.waiters() == 1);
            long sent = System.nanoTime();
            HttpResponse<String> r = onA.postJob(SCHEDULER, "wake-" + i, Submitters.body("wake-" + i, 2 * i));
            long acked = System.nanoTime();
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            long[] answer = poll.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(answer[0]).as("the standby's answer to the parked poll").isEqualTo(200);
            delays.add((answer[1] - sent) / 1e6);
            afterAck.add((answer[1] - acked) / 1e6);
        }
        double[] sorted = delays.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        System.out.println("standby agent woken, ms after the job was sent to the writer: " + Arrays.toString(sorted)
                + "; after its 201 reached the client (negative: before): " + afterAck);
        return sorted[sorted.length / 2];
    }

    private static void awaitStatus(ServiceProcess p, Api api, String path, int status, String what)
            throws Exception {
        await(what + " (log " + p.log() + ")", 180, () -> {
            if (!p.isAlive()) {
                throw new AssertionError("the service exited; see " + p.log());
            }
            try {
                return api.get(path, path.startsWith("/v1/agents") ? AGENT : OPERATOR, Duration.ofSeconds(10))
                        .statusCode() == status;
            } catch (IOException notListening) {
                return false;
            }
        });
    }

    /**
     * Job submitters behind a load balancer over both replicas: each job has its own key, and is
     * retried with it, on the other replica, after a 503 or a dead connection, until one answers 201
     * (placed) or 200 (the replay of a placement whose answer was lost).
     */
    private static final class Submitters {
        private static final String[][] PAIRS = {{"nic1", "nic3"}, {"nic2", "nic4"}, {"nic1", "nic2"},
            {"nic3", "nic4"}, {"nic1", "nic4"}, {"nic2", "nic3"}};

        final Map<String, String> acked = new ConcurrentHashMap<>();
        final List<String> unexpected = new CopyOnWriteArrayList<>();
        final AtomicInteger standbyRefusals = new AtomicInteger();
        final AtomicInteger retriesAfterKill = new AtomicInteger();
        final AtomicInteger ackedBeforeKill = new AtomicInteger();
        final AtomicLong killedAt = new AtomicLong();
        final AtomicLong firstAckAfterKillNs = new AtomicLong();
        private final int[] ports;
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean stop;

        Submitters(int... ports) {
            this.ports = ports;
        }

        static String body(String name, int n) {
            String[] pair = PAIRS[n % PAIRS.length];
            return String.format(Locale.ROOT, "{\"name\":\"%s\",\"pattern\":\"ring\",\"endpoints\":[\"%s\",\"%s\"],"
                    + "\"demandGbps\":%d,\"qpSlices\":%d}", name, pair[0], pair[1], 1 + n % 4, 1 + n % 3);
        }

        void start(int n) {
            for (int t = 0; t < n; t++) {
                int thread = t;
                // Half the submitters start on each replica, so that the standby gets (and refuses) some.
                Api api = new Api(ports).startingAt(t % ports.length);
                Thread th = new Thread(() -> loop(thread, api), "submitter-" + t);
                th.setDaemon(true);
                threads.add(th);
                th.start();
            }
        }

        private void loop(int thread, Api api) {
            for (int i = 0; !stop; i++) {
                String name = "s" + thread + "-" + i;
                String body = body(name, thread * 7 + i);
                submitUntilAcknowledged(api, name, body);
            }
        }

        private void submitUntilAcknowledged(Api api, String name, String body) {
            boolean retry = false;
            while (true) {
                if (retry && killedAt.get() > 0) {
                    retriesAfterKill.incrementAndGet();
                }
                retry = true;
                try {
                    HttpResponse<String> r = api.postJob(SCHEDULER, "key-" + name, body);
                    if (r.statusCode() == 201 || r.statusCode() == 200) {
                        acked.put(name, Api.JSON.readTree(r.body()).get("id").asString());
                        long k = killedAt.get();
                        if (k == 0) {
                            ackedBeforeKill.incrementAndGet();
                        } else if (r.statusCode() == 201 && api.port() == ports[1]) {
                            firstAckAfterKillNs.compareAndSet(0, System.nanoTime());
                        }
                        return;
                    }
                    if (r.statusCode() == 503) {
                        if (r.headers().firstValue("Retry-After").isEmpty()) {
                            unexpected.add(name + ": 503 without Retry-After");
                        }
                        standbyRefusals.incrementAndGet();
                        api.next();
                        pause(50);
                        continue;
                    }
                    unexpected.add(name + ": " + r.statusCode() + " " + r.body());
                    return;
                } catch (IOException e) {
                    // Connection refused or cut: the Api moved on to the other replica; same key again.
                    pause(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private static void pause(long ms) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void stopAndJoin() throws InterruptedException {
            stop = true;
            for (Thread t : threads) {
                t.join(60_000);
                assertThat(t.isAlive()).as(t.getName() + " still running").isFalse();
            }
        }
    }
}
