package io.weft.scheduler.apibench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.weft.devstack.Devstack;
import io.weft.harness.ChildService;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * {@code ./weft bench api --respread}: one fabric-wide multipath re-spread on the large case, and what
 * job submissions meet while it runs.
 *
 * <ol>
 *   <li>The service as {@link ApiBench} starts it (child JVM, embedded PostgreSQL) on the 64-leaf,
 *       8-spine leaf-spine of 1,024 NICs (16 per leaf, 400G links).</li>
 *   <li>16 multipath jobs of 64 line-rate flows posted one after another ({@link #ringJob}: half the
 *       leaves send and receive 17 flows over 8 uplinks; up to 4 paths per flow in eighths): each
 *       spread on arrival with the earlier ones as background, so together they stand above the
 *       joint optimum (2.125).</li>
 *   <li>{@code POST /v1/fabric/multipath/respread}; 20 ms in, one small job POST (it lands while the
 *       pass plans outside the writer, and supersedes that plan: the pass plans again); when the
 *       service logs that the plan it will apply is done, one more (it lands as the pass takes the
 *       writer and waits for the whole apply). Before the pass, three POSTs with nothing else running
 *       give the POST's own time ({@code post_idle_ms}, the median).</li>
 * </ol>
 * The service's log gives the plan times and the writer hold split into the engine, the transaction's
 * flow rows and the path ledger (with the ledger's own parts). Printed as a table, or one JSON object
 * per pass with {@code --json}; the load average is part of every row.
 */
final class RespreadBench {
    static final int JOBS = 16;
    static final int MAX_PATHS = 4;
    static final int GRANULARITY = 8;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PLANNED =
            Pattern.compile("re-spread \\(.*\\): plan (\\d+) made in (\\d+) ms, applying");
    private static final Pattern APPLIED = Pattern.compile("\\((\\d+) rows written, (\\d+) retired\\).* (\\d+) path "
            + "changes, (\\d+) ms \\((\\d+) ms under the writer: engine (\\d+) ms \\(jobs re-added (\\d+) ms\\), "
            + "transaction (\\d+) ms: flows (\\d+) ms, summaries (\\d+) ms, ledger (\\d+) ms\\)");
    private static final Pattern LEDGER = Pattern.compile("(\\d+) path changes, (\\d+) NICs: versions (\\d+) us, "
            + "rows (\\d+) us, assignments (\\d+) us, history (\\d+) us, profile cache (\\d+) us");

    private static final Pattern READDED = Pattern.compile("(\\d+) jobs re-added, (\\d+) slices: release (\\d+) us, "
            + "add (\\d+) us, (\\d+) pinned (\\d+) us, (\\d+) moved, back (\\d+) us");

    private RespreadBench() {
    }

    static void run(ApiBench.Flags flags, int rounds, PrintStream results) throws Exception {
        int nics = flags.nics;
        int leaves = nics / 16;
        if (nics % 16 != 0 || leaves < JOBS * 2 || Integer.bitCount(leaves) != 1) {
            throw new IllegalArgumentException("--respread: --nics must be a multiple of 16 with at least " + JOBS * 2
                    + " leaves (a power of two: the rings' strides are odd)");
        }
        Path dir = Files.createTempDirectory("weft-bench-respread-");
        try (Devstack devstack = Devstack.builder().stateDir(dir.resolve("devstack")).kafkaPort(0).postgresPort(0)
                .start()) {
            Path fabric = dir.resolve("fabric.json");
            Files.writeString(fabric, ApiBench.leafSpine(leaves));
            int port = ApiBench.freePort();
            // Triggered passes off (only the bench's own), and the debug lines the bench reads.
            ChildService service = ApiBench.startService(devstack.endpoints(), fabric, nics, port, List.of(
                    "-Dweft.scheduler.respread.after-link-passes=false",
                    "-Dweft.scheduler.respread.after-hotspot-passes=false",
                    "-Dlogging.level.io.weft.scheduler.job.MultipathRespread=DEBUG",
                    "-Dlogging.level.io.weft.scheduler.job.PathLedger=DEBUG",
                    "-Dlogging.level.io.weft.scheduler.job.FabricSpread=DEBUG"));
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(30)).build();
            Client c = new Client(http, "http://127.0.0.1:" + port);
            try {
                ApiBench.awaitHealthy(http, c.base, service);
                for (int k = 1; k <= rounds; k++) {
                    Map<String, Object> row = pass(c, service, leaves, k);
                    row.put("round", k);
                    print(row, flags.json, results);
                }
            } finally {
                service.stop();
            }
        } finally {
            ApiBench.deleteTree(dir);
        }
    }

    /** One round: the 16 jobs posted one after another, the pass, the POSTs around it; jobs deleted after. */
    private static Map<String, Object> pass(Client c, ChildService service, int leaves, int round) throws Exception {
        List<String> jobs = new ArrayList<>();
        long setup = System.nanoTime();
        for (int j = 0; j < JOBS; j++) {
            jobs.add(c.post("/v1/jobs", ringJob("spread-" + round + "-" + j, j, leaves), ApiBench.SCHED_TOKEN)
                    .get("id").asString());
        }
        System.err.printf("bench: %d multipath jobs posted in %d ms%n", JOBS, (System.nanoTime() - setup) / 1_000_000);
        double loadBefore = c.maxLoad();
        // A POST with nothing else running, for scale: the median of three.
        double[] idle = new double[3];
        for (int i = 0; i < idle.length; i++) {
            long s = System.nanoTime();
            String id = c.post("/v1/jobs", smallJob(round, 100 + i, leaves), ApiBench.SCHED_TOKEN).get("id").asString();
            idle[i] = (System.nanoTime() - s) / 1e6;
            c.delete(id);
        }
        java.util.Arrays.sort(idle);
        double postIdleMs = round1(idle[1]);
        String loadavgBefore = ApiBench.loadAverage();
        LogTail tail = new LogTail(service.log());
        Thread tailer = new Thread(tail, "bench-log-tail");
        tailer.setDaemon(true);
        tailer.start();
        List<String> small = new ArrayList<>();
        double applyPostMs = Double.NaN;
        boolean applyPostSentBeforeApplied = false;
        // A thread per request in flight: the common pool has one worker on two cores, so the POSTs
        // would wait there for the pass's own request instead of for the service.
        java.util.concurrent.ExecutorService senders = java.util.concurrent.Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "bench-sender");
            t.setDaemon(true);
            return t;
        });
        JsonNode answer;
        double planningPostMs;
        int planningPostBeforePlan;
        try {
            long t0 = System.nanoTime();
            CompletableFuture<JsonNode> pass = CompletableFuture.supplyAsync(() -> c.post(
                    "/v1/fabric/multipath/respread", "", ApiBench.OPERATOR_TOKEN), senders);
            Thread.sleep(20);
            long p0 = System.nanoTime();
            small.add(c.post("/v1/jobs", smallJob(round, 0, leaves), ApiBench.SCHED_TOKEN).get("id").asString());
            planningPostMs = (System.nanoTime() - p0) / 1e6;
            // The plan that applies is the first whose snapshot has this job: the one after the plan
            // being made when it was placed (that one is superseded), or the next after the last made.
            planningPostBeforePlan = tail.planned.size() + 1;
            int applyingPlan = Math.max(2, planningPostBeforePlan);
            while (!pass.isDone() && tail.planned.size() < applyingPlan) {
                Thread.sleep(1);
            }
            // One POST as the plan that applies is made: it lands as the pass takes the writer and
            // waits for the whole apply (more POSTs would queue behind each other on the writer's lock,
            // which is not fair, and measure that queue).
            if (!pass.isDone()) {
                applyPostSentBeforeApplied = tail.applied == null;
                long s = System.nanoTime();
                small.add(c.post("/v1/jobs", smallJob(round, 1, leaves), ApiBench.SCHED_TOKEN).get("id").asString());
                applyPostMs = (System.nanoTime() - s) / 1e6;
            }
            answer = pass.get(300, TimeUnit.SECONDS);
            Thread.sleep(200); // the service's last lines
        } finally {
            tail.stop = true;
            tailer.join(5_000);
            senders.shutdownNow();
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("case", leaves + "x8x16 leaf-spine, " + JOBS + " multipath rings x " + leaves + " flows");
        row.put("loadavg", loadavgBefore);
        row.put("applied", answer.get("applied").asBoolean());
        if (answer.has("reason")) {
            row.put("reason", answer.get("reason").asString());
        }
        row.put("max_load_before", loadBefore);
        row.put("max_load_after", c.maxLoad());
        row.put("pass_ms", answer.get("elapsedMs").asLong());
        row.put("plans", tail.planned.size());
        row.put("plan_ms", tail.planned.stream().map(p -> p[1]).toList());
        row.put("post_during_planning_ms", round1(planningPostMs));
        // 0: answered while the first plan was being made (it then waited for no apply).
        row.put("plans_made_when_planning_post_answered", planningPostBeforePlan - 1);
        // Null when the pass had answered before the plan that applies was seen in the log.
        row.put("post_during_apply_ms", Double.isNaN(applyPostMs) ? null : round1(applyPostMs));
        // False: the service had logged the apply (after its commit) before the POST left: it waited for none.
        row.put("post_during_apply_sent_before_applied", applyPostSentBeforeApplied);
        row.put("post_idle_ms", postIdleMs);
        if (tail.applied != null) {
            long[] a = tail.applied;
            row.put("path_changes", a[2]);
            row.put("flow_rows_written", a[0]);
            row.put("slices_retired", a[1]);
            row.put("writer_hold_ms", a[4]);
            row.put("engine_ms", a[5]);
            row.put("engine_jobs_readded_ms", a[6]);
            row.put("db_ms", a[7]);
            row.put("db_flows_ms", a[8]);
            row.put("db_summaries_ms", a[9]);
            row.put("db_ledger_ms", a[10]);
            row.put("db_event_commit_ms", a[7] - a[8] - a[9] - a[10]);
        }
        if (tail.readded != null) {
            long[] e = tail.readded;
            row.put("engine_release_ms", e[2] / 1000.0);
            row.put("engine_add_ms", e[3] / 1000.0);
            row.put("engine_slices_pinned", e[4]);
            row.put("engine_pin_ms", e[5] / 1000.0);
            row.put("engine_others_moved", e[6]);
        }
        if (tail.ledger != null) {
            long[] l = tail.ledger;
            row.put("ledger_nics", l[1]);
            row.put("ledger_versions_ms", l[2] / 1000.0);
            row.put("ledger_rows_ms", l[3] / 1000.0);
            row.put("ledger_assignments_ms", l[4] / 1000.0);
            row.put("ledger_history_ms", l[5] / 1000.0);
            row.put("ledger_profile_cache_ms", l[6] / 1000.0);
        }
        row.put("loadavg_after", ApiBench.loadAverage());
        for (String id : small) {
            c.delete(id);
        }
        for (String id : jobs) {
            c.delete(id);
        }
        return row;
    }

    private static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }

    /**
     * Job j < 15: a line-rate ring over NIC j of every leaf, leaf i followed by leaf i + 2j + 1 (mod
     * leaves). The last job: a ring over NIC 15 and then NIC 14 of the first half of the leaves, so those
     * leaves send and receive 17 line-rate flows over 8 uplinks: one path per flow puts 3 on some
     * uplink (3.0), eighths reach 17/8 = 2.125, the splittable optimum.
     */
    static String ringJob(String name, int j, int leaves) {
        List<Integer> nics = new ArrayList<>();
        if (j == JOBS - 1) {
            for (int nic : new int[] {15, 14}) {
                for (int leaf = 0; leaf < leaves / 2; leaf++) {
                    nics.add(leaf * 16 + nic);
                }
            }
        } else {
            int stride = 2 * j + 1;
            boolean[] seen = new boolean[leaves];
            for (int i = 0, leaf = 0; i < leaves; i++, leaf = (leaf + stride) % leaves) {
                if (seen[leaf]) {
                    throw new IllegalStateException("stride " + stride + " does not visit all " + leaves + " leaves");
                }
                seen[leaf] = true;
                nics.add(leaf * 16 + j);
            }
        }
        StringBuilder endpoints = new StringBuilder();
        for (int nic : nics) {
            endpoints.append(endpoints.isEmpty() ? "" : ",").append("\"nic").append(nic).append('"');
        }
        return "{\"name\":\"" + name + "\",\"pattern\":\"ring\",\"order\":\"given\",\"endpoints\":[" + endpoints
                + "],\"demandGbps\":400,\"multipath\":{\"maxPaths\":" + MAX_PATHS + ",\"granularity\":" + GRANULARITY
                + "}}";
    }

    /** A one-flow job of 1 Gb/s from leaf k's first NIC to leaf k+1's last: a normal submission, 1/400 of a link. */
    static String smallJob(int round, int k, int leaves) {
        int src = (k % leaves) * 16;
        int dst = ((k + 1) % leaves) * 16 + 15;
        return "{\"name\":\"during-" + round + "-" + k + "\",\"pattern\":\"explicit\",\"flows\":[{\"src\":\"nic" + src
                + "\",\"dst\":\"nic" + dst + "\",\"demandGbps\":1}]}";
    }

    private static void print(Map<String, Object> row, boolean json, PrintStream out) {
        if (json) {
            out.println(JSON.writeValueAsString(row));
            return;
        }
        for (Map.Entry<String, Object> e : row.entrySet()) {
            Object v = e.getValue();
            out.printf(Locale.ROOT, "%-34s %s%n", e.getKey(), v instanceof Double d ? String.format(Locale.ROOT,
                    "%.4f", d) : v);
        }
        out.println();
    }

    /** The service's log from now on: the plan lines, the apply line and the ledger's split. */
    private static final class LogTail implements Runnable {
        private final Path log;
        private final long from;
        /** {plan number, ms}, in order. */
        final List<long[]> planned = new java.util.concurrent.CopyOnWriteArrayList<>();
        volatile long[] applied;
        volatile long[] ledger;
        volatile long[] readded;
        private long[] lastLedger;
        volatile boolean stop;

        LogTail(Path log) throws IOException {
            this.log = log;
            this.from = Files.size(log);
        }

        @Override
        public void run() {
            try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
                f.seek(from);
                StringBuilder line = new StringBuilder();
                byte[] buf = new byte[65536];
                while (!stop) {
                    int n = f.read(buf);
                    if (n <= 0) {
                        Thread.sleep(1);
                        continue;
                    }
                    String s = new String(buf, 0, n, StandardCharsets.UTF_8);
                    for (int i = 0; i < s.length(); i++) {
                        char ch = s.charAt(i);
                        if (ch == '\n') {
                            take(line.toString());
                            line.setLength(0);
                        } else {
                            line.append(ch);
                        }
                    }
                }
            } catch (IOException | InterruptedException e) {
                System.err.println("bench: log tail stopped: " + e);
            }
        }

        private void take(String line) {
            Matcher m = PLANNED.matcher(line);
            if (m.find()) {
                planned.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))});
                return;
            }
            m = APPLIED.matcher(line);
            if (m.find()) {
                applied = numbers(m);
                ledger = lastLedger; // the pass's own: no other change holds the writer meanwhile
                return;
            }
            m = READDED.matcher(line);
            if (m.find()) {
                readded = numbers(m); // the last before the apply line: the pass that applied
                return;
            }
            m = LEDGER.matcher(line);
            if (m.find()) {
                lastLedger = numbers(m);
            }
        }

        private static long[] numbers(Matcher m) {
            long[] out = new long[m.groupCount()];
            for (int i = 0; i < out.length; i++) {
                out[i] = Long.parseLong(m.group(i + 1));
            }
            return out;
        }
    }

    /** The few calls the bench makes, each failing loudly with the service's answer. */
    private record Client(HttpClient http, String base) {
        JsonNode post(String path, String body, String token) {
            HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + path))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(300)).build());
            if (r.statusCode() / 100 != 2) {
                throw new IllegalStateException("POST " + path + ": " + r.statusCode() + " " + r.body());
            }
            return JSON.readTree(r.body());
        }

        void delete(String id) {
            send(HttpRequest.newBuilder(URI.create(base + "/v1/jobs/" + id))
                    .header("Authorization", "Bearer " + ApiBench.SCHED_TOKEN).DELETE().build());
        }

        double maxLoad() {
            HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + "/v1/fabric"))
                    .header("Authorization", "Bearer " + ApiBench.OPERATOR_TOKEN).GET().build());
            return JSON.readTree(r.body()).get("quality").get("maxLoad").asDouble();
        }

        private HttpResponse<String> send(HttpRequest request) {
            try {
                return http.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                throw new IllegalStateException(request.uri() + ": " + e, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(request.uri() + ": interrupted", e);
            }
        }
    }
}
