package io.weft.scheduler.apibench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.weft.devstack.Devstack;
import io.weft.devstack.DevstackEndpoints;
import io.weft.harness.ChildService;
import io.weft.scheduler.SchedulerApiApplication;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code ./weft bench api}: the scheduler API under agent load, on loopback.
 *
 * <ol>
 *   <li>Starts an embedded PostgreSQL and the service as a child process with its real runtime
 *       classpath (module jar + target/lib), on a generated leaf-spine fabric with {@code --nics}
 *       NICs (16 per leaf, 8 spines).</li>
 *   <li>Parks {@code --agents} long-polls (agent i polls NIC i mod nics) and waits until the
 *       service's waiters gauge counts all of them; samples the service's RSS.</li>
 *   <li>Submits one ring job over every NIC: every waiting agent is affected. The service stamps
 *       each version when it publishes it, right after the commit ({@code Weft-Published-Us},
 *       {@code :published-us=}): fan-out latency = that stamp until the agent has its new profile
 *       ({@code fanout_*}); update latency = from sending the POST ({@code update_*}), the POST
 *       itself apart ({@code job_post_ms}). Fan-out CPU ({@code service_cpu_us_per_agent}) = the
 *       service's CPU over the update (all threads but the JIT compilers, /proc schedstat) minus that
 *       of the same job change with no agent waiting, per agent reached. Steps 2-3 run
 *       {@code --rounds} times (default 4) on the same connections: round 1 (reported as
 *       {@code update_round1_*}) also compiles the wake path, the last gives the headline.</li>
 *   <li>Pulls profiles open-loop at {@code --rate} requests/s for {@code --seconds} (pull latency).</li>
 * </ol>
 * Prints a table, or with {@code --json} one object: agents, update_p50_ms, update_p99_ms,
 * pull_p99_ms, rss_mb and more. Numbers depend on the machine and on what else runs on it.
 */
public final class ApiBench {
    private static final String AGENT_TOKEN = "bench-agent-token-0123456789";
    static final String SCHED_TOKEN = "bench-sched-token-0123456789";
    static final String OPERATOR_TOKEN = "bench-oper-token-0123456789";
    private static final int NICS_PER_LEAF = 16;
    private static final int SPINES = 8;
    /** Kept-alive connections the pulls share (an agent re-uses its connection). */
    private static final int PULL_CONNECTIONS = 64;
    /** A normal job for the submission latency: a ring over this many NICs, submitted and released. */
    private static final int SUBMIT_NICS = 16;
    private static final int SUBMITS = 60;
    private static final java.util.concurrent.atomic.AtomicReference<String> FIRST_ERROR =
            new java.util.concurrent.atomic.AtomicReference<>();

    private ApiBench() {
    }

    /** The command line of {@code ./weft bench api}. */
    @Command(name = "weft bench api", sortOptions = false,
            description = "The scheduler API under agent load, on loopback.")
    static final class Flags {
        @Option(names = "--json", description = "one JSON object")
        boolean json;

        @Option(names = "--stream", description = "each agent holds one profile stream instead of a long-poll")
        boolean stream;

        @Option(names = "--agents", paramLabel = "N", description = "agents (default ${DEFAULT-VALUE})")
        int agents = 10_000;

        @Option(names = "--nics", paramLabel = "N", description = "NICs of the fabric (default ${DEFAULT-VALUE})")
        int nics = 1024;

        @Option(names = "--rate", paramLabel = "R", description = "profile pulls per second (default ${DEFAULT-VALUE})")
        int rate = 1000;

        @Option(names = "--seconds", paramLabel = "S", description = "time of the pulls (default ${DEFAULT-VALUE})")
        int seconds = 10;

        @Option(names = "--rounds", paramLabel = "N", description = "rounds, at least 2 (default ${DEFAULT-VALUE})")
        int rounds = 4;

        @Option(names = "--readers", paramLabel = "N", description = "client selector threads reading the agents' "
                + "connections (default: one per core, ${DEFAULT-VALUE})")
        int readers = Runtime.getRuntime().availableProcessors();

        @Option(names = "--client", paramLabel = "probe|nio", description = "the agents: probe (default) = nic-agent's "
                + "fanout-probe under SCHED_IDLE, timed by the kernel's receive stamp; nio = the Java NIO client in "
                + "this JVM, timed by its reads")
        String client = "probe";

        @Option(names = "--profile", description = "sample the service in each round (async-profiler, CPU clock "
                + "with kernel stacks) and split its CPU: the agents' loopback TCP receive, run in the service's "
                + "write, apart from the send and the JVM's work (sampling adds CPU: compare shares)")
        boolean profile;

        @Option(names = "--respread", description = "instead: a fabric-wide multipath re-spread on the large case "
                + "(16 multipath rings of 64 NICs on --nics), its plan time, its writer hold by part and the job "
                + "POSTs sent while it plans and while it applies; --rounds passes (default 1 here)")
        boolean respread;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
        boolean help;
    }

    public static void main(String[] args) throws Exception {
        // stdout is for the result alone (--json is parsed by scripts): whatever the devstack and
        // its libraries print goes to stderr.
        java.io.PrintStream results = System.out;
        System.setOut(System.err);
        // The devstack logs a lot at INFO (Kafka's config dump); keep stdout for the results.
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
        Flags flags = new Flags();
        CommandLine line = new CommandLine(flags).setOverwrittenOptionsAllowed(true);
        try {
            line.parseArgs(args);
        } catch (ParameterException e) {
            System.err.println("weft bench api: " + e.getMessage() + " (see --help)");
            System.exit(2);
        }
        if (line.isUsageHelpRequested()) {
            line.usage(results);
            return;
        }
        if (flags.respread) {
            RespreadBench.run(flags, line.getParseResult().hasMatchedOption("--rounds") ? flags.rounds : 1, results);
            return;
        }
        boolean json = flags.json;
        boolean stream = flags.stream;
        int agents = flags.agents;
        int nics = flags.nics;
        int rate = flags.rate;
        int seconds = flags.seconds;
        int rounds = flags.rounds;
        if (rounds < 2) {
            System.err.println("--rounds: at least 2 (the first also compiles the wake path)");
            System.exit(2);
        }
        if (!flags.client.equals("probe") && !flags.client.equals("nio")) {
            System.err.println("--client: probe or nio, not " + flags.client);
            System.exit(2);
        }
        if (nics % NICS_PER_LEAF != 0 || nics < 2 * NICS_PER_LEAF) {
            System.err.println("--nics: must be a multiple of " + NICS_PER_LEAF + ", at least " + 2 * NICS_PER_LEAF);
            System.exit(2);
        }
        Path dir = Files.createTempDirectory("weft-bench-api-");
        try (Devstack devstack = Devstack.builder().stateDir(dir.resolve("devstack")).kafkaPort(0).postgresPort(0)
                .start()) {
            RoundParts.postgresData = dir.resolve("devstack").resolve("postgres");
            Path fabric = dir.resolve("fabric.json");
            Files.writeString(fabric, leafSpine(nics / NICS_PER_LEAF));
            Result r = run(devstack.endpoints(), fabric, agents, nics, rate, seconds, stream, rounds,
                    Math.max(1, flags.readers), flags.client.equals("probe"), flags.profile);
            results.println(json ? r.json() : r.table());
        } finally {
            deleteTree(dir);
        }
    }

