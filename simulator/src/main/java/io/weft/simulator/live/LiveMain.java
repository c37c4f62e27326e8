package io.weft.simulator.live;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.weft.auth.KafkaClientSecurity;
import io.weft.contracts.Topics;
import io.weft.fabric.Role;
import io.weft.plan.FabricPlan;
import io.weft.simulator.scenario.IncidentScript;
import io.weft.simulator.scenario.IncidentScriptReader;
import io.weft.simulator.scenario.ScenarioException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * Live mode: the simulator plays the demo's fabric. It follows the controller's snapshot on
 * {@code weft.fabric}, plays every NIC's agent on scheduler-api's agent API, writes every switch
 * port's counters to {@code weft.telemetry.interfaces} every tick in gnmic's event format, and runs
 * an incident ({@link Incident}). Stops cleanly on SIGTERM / SIGINT.
 */
public final class LiveMain implements AutoCloseable {
    static final String INTERFACES_TOPIC = Topics.TELEMETRY_INTERFACES;

    /** Command-line options; tokens may also come from the environment. */
    record Options(String kafka, URI scheduler, String agentToken, String schedulerToken, String fabricId,
                   long tickMs, IncidentScript incident) {
    }

    private final Options options;
    private final PrintStream out;
    private final KafkaProducer<String, String> producer;
    private final AtomicReference<LiveFabric> fabric = new AtomicReference<>();
    private final CountDownLatch firstPlan = new CountDownLatch(1);
    private final SnapshotFollower snapshots;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "live-tick");
        t.setDaemon(true);
        return t;
    });
    /** How long the incident waits for scheduler-api (started at the same time by ./weft demo). */
    private static final Duration SCHEDULER_WAIT = Duration.ofSeconds(300);
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final long[] tickCpuNs = new long[600];
    private int ticks;
    private long lateTicks;
    private long lastTickStartNs = -1;
    /** Flow reports every second at the default tick, as nic-agent sends them. */
    private static final int REPORT_EVERY_TICKS = 10;
    private final FlowReporter reporter;
    private AgentPlayer agents;
    private HotspotWatcher hotspots;
    private Incident incident;
    private final List<Thread> threadsStarted = new ArrayList<>();
    /** Principal weft-live-fabric of contracts/topics.json: WEFT_KAFKA_* from the environment. */
    private final KafkaClientSecurity login = KafkaClientSecurity.fromEnvironment();

    LiveMain(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
        Properties p = login.applyTo(new Properties());
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.kafka());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.ACKS_CONFIG, "1");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
        this.reporter = new FlowReporter(options.scheduler(), options.agentToken());
        this.snapshots = new SnapshotFollower(options.kafka(), login, options.fabricId(), this::onPlan);
    }

    public static void main(String[] args) {
        Options o;
        try {
            o = parse(args);
        } catch (ParameterException | IllegalArgumentException | ScenarioException e) {
            System.err.println("live: " + e.getMessage() + " (see --help)");
            System.exit(2);
            return;
        }
        if (o == null) {
            System.out.print(usage());
            return;
        }
        LiveMain live = new LiveMain(o, System.out);
        Runtime.getRuntime().addShutdownHook(new Thread(live::close, "live-stop"));
        try {
            live.start();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            System.err.println("live: " + e.getMessage());
            System.exit(1);
        }
        try {
            Thread.currentThread().join(); // until a signal runs the shutdown hook
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for the controller's first snapshot, then ticks, plays the agents and starts the incident. */
    void start() throws InterruptedException {
        startThread(snapshots, "live-snapshots");
        if (!firstPlan.await(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no fabric snapshot on " + SnapshotFollower.TOPIC + " within 120 s");
        }
        if (options.incident() != null) {
            // ./weft demo starts this with scheduler-api: the incident's clock starts once it places.
            awaitScheduler();
        }
        LiveFabric f = fabric.get();
        ticker.scheduleAtFixedRate(this::tickSafely, 0, options.tickMs(), TimeUnit.MILLISECONDS);
        ticker.scheduleAtFixedRate(this::reportTicks, 30, 30, TimeUnit.SECONDS);
        if (options.incident() != null) {
            incident = new Incident(options.incident(), f, options.scheduler(), options.schedulerToken(), out);
            hotspots = new HotspotWatcher(options.kafka(), login, incident::onHotspot);
            startThread(hotspots, "live-hotspots");
        }
        agents = new AgentPlayer(options.scheduler(), options.agentToken(), f,
                (nic, changes) -> {
                    if (incident != null) {
                        incident.onProfile(nic, changes);
                    }
                });
        agents.follow(nics(f.plan()));
        FabricPlan plan = f.plan();
        say(String.format(Locale.ROOT, "fabric %s: %d switches, %d NICs; counters of every switch port to %s"
                        + " every %d ms; agents long-poll %s", plan.fabric().id(), f.switchCount(), nics(plan).size(),
                INTERFACES_TOPIC, options.tickMs(), options.scheduler()));
        if (incident != null) {
            startThread(incident, "live-incident");
        }
    }

    /** Polls scheduler-api's {@code GET /v1/fabric} until it answers 200 (it places on a snapshot). */
    private void awaitScheduler() throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest get = HttpRequest.newBuilder(options.scheduler().resolve("/v1/fabric"))
                .header("Authorization", "Bearer " + options.schedulerToken()).timeout(Duration.ofSeconds(5)).GET()
                .build();
        long deadline = System.nanoTime() + SCHEDULER_WAIT.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            try {
                int status = http.send(get, HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status == 200) {
                    return;
                }
                last = "HTTP " + status;
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("scheduler-api at " + options.scheduler() + " did not place on a fabric within "
                + SCHEDULER_WAIT.toSeconds() + " s (last: " + last + ")");
    }

    Incident incident() {
        return incident;
    }

    LiveFabric fabric() {
        return fabric.get();
    }

    private void onPlan(FabricPlan plan) {
        LiveFabric f = fabric.get();
        if (f == null) {
            fabric.set(new LiveFabric(plan));
            firstPlan.countDown();
            return;
        }
        f.setPlan(plan);
        if (agents != null) {
            agents.follow(nics(plan));
        }
    }

    private void tickSafely() {
        long cpu0 = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        try {
            if (lastTickStartNs > 0 && start - lastTickStartNs > options.tickMs() * 1_500_000L) {
                lateTicks++;
            }
            lastTickStartNs = start;
            Instant now = Instant.now();
            long ns = now.getEpochSecond() * 1_000_000_000L + now.getNano();
            for (Map.Entry<String, String> e : fabric.get().tick(ns).entrySet()) {
                producer.send(new ProducerRecord<>(INTERFACES_TOPIC, e.getKey(), e.getValue()));
            }
            if (ticks % REPORT_EVERY_TICKS == 0) {
                reporter.report(fabric.get().flowSamples());
            }
        } catch (RuntimeException e) {
            // A thrown exception would cancel every later tick: report it and keep ticking.
            System.err.println("live: tick failed: " + e);
        }
        synchronized (tickCpuNs) {
            tickCpuNs[ticks++ % tickCpuNs.length] = threads.getCurrentThreadCpuTime() - cpu0;
        }
    }

    /** Prints the tick's CPU cost over the last minute at most: whether the fabric keeps up with its ticks. */
    private void reportTicks() {
        long[] c;
        int n;
        synchronized (tickCpuNs) {
            n = Math.min(ticks, tickCpuNs.length);
            c = Arrays.copyOf(tickCpuNs, n);
        }
        if (n == 0) {
            return;
        }
        Arrays.sort(c);
        say(String.format(Locale.ROOT, "%d ticks so far, last %d: CPU p50 %.2f ms, p99 %.2f ms, max %.2f ms;"
                        + " %d started late (> 1.5 x %d ms)", ticks, n, c[n / 2] / 1e6, c[(int) (n * 0.99)] / 1e6,
                c[n - 1] / 1e6, lateTicks, options.tickMs()));
    }

    private void startThread(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        threadsStarted.add(t);
    }

    static List<String> nics(FabricPlan plan) {
        List<String> out = new ArrayList<>();
        plan.fabric().nodesWithRole(Role.NIC).forEach(n -> out.add(n.id()));
        return out;
    }

    private void say(String line) {
        out.println("live: " + line);
        out.flush();
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        if (agents != null) {
            agents.close();
        }
        if (hotspots != null) {
            hotspots.close();
        }
        snapshots.close();
        for (Thread t : threadsStarted) {
            if (t.getName().equals("live-incident")) {
                t.interrupt();
            }
        }
        producer.close(java.time.Duration.ofSeconds(2));
    }

    /** Parses the command line (environment variables give some defaults); null means --help was asked. */
    static Options parse(String[] args) throws ScenarioException {
        Flags f = new Flags();
        CommandLine line = new CommandLine(f).setOverwrittenOptionsAllowed(true); // a later flag wins
        line.parseArgs(args);
        if (line.isUsageHelpRequested()) {
            return null;
        }
        if (f.tickMs < 10 || f.tickMs > 60_000) {
            throw new IllegalArgumentException("--tick-ms: " + f.tickMs + " is not in 10..60000");
        }
        if (f.kafka == null || f.kafka.isEmpty()) {
            throw new IllegalArgumentException("--kafka: missing (or WEFT_KAFKA_BOOTSTRAP)");
        }
        if (f.agentToken == null || f.agentToken.isEmpty()) {
            throw new IllegalArgumentException("--agent-token: missing (or WEFT_LIVE_AGENT_TOKEN)");
        }
        IncidentScript incident = f.noIncident ? null
                : f.scenario != null ? IncidentScriptReader.read(f.scenario) : IncidentScriptReader.defaultScript();
        if (incident != null && (f.schedulerToken == null || f.schedulerToken.isEmpty())) {
            throw new IllegalArgumentException("--scheduler-token: missing (or WEFT_LIVE_SCHEDULER_TOKEN);"
                    + " the incident places jobs");
        }
        return new Options(f.kafka, f.scheduler, f.agentToken, f.schedulerToken, f.fabricId, f.tickMs, incident);
    }

    static String usage() {
        return new CommandLine(new Flags()).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    /** The flags as picocli binds them; parse checks what depends on more than one. */
    @Command(name = "live", sortOptions = false,
            description = "The simulated fabric: follows the snapshot, plays every NIC agent, writes switch counters "
                    + "to Kafka and runs the incident.")
    static final class Flags {
        @Option(names = "--kafka", paramLabel = "HOST:PORT", description = "Kafka (default: $WEFT_KAFKA_BOOTSTRAP)")
        String kafka = System.getenv("WEFT_KAFKA_BOOTSTRAP");

        @Option(names = "--scheduler", paramLabel = "URL", defaultValue = "http://127.0.0.1:8082",
                description = "scheduler-api (default ${DEFAULT-VALUE})")
        URI scheduler;

        @Option(names = "--agent-token", paramLabel = "TOKEN",
                description = "bearer token of the NIC agents (default: $WEFT_LIVE_AGENT_TOKEN)")
        String agentToken = System.getenv("WEFT_LIVE_AGENT_TOKEN");

        @Option(names = "--scheduler-token", paramLabel = "TOKEN",
                description = "bearer token the incident places jobs with (default: $WEFT_LIVE_SCHEDULER_TOKEN)")
        String schedulerToken = System.getenv("WEFT_LIVE_SCHEDULER_TOKEN");

        @Option(names = "--fabric-id", paramLabel = "ID", description = "follow this fabric (default: the first seen)")
        String fabricId;

        @Option(names = "--tick-ms", paramLabel = "N", defaultValue = "100",
                description = "counter period, 10..60000 (default ${DEFAULT-VALUE})")
        long tickMs;

        @Option(names = "--scenario", paramLabel = "FILE",
                description = "the incident to run (default: the built-in one)")
        Path scenario;

        @Option(names = "--no-incident", description = "run no incident")
        boolean noIncident;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
        boolean help;
    }
}