    record Result(int agents, int nics, double jobPostMs, double updateP50Ms, double updateP99Ms, double updateMaxMs,
                  int updated, double pullP50Ms, double pullP99Ms, int pulls, int rate,
                          double rssMb, double parkSeconds,
                  double updateClientCpuMs, double pullClientCpuMs, int pullSeconds, String load, double updateFirstMs,
                  double updateServiceCpuMs, double pullServiceCpuMs, Round first, Round second,
                  double baselineCpuMs, String variant, int rounds, double[] cpuUsPerAgentByRound,
                  double[] submitMs, GcPauses gc, int readers, String partsJson, String client, ConnectGc connect,
                  int unstamped, int restamped) {
        String json() {
            Spread f = first.update();
            Spread fan = second.read();
            Spread kernel = second.delivered();
            return String.format(Locale.ROOT, "{\"variant\":\"%s\",\"client\":\"%s\",\"agents\":%d,\"nics\":%d,"
                            + "\"updated\":%d,\"job_post_ms\":%.1f,\"published_after_post_ms\":%.1f,"
                            + "\"fanout_delivered_first_ms\":%s,\"fanout_delivered_p50_ms\":%s,"
                            + "\"fanout_delivered_p99_ms\":%s,\"fanout_delivered_max_ms\":%s,"
                            + "\"unstamped\":%d,\"restamped\":%d,"
                            + "\"fanout_read_first_ms\":%.1f,\"fanout_read_p50_ms\":%.1f,\"fanout_read_p99_ms\":%.1f,"
                            + "\"fanout_read_max_ms\":%.1f,\"connect_gc_pause_ms\":%s,\"connect_gc_cpu_ms\":%s,"
                            + "\"connect_gc_cpu_us_per_connection\":%s,\"service_cpu_us_per_agent\":%.1f,"
                            + "\"fanout_thread_cpu_ms\":%.1f,\"jetty_thread_cpu_ms\":%.1f,\"gc_thread_cpu_ms\":%.1f,"
                            + "\"jit_thread_cpu_ms\":%.1f,\"rounds\":%d,\"baseline_service_cpu_ms\":%.1f,"
                            + "\"service_cpu_total_us_per_agent\":%.1f,"
                            + "\"update_p50_ms\":%.1f,\"update_p99_ms\":%.1f,\"update_max_ms\":%.1f,\"pull_rate\":%d,"
                            + "\"pulls\":%d,\"pull_p50_ms\":%.2f,\"pull_p99_ms\":%s,\"rss_mb\":%.0f,\"park_s\":%.1f,"
                            + "\"update_client_cpu_ms\":%.0f,\"pull_client_cpu_pct\":%.1f,\"loadavg\":\"%s\","
                            + "\"update_first_ms\":%.1f,\"update_service_cpu_ms\":%.0f,\"pull_service_cpu_pct\":%.1f,"
                            + "\"update_round1_p50_ms\":%.1f,\"update_round1_p99_ms\":%.1f,"
                            + "\"update_round1_fanout_read_p99_ms\":%.1f,\"update_round1_fanout_delivered_p99_ms\":%s,"
                            + "\"update_round1_service_cpu_ms\":%.0f,\"update_round1_job_post_ms\":%.1f,"
                            + "\"service_cpu_us_per_agent_by_round\":%s,\"service_cpu_us_per_agent_warm_median\":%.1f,"
                            + "\"service_java_opts\":\"%s\",\"client_readers\":%d,\"service_gc\":\"%s\","
                            + "\"gc_pauses\":%d,\"gc_pause_max_ms\":%.1f,\"gc_pause_total_ms\":%.1f,\"job_submits\":%d,"
                            + "\"job_submit_p50_ms\":%.1f,\"job_submit_p99_ms\":%.1f,\"job_submit_max_ms\":%.1f%s}",
                    variant, client, agents, nics, updated, jobPostMs, second.publishedAfterPostMs(),
                    num(kernel.firstMs()), num(kernel.p50Ms()), num(kernel.p99Ms()), num(kernel.maxMs()), unstamped,
                    restamped,
                    fan.firstMs(), fan.p50Ms(), fan.p99Ms(), fan.maxMs(), num(connect.pauseMs()),
                    num(connect.gcCpuMs()), num(connect.gcCpuUsPerConnection()), serviceCpuUsPerAgent(),
                    second.cpu().fanoutMs(),
                    second.cpu().jettyMs(), second.cpu().gcMs(), second.cpu().jitMs(), rounds, baselineCpuMs,
                    serviceCpuTotalUsPerAgent(),
                    updateP50Ms, updateP99Ms, updateMaxMs, rate, pulls, pullP50Ms,
                    Double.isFinite(pullP99Ms) ? String.format(Locale.ROOT, "%.2f", pullP99Ms) : "null", rssMb,
                    parkSeconds, updateClientCpuMs, pullClientCpuPct(), load, updateFirstMs, updateServiceCpuMs,
                    pullServiceCpuMs / (pullSeconds * 10.0), f.p50Ms(), f.p99Ms(), first.read().p99Ms(),
                    num(first.delivered().p99Ms()),
                    first.serviceCpuMs(), first.jobPostMs(), byRoundJson(), warmMedian(cpuUsPerAgentByRound),
                    serviceJavaOpts().trim().replace("\\", "\\\\").replace("\"", "\\\""), readers, gc.collector(),
                    gc.count(), gc.maxMs(), gc.totalMs(), submitMs.length, pct(submitMs, 50), pct(submitMs, 99),
                    pct(submitMs, 100), partsJson);
        }

        /** A JSON number with 0.1 resolution, or null. */
        static String num(double v) {
            return Double.isFinite(v) ? String.format(Locale.ROOT, "%.1f", v) : "null";
        }

        private String byRoundJson() {
            StringBuilder b = new StringBuilder("[");
            for (double v : cpuUsPerAgentByRound) {
                b.append(b.length() > 1 ? "," : "").append(String.format(Locale.ROOT, "%.1f", v));
            }
            return b.append(']').toString();
        }

        /**
         * The fan-out's service CPU per agent reached, in µs (goal <= 10): the update's CPU (all
         * threads but the JIT compilers, from /proc schedstat) minus that of the same job change with
         * no agent waiting.
         */
        double serviceCpuUsPerAgent() {
            return updated == 0 ? Double.NaN : (second.cpu().withoutJitMs() - baselineCpuMs) * 1000.0 / updated;
        }

        /**
         * The median of the per-round figures of {@link #serviceCpuUsPerAgent} over the warm rounds
         * (all but the first, which also compiles the wake path): on a shared machine one round can
         * be slowed down by other work (the figure counts CPU time, but caches and cores are shared),
         * so the median says more than the last round alone.
         */
        static double warmMedian(double[] byRound) {
            if (byRound.length < 2) {
                return Double.NaN;
            }
            double[] warm = Arrays.copyOfRange(byRound, 1, byRound.length);
            Arrays.sort(warm);
            int m = warm.length / 2;
            return warm.length % 2 == 1 ? warm[m] : (warm[m - 1] + warm[m]) / 2;
        }

        /** The whole update's service CPU (job placement and commit included) per agent, µs. */
        double serviceCpuTotalUsPerAgent() {
            return updated == 0 ? Double.NaN : second.cpu().totalMs() * 1000.0 / updated;
        }

        /** The client's selector thread, as a share of one core over the pull phase. */
        double pullClientCpuPct() {
            return pullClientCpuMs / (pullSeconds * 10.0);
        }

        @SuppressWarnings("checkstyle:LineLength") // the printed table, one line of it a line here
        String table() {
            Spread fan = second.read();
            Spread kernel = second.delivered();
            return String.format(Locale.ROOT, """
                    variant                  %s (client: %s)
                    agents waiting           %d (over %d NICs; all parked in %.1f s)
                    agents updated           %d
                    job POST (ring, %d flows) %.1f ms (published to agents %.1f ms after the POST was sent)
                    fan-out delivered        first %s ms   p50 %s ms   p99 %s ms   max %s ms   (kernel receive stamp; goal p99 <= 100 ms)
                    fan-out read             first %.1f ms   p50 %.1f ms   p99 %.1f ms   max %.1f ms   (when the client read it)
                    connect GC (settled)     pause %s ms, GC threads %s ms (%s us per connection), before round 1
                    fan-out service CPU      %.1f us per agent (goal <= 10): %.0f ms update - %.0f ms same change, no agent
                                             by round %s, median of the warm rounds %.1f
                                             (JIT left out) threads: weft-fanout %.0f ms, jetty %.0f ms, GC %.0f ms, JIT %.0f ms
                    update (from the POST)   first %.1f ms   p50 %.1f ms   p99 %.1f ms   max %.1f ms
                    (round 1, cold)          p50 %.1f ms   p99 %.1f ms   fan-out read p99 %.1f ms   service CPU %.0f ms
                    pull latency at %d/s    p50 %.2f ms   p99 %.2f ms   (%d pulls; goal p99 <= 10 ms)
                    service RSS              %.0f MB with the agents waiting (goal <= 768 MB)
                    client CPU               %.0f ms for the update (%d reader threads); %.1f %% of a core while pulling
                    service CPU              %.0f ms for the update (%.1f us per agent, job included); %.1f %% of a core while pulling
                    GC (%s)          %d pauses, max %.1f ms, total %.1f ms (the whole run)
                    job submit (%d NICs)     p50 %.1f ms   p99 %.1f ms   max %.1f ms   (%d jobs, agents connected)
                    by round                 {%s}
                    load average             %s""",
                    variant, client, agents, nics, parkSeconds, updated, nics, jobPostMs, second.publishedAfterPostMs(),
                    num(kernel.firstMs()), num(kernel.p50Ms()), num(kernel.p99Ms()), num(kernel.maxMs()),
                    fan.firstMs(), fan.p50Ms(), fan.p99Ms(), fan.maxMs(), num(connect.pauseMs()),
                    num(connect.gcCpuMs()), num(connect.gcCpuUsPerConnection()), serviceCpuUsPerAgent(),
                    second.cpu().withoutJitMs(), baselineCpuMs, byRoundJson(), warmMedian(cpuUsPerAgentByRound),
                    second.cpu().fanoutMs(), second.cpu().jettyMs(),
                    second.cpu().gcMs(), second.cpu().jitMs(),
                    updateFirstMs, updateP50Ms, updateP99Ms, updateMaxMs, first.update().p50Ms(),
                    first.update().p99Ms(), first.read().p99Ms(), first.serviceCpuMs(), rate, pullP50Ms,
                    pullP99Ms, pulls, rssMb, updateClientCpuMs, readers, pullClientCpuPct(), updateServiceCpuMs,
                    serviceCpuTotalUsPerAgent(), pullServiceCpuMs / (pullSeconds * 10.0), gc.collector(), gc.count(),
                    gc.maxMs(), gc.totalMs(), SUBMIT_NICS, pct(submitMs, 50), pct(submitMs, 99), pct(submitMs, 100),
                    submitMs.length, partsJson.substring(1), load);
        }
    }

    /**
     * Open-loop pulls over a fixed pool of connections: a pull goes out on an idle connection at
     * once, else it queues (with its due time) until one is free. Runs its callbacks on the client's
     * selector thread.
     */
    static final class Puller {
        interface Done {
            void done(int status, long dueNanos, long atNanos);
        }

        private record Pending(byte[] request, long due) {
        }

        private final NioHttp nio;
        private final Done done;
        private final ConcurrentLinkedQueue<NioHttp.Conn> idle = new ConcurrentLinkedQueue<>();
        private final ConcurrentLinkedQueue<Pending> backlog = new ConcurrentLinkedQueue<>();

        Puller(NioHttp nio, int connections, Done done) throws IOException {
            this.nio = nio;
            this.done = done;
            for (int i = 0; i < connections; i++) {
                idle.add(nio.connect());
            }
        }

        void submit(byte[] request, long due) {
            backlog.add(new Pending(request, due));
            drain();
        }

        private void drain() {
            while (!backlog.isEmpty()) {
                NioHttp.Conn c = idle.poll();
                if (c == null) {
                    return;
                }
                Pending p = backlog.poll();
                if (p == null) {
                    idle.add(c);
                    return;
                }
                nio.send(c, p.request(), (st, body, at, published) -> {
                    idle.add(c);
                    done.done(st, p.due(), at);
                    drain();
                });
            }
        }
    }

    static Result run(DevstackEndpoints e, Path fabric, int agents, int nics, int rate, int seconds, boolean stream,
                      int rounds, int readers, boolean probeClient, boolean profile) throws Exception {
        int port = freePort();
        ChildService service = startService(e, fabric, nics, port);
        profiler = profile ? ServiceProfile.of(service.pid(), moduleTarget().resolve("bench-api-profile")) : null;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(30)).build();
        String base = "http://127.0.0.1:" + port;
        NioHttp nio = new NioHttp("127.0.0.1", port, readers);
        FanoutProbe probe = null;
        try {
            awaitHealthy(http, base, service);
            warmUp(http, nio, base, nics);
            double baselineCpuMs = baseline(http, base, service, nics);

            // 1-2. Park the agents, each on its own connection, at their NIC's version; one job touching
            // every NIC. Twice, on the same kept-alive connections (agents re-poll on theirs): the
            // first round also compiles the wake path (10,000 answers), the second is the service as
            // it runs for real. Both are reported.
            // Round 1 first settles the garbage of connecting every agent (settleConnections).
            List<Round> all = new ArrayList<>();
            if (probeClient) {
                probe = FanoutProbe.start(port, AGENT_TOKEN, agents, nics, stream, readers);
                System.err.println("bench: fanout-probe pid " + probe.pid() + ", scheduling " + probe.sched);
                double openSeconds = probe.open();
                if (stream) {
                    awaitGauge(http, base, "weft_agent_streams", agents, 180);
                }
                for (int k = 1; k <= rounds; k++) {
                    all.add(probeRound(http, base, service, probe, stream, agents, openSeconds, nics, "bench-" + k,
                            k == 1));
                }
            } else {
                NioHttp.Conn[] conns = new NioHttp.Conn[agents];
                for (int i = 0; i < agents; i++) {
                    conns[i] = nio.connect();
                    if (i % 200 == 199) {
                        Thread.sleep(10); // let the accept queue drain; this is a load test, not a SYN flood
                    }
                }
                Streams streams = stream ? openStreams(http, nio, base, conns, nics) : null;
                if (stream) {
                    connectGc = settleConnections(service, agents);
                }
                for (int k = 1; k <= rounds; k++) {
                    // The streaming variant: each agent holds one profile stream; a change is one event on it.
                    all.add(stream ? streamRound(http, nio, base, service, streams, nics, "bench-" + k)
                            : updateRound(http, nio, base, service, conns, nics, "bench-" + k, k == 1));
                }
            }
            Path gcLog = gcLog(moduleTarget());
            Round first = all.get(0);
            Round second = all.get(all.size() - 1);
            double[] byRound = new double[all.size()];
            for (int k = 0; k < byRound.length; k++) {
                Round r = all.get(k);
                byRound[k] = r.update().n() == 0 ? Double.NaN
                        : (r.cpu().withoutJitMs() - baselineCpuMs) * 1000.0 / r.update().n();
            }
            double rssMb = Math.max(first.rssMb(), second.rssMb());
            double parkSeconds = first.parkSeconds();
            double[] submitMs = submits(http, base, nics);

            // 3. Open-loop pulls at a fixed rate over a pool of kept-alive connections. A pull due
            // while every connection is busy waits for one, and that wait counts in its latency.
            ConcurrentLinkedQueue<Double> pull = new ConcurrentLinkedQueue<>();
            AtomicInteger failed = new AtomicInteger();
            int total = rate * seconds;
            CountDownLatch pulled = new CountDownLatch(total);
            Puller puller = new Puller(nio, PULL_CONNECTIONS, (st, due, at) -> {
                if (st == 200) {
                    pull.add((at - due) / 1e6);
                } else {
                    failed.incrementAndGet();
                }
                pulled.countDown();
            });
            byte[][] requests = new byte[nics][];
            for (int n = 0; n < nics; n++) {
                requests[n] = nio.get("/v1/agents/nic" + n + "/paths", AGENT_TOKEN);
            }
            double cpu1 = nio.cpuMs();
            double serviceCpu1 = cpuMs(service.pid());
            long intervalNs = 1_000_000_000L / rate;
            long start = System.nanoTime();
            for (int k = 0; k < total; k++) {
                long due = start + k * intervalNs;
                long now;
                while ((now = System.nanoTime()) < due) {
                    LockSupport.parkNanos(due - now);
                }
                puller.submit(requests[k % nics], due);
            }
            // A pull still unanswered 30 s after the last was sent counts as failed (the rate was not sustained).
            if (!pulled.await(30, TimeUnit.SECONDS)) {
                System.err.println("bench: " + pulled.getCount() + " of " + total + " pulls unanswered after 30 s");
            }
            double pullCpuMs = nio.cpuMs() - cpu1;
            double pullServiceCpuMs = cpuMs(service.pid()) - serviceCpu1;
            double[] p = sorted(new ArrayList<>(pull));
            int unanswered = total - p.length;
            // Unanswered pulls are slower than any answered one: p99 counts them as infinitely slow.
            double pullP99 = unanswered > total / 100 ? Double.POSITIVE_INFINITY : pct(p, 99);
            Spread u = second.update();
            // The whole run's pauses from the first round's POST on (the settled connect collection apart).
            GcPauses gc = GcPauses.read(gcLog, connectGc.gcLogLines());
            return new Result(agents, nics, second.jobPostMs(), u.p50Ms(), u.p99Ms(), u.maxMs(), u.n(),
                    pct(p, 50), pullP99, p.length, rate, rssMb, parkSeconds, second.clientCpuMs(), pullCpuMs, seconds,
                    loadAverage(), u.firstMs(), second.serviceCpuMs(), pullServiceCpuMs, first, second, baselineCpuMs,
                    stream ? "stream" : "long-poll", rounds, byRound, submitMs, gc, readers, partsJson(all),
                    probe == null ? "nio" : "fanout-probe (" + probe.sched + ")", connectGc, unstamped, restamped);
        } finally {
            if (probe != null) {
                probe.close();
            }
            nio.close();
            service.stop();
        }
    }

    /**
     * A few placements, pulls, long-polls woken by a release, first, so that the numbers are of a
     * warm JVM (JIT done) on both sides.
     */
    /** One job change with every agent parked: latencies (sorted, ms from the POST) and costs. */
    /**
     * One job change with every agent waiting: ms from the POST to each agent's read ({@code update}),
     * from the version's publish to the read ({@code read}) and to the kernel's receive stamp
     * ({@code delivered}; the probe only), and costs.
     */
    record Round(double jobPostMs, Spread update, double clientCpuMs, double serviceCpuMs, double rssMb,
                 double parkSeconds, Spread read, Spread delivered, double publishedAfterPostMs, ThreadCpu cpu,
                 RoundParts parts, ServiceProfile.Split profile) {
    }

    /**
     * Every round's parts, as JSON members (each a list by round): per agent reached, the fan-out
     * threads' user and system µs and the client's µs; PostgreSQL's CPU, the GC threads' CPU and the
     * GC pauses inside the round, ms; when the service had read the last profiles and woken its last
     * agent, and the client's fan-out p99, ms after the publish.
     */
    static String partsJson(List<Round> rounds) {
        StringBuilder b = new StringBuilder();
        member(b, "fanout_user_us_per_agent_by_round", rounds, r -> r.parts().fanoutUserMs() * 1000 / n(r));
        member(b, "fanout_system_us_per_agent_by_round", rounds, r -> r.parts().fanoutSystemMs() * 1000 / n(r));
        member(b, "client_cpu_us_per_agent_by_round", rounds, r -> r.clientCpuMs() * 1000 / n(r));
        member(b, "postgres_cpu_ms_by_round", rounds, r -> r.parts().postgresMs());
        b.append(String.format(Locale.ROOT, ",\"postgres_baseline_cpu_ms\":%.1f", baselinePostgresMs));
        member(b, "gc_thread_cpu_ms_by_round", rounds, r -> r.cpu().gcMs());
        member(b, "gc_pause_ms_by_round", rounds, r -> r.parts().gcPauseMs());
        member(b, "service_profiles_read_ms_by_round", rounds, r -> r.parts().profilesReadMs());
        member(b, "service_last_woken_ms_by_round", rounds, r -> r.parts().lastWokenMs());
        member(b, "backlog_drops_by_round", rounds, r -> r.parts().backlogDrops());
        member(b, "tcp_retrans_segs_by_round", rounds, r -> r.parts().tcpRetransSegs());
        member(b, "fanout_delivered_p50_ms_by_round", rounds, r -> r.delivered().p50Ms());
        member(b, "fanout_delivered_p99_ms_by_round", rounds, r -> r.delivered().p99Ms());
        member(b, "fanout_read_p99_ms_by_round", rounds, r -> r.read().p99Ms());
        if (profiler != null) {
            // Shares of the round's samples, %: sampling itself adds CPU (the µs figures above grow under
            // --profile), so apply a share to an unprofiled run's figures rather than read µs here.
            member(b, "service_receive_pct_by_round", rounds, r -> 100 * r.profile().receiveShare());
            member(b, "fanout_threads_receive_pct_by_round", rounds,
                    r -> 100 * r.profile().fanoutShare(r.profile().fanoutReceive()));
            member(b, "fanout_threads_send_pct_by_round", rounds,
                    r -> 100 * r.profile().fanoutShare(r.profile().fanoutSend()));
            member(b, "fanout_threads_jvm_pct_by_round", rounds, r -> 100 * r.profile().fanoutShare(
                    r.profile().fanout() - r.profile().fanoutReceive() - r.profile().fanoutSend()));
        }
        return b.toString();
    }

    private static double n(Round r) {
        return Math.max(1, r.update().n());
    }

    private static void member(StringBuilder b, String name, List<Round> rounds,
                               java.util.function.ToDoubleFunction<Round> value) {
        b.append(",\"").append(name).append("\":[");
        for (int k = 0; k < rounds.size(); k++) {
            double v = value.applyAsDouble(rounds.get(k));
            b.append(k == 0 ? "" : ",").append(Double.isFinite(v) ? String.format(Locale.ROOT, "%.1f", v) : "null");
        }
        b.append(']');
    }

    /**
     * Service CPU by thread kind, ms: the fan-out writers, Jetty's pool (which also runs the job
     * POST and the profile preload), the JIT compilers, the garbage collector, and all threads.
     */
    record ThreadCpu(double fanoutMs, double jettyMs, double jitMs, double gcMs, double totalMs) {
        ThreadCpu minus(ThreadCpu o) {
            return new ThreadCpu(fanoutMs - o.fanoutMs, jettyMs - o.jettyMs, jitMs - o.jitMs, gcMs - o.gcMs,
                    totalMs - o.totalMs);
        }

        /** Everything but the JIT compilers: their work is a warm-up, not a cost of each change. */
        double withoutJitMs() {
            return totalMs - jitMs;
        }
    }

    /**
     * CPU time of every thread of the process so far, from /proc/PID/task/TID/schedstat (ns, not
     * the 10 ms ticks of /proc/PID/stat), grouped by thread name. A thread that ended between two
     * readings drops out of the later one; the service's threads are pooled and live long.
     */
    static ThreadCpu threadCpu(long pid) {
        return threadCpu(pid, new java.util.TreeMap<>());
    }

    /** {@link #threadCpu(long)}, also summing CPU ms by thread name (digits dropped) into {@code byName}. */
    static ThreadCpu threadCpu(long pid, Map<String, Double> byName) {
        double fanout = 0;
        double jetty = 0;
        double jit = 0;
        double gc = 0;
        double total = 0;
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String comm = Files.readString(t.resolve("comm")).trim();
                    String sched = Files.readString(t.resolve("schedstat"));
                    double ms = Long.parseLong(sched.substring(0, sched.indexOf(' '))) / 1e6;
                    total += ms;
                    byName.merge(comm.replaceAll("[0-9]+", "#"), ms, Double::sum);
                    if (comm.startsWith("weft-fanout")) {
                        fanout += ms;
                    } else if (comm.startsWith("qtp") || comm.startsWith("jetty")) {
                        jetty += ms;
                    } else if (comm.contains("CompilerThre")) {
                        jit += ms;
                    } else if (comm.startsWith("GC ") || comm.startsWith("G1 ")) {
                        gc += ms;
                    }
                } catch (IOException | RuntimeException gone) {
                    // the thread ended while being read
                }
            }
        } catch (IOException e) {
            return new ThreadCpu(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        return new ThreadCpu(fanout, jetty, jit, gc, total);
    }

    /**
     * The same job change with no agent waiting: its service CPU (placement, commit, the POST's
     * answer; JIT compiler threads left out) is what {@code service_cpu_us_per_agent} leaves out. Median of three, each
     * job
     * released again so that the rounds start from the same state.
     */
    /** PostgreSQL's CPU for the same job change with no agent waiting (median of three), ms. */
    private static volatile double baselinePostgresMs = Double.NaN;

    private static double baseline(HttpClient http, String base, ChildService service, int nics) throws Exception {
        double[] ms = new double[3];
        double[] pg = new double[3];
        for (int k = 0; k < ms.length; k++) {
            double pg0 = RoundParts.postgresCpuMs();
            String job = "{\"name\":\"bench-0\",\"pattern\":\"ring\",\"endpoints\":[" + endpoints(nics)
                    + "],\"demandGbps\":10}";
            if (profiler != null) {
                profiler.start();
            }
            ThreadCpu c0 = threadCpu(service.pid());
            HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/jobs"))
                    .header("Authorization", "Bearer " + SCHED_TOKEN).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(job)).build(), HttpResponse.BodyHandlers.ofString());
            ms[k] = threadCpu(service.pid()).minus(c0).withoutJitMs();
            if (profiler != null) {
                profiler.stop("baseline-" + (k + 1)); // kept for reading (where the job change's CPU goes)
            }
            pg[k] = RoundParts.postgresCpuMs() - pg0;
            if (created.statusCode() != 201) {
                throw new IllegalStateException("job not created: " + created.statusCode() + " " + created.body());
            }
            String id = created.body().replaceAll("(?s).*?\"id\":\"([^\"]+)\".*", "$1");
            http.send(HttpRequest.newBuilder(URI.create(base + "/v1/jobs/" + id)).DELETE()
                    .header("Authorization", "Bearer " + SCHED_TOKEN).build(), HttpResponse.BodyHandlers.discarding());
        }
        Arrays.sort(ms);
        Arrays.sort(pg);
        baselinePostgresMs = pg[1];
        return ms[1];
    }

    /** The round's service CPU by thread name, largest first, on stderr (where the fan-out's time goes). */
    private static void printSplit(String round, Map<String, Double> before, Map<String, Double> after) {
        StringBuilder b = new StringBuilder("bench: " + round + " service CPU ms by thread:");
        after.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0.0)))
                .filter(e -> e.getValue() >= 1).sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(e -> b.append(String.format(Locale.ROOT, " %s=%.0f", e.getKey(), e.getValue())));
        System.err.println(b);
    }

    /** Per agent: ms from the version's publish (the service's clock, epoch µs) to its arrival. */
    private static double[] fanout(long[] doneAt, long[] publishedUs) {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < doneAt.length; i++) {
            if (doneAt[i] != 0 && publishedUs[i] != 0) {
                out.add((NioHttp.epochUs(doneAt[i]) - publishedUs[i]) / 1e3);
            }
        }
        return sorted(out);
    }

    /** The earliest publish time among the agents' answers, ms after the POST was sent. */
    private static double publishedAfterPost(long postEpochUs, long[] publishedUs) {
        long first = Long.MAX_VALUE;
        for (long p : publishedUs) {
            if (p != 0) {
                first = Math.min(first, p);
            }
        }
        return first == Long.MAX_VALUE ? Double.NaN : (first - postEpochUs) / 1e3;
    }

    private static Round updateRound(HttpClient http, NioHttp nio, String base, ChildService service,
                                     NioHttp.Conn[] conns, int nics, String name, boolean settle) throws Exception {
        int agents = conns.length;
        NioHttp.Conn setup = nio.connect();
        long[] since = new long[nics];
        for (int n = 0; n < nics; n++) {
            since[n] = versionOf(nio.call(setup, nio.get("/v1/agents/nic" + n + "/paths", AGENT_TOKEN))
                    .get(30, TimeUnit.SECONDS));
        }
        long parkStart = System.nanoTime();
        long[] doneAt = new long[agents];
        long[] publishedUs = new long[agents];
        int[] status = new int[agents];
        CountDownLatch answered = new CountDownLatch(agents);
        for (int i = 0; i < agents; i++) {
            int idx = i;
            nio.send(conns[i], nio.get("/v1/agents/nic" + (i % nics) + "/paths?since=" + since[i % nics] + "&wait=60",
                    AGENT_TOKEN), (st, body, at, published) -> {
                        doneAt[idx] = at;
                        publishedUs[idx] = published;
                        status[idx] = st;
                        if (st != 200 && FIRST_ERROR.compareAndSet(null, "status " + st)) {
                            System.err.println("bench: a long-poll ended with status " + st);
                        }
                        answered.countDown();
                    });
        }
        awaitWaiters(http, base, agents, 180);
        double parkSeconds = (System.nanoTime() - parkStart) / 1e9;
        double rssMb = rssMb(service.pid());

        if (settle) {
            connectGc = settleConnections(service, agents);
        }
        double cpu0 = nio.cpuMs();
        RoundClock clock = new RoundClock(service);
        clock.post(http, base, ringJob(name, nics));
        if (!answered.await(120, TimeUnit.SECONDS)) {
            System.err.println("bench: " + answered.getCount() + " of " + agents
                    + " long-polls unanswered after 120 s");
        }
        List<Double> update = new ArrayList<>();
        for (int i = 0; i < agents; i++) {
            if (status[i] == 200) {
                update.add((doneAt[i] - clock.t0) / 1e6);
            }
        }
        return clock.end(name, nio.cpuMs() - cpu0, rssMb, parkSeconds, Spread.of(sorted(update)),
                Spread.of(fanout(doneAt, publishedUs)), Spread.NONE, publishedAfterPost(NioHttp.epochUs(clock.t0),
                        publishedUs));
    }

    /** Open profile streams and, per round, when each agent got its first event after the job POST. */
    static final class Streams {
        final int agents;
        final double parkSeconds;
        volatile long[] doneAt;
        volatile long[] publishedUs;
        volatile CountDownLatch answered;

        Streams(int agents, double parkSeconds) {
            this.agents = agents;
            this.parkSeconds = parkSeconds;
        }
    }

    private static Streams openStreams(HttpClient http, NioHttp nio, String base, NioHttp.Conn[] conns, int nics)
            throws Exception {
        NioHttp.Conn setup = nio.connect();
        long[] since = new long[nics];
        for (int n = 0; n < nics; n++) {
            since[n] = versionOf(nio.call(setup, nio.get("/v1/agents/nic" + n + "/paths", AGENT_TOKEN))
                    .get(30, TimeUnit.SECONDS));
        }
        long start = System.nanoTime();
        Streams[] holder = new Streams[1];
        for (int i = 0; i < conns.length; i++) {
            int idx = i;
            nio.stream(conns[i], nio.getStream("/v1/agents/nic" + (i % nics) + "/paths/stream?since=" + since[i % nics],
                    AGENT_TOKEN), (at, published) -> {
                        Streams st = holder[0];
                        long[] done = st == null ? null : st.doneAt;
                        if (done != null && done[idx] == 0) {
                            done[idx] = at;
                            st.publishedUs[idx] = published;
                            st.answered.countDown();
                        }
                    });
        }
        awaitGauge(http, base, "weft_agent_streams", conns.length, 180);
        holder[0] = new Streams(conns.length, (System.nanoTime() - start) / 1e9);
        return holder[0];
    }

    /** One job change with every agent's stream open: latencies (ms from the POST) and costs. */
    private static Round streamRound(HttpClient http, NioHttp nio, String base, ChildService service, Streams streams,
                                     int nics, String name) throws Exception {
        double rssMb = rssMb(service.pid());
        long[] doneAt = new long[streams.agents];
        long[] publishedUs = new long[streams.agents];
        streams.answered = new CountDownLatch(streams.agents);
        streams.publishedUs = publishedUs;
        streams.doneAt = doneAt;
        double cpu0 = nio.cpuMs();
        RoundClock clock = new RoundClock(service);
        clock.post(http, base, ringJob(name, nics));
        if (!streams.answered.await(120, TimeUnit.SECONDS)) {
            System.err.println("bench: " + streams.answered.getCount() + " of " + streams.agents
                    + " streams got no event after 120 s");
        }
        List<Double> update = new ArrayList<>();
        for (long at : doneAt) {
            if (at != 0) {
                update.add((at - clock.t0) / 1e6);
            }
        }
        return clock.end(name, nio.cpuMs() - cpu0, rssMb, streams.parkSeconds, Spread.of(sorted(update)),
                Spread.of(fanout(doneAt, publishedUs)), Spread.NONE, publishedAfterPost(NioHttp.epochUs(clock.t0),
                        publishedUs));
    }

    /**
     * One job change with the fan-out probe's agents waiting (long-polls parked first, or streams
     * open): the probe's arrivals by kernel stamp and by read, and the service's costs.
     */
    private static Round probeRound(HttpClient http, String base, ChildService service, FanoutProbe probe,
                                    boolean stream, int agents, double openSeconds, int nics, String name,
                                    boolean settle) throws Exception {
        double parkSeconds = openSeconds;
        if (!stream) {
            long parkStart = System.nanoTime();
            probe.park();
            awaitWaiters(http, base, agents, 180);
            parkSeconds = (System.nanoTime() - parkStart) / 1e9;
        }
        double rssMb = rssMb(service.pid());
        if (settle) {
            connectGc = settleConnections(service, agents);
        }
        probe.arm();
        RoundClock clock = new RoundClock(service);
        clock.post(http, base, ringJob(name, nics));
        FanoutProbe.Round r = probe.await(120, NioHttp.epochUs(clock.t0));
        if (r.events() < agents) {
            System.err.println("bench: " + (agents - r.events()) + " of " + agents + " agents got no version after "
                    + "120 s (" + r.failed() + " connections failed)");
        }
        if (r.unstamped() > 0) {
            System.err.println("bench: " + r.unstamped() + " arrivals without a kernel receive stamp");
        }
        unstamped += r.unstamped();
        restamped += r.restamped();
        if (r.restamped() > 0) {
            System.err.println("bench: " + r.restamped() + " arrivals restamped by a later segment (left out)");
        }
        return clock.end(name, r.cpuMs(), rssMb, parkSeconds, r.update(), r.read(), r.delivered(),
                r.publishedMinUs() == 0 ? Double.NaN : (r.publishedMinUs() - NioHttp.epochUs(clock.t0)) / 1e3);
    }

    /** Arrivals the probe saw without a kernel stamp, over all rounds (expected 0). */
    private static int unstamped;
    /**
     * Arrivals whose kernel stamp a later segment on the same connection overwrote (a heartbeat that
     * TCP merged into the unread event), over all rounds: left out of {@code fanout_delivered_*}.
     */
    private static int restamped;

    /** The ring job over every NIC that each round submits. */
    private static String ringJob(String name, int nics) {
        return "{\"name\":\"" + name + "\",\"pattern\":\"ring\",\"endpoints\":[" + endpoints(nics)
                + "],\"demandGbps\":10}";
    }

    /**
     * A round's service-side measurement around its job POST: CPU by thread, the round's parts (GC,
     * PostgreSQL, the service's own fan-out line) and the POST's own time.
     */
    private static final class RoundClock {
        private final ChildService service;
        private final double serviceCpu0;
        private final Map<String, Double> names0 = new java.util.TreeMap<>();
        private final ThreadCpu threads0;
        private final RoundParts.Mark mark;
        long t0;
        private double jobPostMs;

        RoundClock(ChildService service) {
            this.service = service;
            if (profiler != null) {
                try {
                    profiler.start(); // before the CPU is read: loading the profiler is not the round's
                } catch (java.io.IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            this.serviceCpu0 = cpuMs(service.pid());
            this.threads0 = threadCpu(service.pid(), names0);
            this.mark = RoundParts.mark(service.pid(), gcLog(moduleTarget()), serviceLog());
        }

        void post(HttpClient http, String base, String job) throws Exception {
            t0 = System.nanoTime();
            HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/jobs"))
                    .header("Authorization", "Bearer " + SCHED_TOKEN).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(job)).build(), HttpResponse.BodyHandlers.ofString());
            jobPostMs = (System.nanoTime() - t0) / 1e6;
            if (created.statusCode() != 201) {
                throw new IllegalStateException("job not created: " + created.statusCode() + " " + created.body());
            }
        }

        /** The round, once the agents have been awaited. */
        Round end(String name, double clientCpuMs, double rssMb, double parkSeconds, Spread update, Spread read,
                  Spread delivered, double publishedAfterPostMs) throws InterruptedException {
            double serviceCpuMs = cpuMs(service.pid()) - serviceCpu0;
            Map<String, Double> names = new java.util.TreeMap<>();
            ThreadCpu threads = threadCpu(service.pid(), names).minus(threads0);
            ServiceProfile.Split profile = ServiceProfile.Split.NONE;
            if (profiler != null) {
                try {
                    profile = profiler.stop();
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(e);
                }
            }
            RoundParts parts = RoundParts.since(mark, service.pid(), gcLog(moduleTarget()), serviceLog());
            printSplit(name, names0, names);
            return new Round(jobPostMs, update, clientCpuMs, serviceCpuMs, Math.max(rssMb, rssMb(service.pid())),
                    parkSeconds, read, delivered, publishedAfterPostMs, threads, parts, profile);
        }
    }

    /** The one-time garbage collection after every agent connected: its pause and GC threads' CPU. */
    record ConnectGc(double pauseMs, double gcCpuMs, int connections, int gcLogLines) {
        static final ConnectGc NONE = new ConnectGc(Double.NaN, Double.NaN, 0, 0);

        double gcCpuUsPerConnection() {
            return connections == 0 ? Double.NaN : gcCpuMs * 1000.0 / connections;
        }
    }

    /** Set by the round that settles the connections' garbage (the first). */
    private static volatile ConnectGc connectGc = ConnectGc.NONE;

    /** With --profile: samples the service in each round (from the clock's start to its end). */
    private static volatile ServiceProfile profiler;

    /**
     * Collects, untimed, the garbage of connecting the agents before round 1: the first collection
     * after thousands of connections opened copies their state once (Jetty's exchange, the socket),
     * a cost of connecting, not of a fan-out; left alone it lands in whichever round comes first.
     * {@code jcmd PID GC.run} runs a full collection now; its pause (GC log) and the GC threads' CPU
     * are reported as {@code connect_gc_*}. Collections a round's own work causes stay in the round.
     */
    static ConnectGc settleConnections(ChildService service, int connections) throws Exception {
        Path gcLog = gcLog(moduleTarget());
        int from = GcPauses.lines(gcLog);
        ThreadCpu c0 = threadCpu(service.pid());
        Path jcmd = ProcessHandle.current().info().command().map(java -> Path.of(java).resolveSibling("jcmd"))
                .filter(Files::isExecutable).orElse(Path.of("jcmd"));
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(service.pid()), "GC.run")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(jcmd + " " + service.pid() + " GC.run failed");
        }
        ThreadCpu c1 = threadCpu(service.pid());
        GcPauses pauses = GcPauses.read(gcLog, from);
        System.err.printf(Locale.ROOT, "bench: connections settled: %d GC pauses, %.1f ms, GC threads %.1f ms%n",
                pauses.count(), pauses.totalMs(), c1.gcMs() - c0.gcMs());
        return new ConnectGc(pauses.totalMs(), c1.gcMs() - c0.gcMs(), connections, GcPauses.lines(gcLog));
    }

    /**
     * A normal job submission with the agents still connected: {@link #SUBMITS} rings over
     * {@link #SUBMIT_NICS} NICs, each POST timed (placement, commit, the publish to its agents) and the
     * job released again; ms, sorted.
     */
    private static double[] submits(HttpClient http, String base, int nics) throws Exception {
        List<Double> ms = new ArrayList<>();
        for (int k = 0; k < SUBMITS; k++) {
            StringBuilder eps = new StringBuilder();
            for (int i = 0; i < SUBMIT_NICS; i++) {
                eps.append(i == 0 ? "" : ",").append("\"nic").append((k * SUBMIT_NICS + i) % nics).append('"');
            }
            String job = "{\"name\":\"submit-" + k + "\",\"pattern\":\"ring\",\"endpoints\":[" + eps
                    + "],\"demandGbps\":10}";
            long t0 = System.nanoTime();
            HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/jobs"))
                    .header("Authorization", "Bearer " + SCHED_TOKEN).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(job)).build(), HttpResponse.BodyHandlers.ofString());
            ms.add((System.nanoTime() - t0) / 1e6);
            if (created.statusCode() != 201) {
                throw new IllegalStateException("job not created: " + created.statusCode() + " " + created.body());
            }
            String id = created.body().replaceAll("(?s).*?\"id\":\"([^\"]+)\".*", "$1");
            http.send(HttpRequest.newBuilder(URI.create(base + "/v1/jobs/" + id)).DELETE()
                    .header("Authorization", "Bearer " + SCHED_TOKEN).build(), HttpResponse.BodyHandlers.discarding());
        }
        return sorted(ms);
    }

    private static void warmUp(HttpClient http, NioHttp nio, String base, int nics) throws Exception {
        NioHttp.Conn setup = nio.connect();
        List<NioHttp.Conn> polls = new ArrayList<>();
        for (int n = 0; n < nics; n++) {
            polls.add(nio.connect());
        }
        for (int round = 0; round < 5; round++) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/jobs"))
                    .header("Authorization", "Bearer " + SCHED_TOKEN).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"warm-up\",\"pattern\":\"ring\","
                            + "\"endpoints\":[" + endpoints(nics) + "],\"demandGbps\":1}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            String id = r.body().replaceAll("(?s).*?\"id\":\"([^\"]+)\".*", "$1");
            CountDownLatch woken = new CountDownLatch(nics);
            for (int n = 0; n < nics; n++) {
                long v = versionOf(nio.call(setup, nio.get("/v1/agents/nic" + n + "/paths", AGENT_TOKEN))
                        .get(30, TimeUnit.SECONDS));
                nio.send(polls.get(n), nio.get("/v1/agents/nic" + n + "/paths?since=" + v + "&wait=30", AGENT_TOKEN),
                        (st, body, at, published) -> woken.countDown());
            }
            awaitWaiters(http, base, nics, 60);
            http.send(HttpRequest.newBuilder(URI.create(base + "/v1/jobs/" + id)).DELETE()
                    .header("Authorization", "Bearer " + SCHED_TOKEN).build(), HttpResponse.BodyHandlers.discarding());
            woken.await(40, TimeUnit.SECONDS);
        }
    }

    /** {@code "nic0","nic1",...} */
    private static String endpoints(int nics) {
        StringBuilder eps = new StringBuilder();
        for (int i = 0; i < nics; i++) {
            eps.append(i == 0 ? "" : ",").append("\"nic").append(i).append('"');
        }
        return eps.toString();
    }

    private static final Pattern VERSION = Pattern.compile("\"version\":(\\d+)");

    /** The profile's version; 0 for a NIC that never had a path (204). */
    static long versionOf(NioHttp.Response r) {
        if (r.status() == 204) {
            return 0;
        }
        if (r.status() != 200) {
            throw new IllegalStateException("profile pull answered " + r.status() + ": " + r.text());
        }
        Matcher m = VERSION.matcher(r.text());
        if (!m.find()) {
            throw new IllegalStateException("profile without a version: " + r.text());
        }
        return Long.parseLong(m.group(1));
    }

    /** User + system CPU time of a process so far, ms (Linux /proc, 100 ticks per second). */
    static double cpuMs(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // Fields after the command name, which is in parentheses and may contain spaces.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10.0;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    /** The module's target directory (where its jar, its libraries and the bench's logs are). */
    static Path moduleTarget() {
        return Path.of(SchedulerApiApplication.class.getProtectionDomain().getCodeSource().getLocation().getPath())
                .getParent();
    }

    /** The service as a child JVM with its real runtime classpath (module jar + target/lib), as deployed. */
    private static ChildService startService(DevstackEndpoints e, Path fabric, int nics, int port) {
        // The service's own timing of each fan-out (PathBoard's debug line), for service_last_woken_ms_by_round.
        return startService(e, fabric, nics, port, List.of("-Dlogging.level.io.weft.scheduler.agent.PathBoard=DEBUG"));
    }

    /** The service with these extra JVM options (system properties: log levels, settings). */
    static ChildService startService(DevstackEndpoints e, Path fabric, int nics, int port, List<String> extraJvm) {
        Path target = moduleTarget();
        StringBuilder nicList = new StringBuilder();
        for (int i = 0; i < nics; i++) {
            nicList.append(i == 0 ? "" : ",").append("nic").append(i);
        }
        List<String> jvm = new ArrayList<>(Arrays.asList(serviceJavaOpts().trim().split("\\s+")));
        // Every pause, for gc_pause_max_ms (the collector is the deployment's choice: see docs/OPERATIONS.md).
        jvm.add("-Xlog:gc:file=" + gcLog(target));
        Map<String, String> env = Map.of(
                "WEFT_JDBC_URL", e.jdbcUrl(),
                "WEFT_JDBC_USER", e.jdbcUser(),
                "WEFT_JDBC_PASSWORD", e.jdbcPassword(),
                "WEFT_KAFKA_BOOTSTRAP", "",
                "WEFT_FABRIC_FILE", fabric.toString(),
                "WEFT_SCHEDULER_PORT", Integer.toString(port),
                "WEFT_TOKENS", "bench:scheduler=" + SCHED_TOKEN + ";benchop:operator=" + OPERATOR_TOKEN
                        + ";agents:agent:" + nicList + "=" + AGENT_TOKEN,
                "WEFT_SCHEDULER_SCHEMA", "bench_" + System.nanoTime());
        jvm.addAll(extraJvm);
        System.err.println("bench: service log " + serviceLog());
        return ChildService.startWithJvmOptions(target.getParent().getParent(), target, "bench-api-service",
                "scheduler-api", SchedulerApiApplication.class.getName(), jvm, env, List.of());
    }

    static Path serviceLog() {
        return moduleTarget().resolve("bench-api-service.log");
    }

    static Path gcLog(Path target) {
        return target.resolve("bench-api-gc.log");
    }

    /**
     * The service's JVM options: $WEFT_SERVICE_JAVA_OPTS, else as {@code ./weft run scheduler} starts it
     * (a 640 MB heap, the parallel collector, a class-metadata threshold above what it loads:
     * docs/OPERATIONS.md).
     */
    static String serviceJavaOpts() {
        return System.getenv().getOrDefault("WEFT_SERVICE_JAVA_OPTS",
                "-Xmx640m -XX:+UseParallelGC -XX:MetaspaceSize=96m");
    }

    static void awaitHealthy(HttpClient http, String base, ChildService service) throws Exception {
        for (int i = 0; i < 600; i++) {
            if (!service.isAlive()) {
                throw new IllegalStateException("the service exited; its log ends:\n" + service.tail(40));
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/jobs"))
                        .header("Authorization", "Bearer " + SCHED_TOKEN).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    // The fabric file is loaded on ApplicationReady: wait until agents' NICs are known too.
                    HttpResponse<String> a = http.send(HttpRequest.newBuilder(URI.create(base
                            + "/v1/agents/nic0/paths"))
                            .header("Authorization", "Bearer " + AGENT_TOKEN).build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (a.statusCode() == 200) {
                        return;
                    }
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the service did not become ready in 120 s");
    }

    private static void awaitWaiters(HttpClient http, String base, int n, int timeoutS) throws Exception {
        awaitGauge(http, base, "weft_longpoll_waiters", n, timeoutS);
    }

    private static void awaitGauge(HttpClient http, String base, String name, int n, int timeoutS) throws Exception {
        Pattern gauge = Pattern.compile("(?m)^" + name + "\\{[^}]*} ([0-9.E]+)");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        int seen = -1;
        while (System.nanoTime() < deadline) {
            String body = http.send(HttpRequest.newBuilder(URI.create(base + "/actuator/prometheus")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Matcher m = gauge.matcher(body);
            if (m.find()) {
                seen = (int) Double.parseDouble(m.group(1));
                if (seen >= n) {
                    return;
                }
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("only " + seen + " of " + n + " " + name + " after " + timeoutS + " s");
    }

    /** A 2-tier leaf-spine: {@code leaves} leaves, 8 spines, 16 NICs per leaf, 400G everywhere. */
    static String leafSpine(int leaves) {
        StringBuilder nodes = new StringBuilder();
        StringBuilder links = new StringBuilder();
        for (int s = 0; s < SPINES; s++) {
            nodes.append(String.format("{\"id\":\"spine%d\",\"role\":\"spine\"},", s));
        }
        int nic = 0;
        for (int l = 0; l < leaves; l++) {
            nodes.append(String.format("{\"id\":\"leaf%d\",\"role\":\"leaf\"},", l));
            for (int s = 0; s < SPINES; s++) {
                links.append(String.format("{\"id\":\"leaf%d-spine%d\",\"a\":{\"node\":\"leaf%d\",\"port\":\"up%d\"},"
                        + "\"b\":{\"node\":\"spine%d\",\"port\":\"down%d\"},\"capacityGbps\":400},", l, s, l, s, s, l));
            }
            for (int h = 0; h < NICS_PER_LEAF; h++, nic++) {
                nodes.append(String.format("{\"id\":\"nic%d\",\"role\":\"nic\"},", nic));
                links.append(String.format("{\"id\":\"nic%d-leaf%d\",\"a\":{\"node\":\"nic%d\",\"port\":\"eth0\"},"
                        + "\"b\":{\"node\":\"leaf%d\",\"port\":\"host%d\"},\"capacityGbps\":400},", nic, l, nic, l, h));
            }
        }
        nodes.setLength(nodes.length() - 1);
        links.setLength(links.length() - 1);
        return "{\"schemaVersion\":1,\"id\":\"bench-ls\",\"family\":\"leaf-spine\",\"srv6\":{\"block\":\"fcbb:bb00::/"
                + "32\"},"
                + "\"nodes\":[" + nodes + "],\"links\":[" + links + "]}";
    }

    static double rssMb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }

    static double[] sorted(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        return a;
    }

    /** Nearest-rank percentile (p in 1..100); NaN for no samples. */
    static double pct(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
