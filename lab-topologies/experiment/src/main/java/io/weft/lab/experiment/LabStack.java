package io.weft.lab.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import io.weft.devstack.Devstack;
import io.weft.devstack.DevstackEndpoints;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.harness.ChildService;
import io.weft.harness.Http;
import io.weft.harness.SpringBootInstances;
import io.weft.harness.Waits;
import io.weft.lab.netns.NetnsLab;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;

/**
 * Every part of Weft around the namespace lab, each real and in its own process: the devstack (in
 * this JVM), the lab (one weft-switch gNMI agent per switch), the standalone controller provisioning
 * those switches from the lab's {@code fabric-gnmi.json} and publishing {@code weft.fabric},
 * weft-telemetry sampling the switches into {@code weft.telemetry.interfaces}, the telemetry
 * collector (queue-drop rule on), two scheduler-apis (loop off and loop on, each in its own schema,
 * started while the lab is built, so that neither run waits for a start) and per
 * run one nic-agent per host NIC of the job, following the run's scheduler-api. {@link #close} removes everything it
 * started, in reverse order; it is also
 * what the CLI's shutdown hook runs on Ctrl-C.
 *
 * <p>Not merged with system-tests' {@code WeftSystem} (a JUnit fixture with scripted switches in the
 * test JVM): this stack runs real switch agents, weft-telemetry and nic-agents around a kernel data
 * plane for a command-line experiment. Both start, wait on and report services through the one
 * harness ({@code io.weft.harness}).
 */
final class LabStack implements AutoCloseable {
    static final String SCHEDULER_TOKEN = "experiment-scheduler-token-0123456789";
    static final String AGENT_TOKEN = "experiment-agent-token-0123456789";
    /** Every leaf uplink gets a TBF this fast from the start, so a throttle is a rate change of a live queue. */
    static final double LINE_MBIT = 10_000;
    /** Readiness limit of each step: at load 70 on 2 shared cores the collector took over 120 s. */
    private static final Duration READY = Duration.ofSeconds(300);
    private static final String QUIET_KAFKA = "--logging.level.org.apache.kafka=WARN";

    final ExperimentOptions options;
    final Path root;
    final Path dir;
    final FabricPlan plan;
    final NetnsLab lab;
    /** The job's endpoints, in ring order: the first -> second flow is the one the throttle hits. */
    final List<String> jobNics;
    /** The hit flow's source leaf: its uplinks carry the throttle's TBF. */
    final String sourceLeaf;
    private final Consumer<String> progress;
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private final List<ChildService> children = new ArrayList<>();
    private Devstack devstack;
    private DevstackEndpoints endpoints;
    private int collectorPort;
    /** The scheduler-api the agents follow now (one of {@link #schedulers}), and its port. */
    private ChildService scheduler;
    private int schedulerPort;
    /** scheduler-api with the loop off [0] and on [1] (one JVM, two instances); null once stopped. */
    private final ChildService[] schedulers = new ChildService[2];
    private final int[] schedulerPorts = new int[2];
    private final List<Process> agents = new ArrayList<>();
    private Path agentBin;
    private boolean closed;

    LabStack(ExperimentOptions options, Path root, Consumer<String> progress) throws Exception {
        this.options = options;
        this.root = root;
        this.dir = options.out().toAbsolutePath();
        this.progress = progress;
        Fabric fabric;
        if (options.fabric().equals("ft4")) {
            // The k=4 fat-tree: a 4-flow ring over one NIC of each pod, every flow through the superspines.
            fabric = io.weft.lab.fabric.FatTreeGenerator.generate(io.weft.lab.fabric.FatTreeGenerator.kary(4));
            jobNics = List.of("p1-leaf1-nic1", "p2-leaf1-nic1", "p3-leaf1-nic1", "p4-leaf1-nic1");
        } else {
            // The paper's shape: two hosts, two disjoint paths.
            fabric = FabricJson.read(root.resolve("contracts/examples/leaf-spine-2x2.json"));
            jobNics = List.of("nic1", "nic3");
        }
        this.plan = Planner.plan(fabric, null);
        this.sourceLeaf = plan.attachment(jobNics.get(0)).to();
        this.lab = new NetnsLab(plan, options.tag()).stateDir(dir.resolve("lab"));
    }

    int collectorPort() {
        return collectorPort;
    }

    int schedulerPort() {
        return schedulerPort;
    }

    /** Builds everything but the scheduler and the agents. On failure removes what it built and throws. */
    synchronized void start() throws Exception {
        Files.createDirectories(dir);
        Path bin = dir.resolve("bin");
        progress.accept("building the nic-agent and weft-telemetry (go build)");
        agentBin = GoBinaries.nicAgent(root, bin);
        Path telemetryBin = GoBinaries.telemetry(root, bin);

        // The lab and the services that do not need it start at once: the devstack, then the two
        // scheduler-apis and the collector (their JVMs take the longest) while the lab is built; the
        // controller and weft-telemetry once it is up. On a busy shared machine this is most of the
        // experiment's set-up time.
        progress.accept("building the " + options.fabric() + " lab (switches configured over gNMI); meanwhile "
                + "starting the devstack (Kafka, PostgreSQL), two scheduler-apis and the collector");
        collectorPort = freePort();
        pushStarted(lab::down);
        ExecutorService side = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "experiment-services");
            t.setDaemon(true);
            return t;
        });
        Future<Void> services;
        try {
            services = side.submit(() -> {
                startDevstackAndServices();
                return null;
            });
            try {
                lab.up(NetnsLab.Progress.NONE);
                for (String uplink : uplinks()) {
                    lab.shape(sourceLeaf, uplink, LINE_MBIT);
                }
            } catch (Exception | Error e) {
                // Let the other thread finish starting, so that close() finds everything it started.
                try {
                    services.get();
                } catch (ExecutionException other) {
                    e.addSuppressed(other.getCause());
                }
                throw e;
            }
            try {
                services.get();
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                throw c instanceof Exception ex ? ex : new IllegalStateException(c);
            }
        } finally {
            side.shutdownNow();
        }

        progress.accept("starting the controller and weft-telemetry");
        int controllerPort = freePort();
        ChildService controller = child("controller", "controller-app/standalone",
                "io.weft.controller.standalone.StandaloneController", "256m",
                Map.of("WEFT_KAFKA_BOOTSTRAP", endpoints.kafkaBootstrapServers()),
                List.of("--fabric", lab.labDir().resolve(NetnsLab.GNMI_FABRIC_FILE).toString(),
                        "--http-port", Integer.toString(controllerPort), "--state-dir",
                                dir.resolve("controller").toString(),
                        // The experiment's throttle is a tc change, not an intent drift; no read-back needed.
                        "--gnmi-resync-ms", "3600000"));
        Process telemetry = new ProcessBuilder(telemetryBin.toString(), "--brokers", endpoints.kafkaBootstrapServers(),
                "--targets-file", lab.labDir().resolve("gnmi-targets.txt").toString(),
                "--interval", options.intervalMs() + "ms")
                .redirectErrorStream(true).redirectOutput(dir.resolve("weft-telemetry.log").toFile()).start();
        pushStarted(() -> stop(telemetry));
        await("controller GET /healthz", () -> Http.get(controllerPort, "/healthz", null).status() == 200);
        await("collector Kafka Streams RUNNING", () -> {
            Http.Reply r = Http.get(collectorPort, "/v1/status", null);
            return r.status() == 200 && r.body().path("streams").asText().equals("RUNNING");
        });
        String probe = uplinks().get(0);
        await("collector loads of " + probe + " (weft-telemetry -> Kafka -> collector)", () -> {
            if (!telemetry.isAlive()) {
                throw new IllegalStateException("weft-telemetry exited; see " + dir.resolve("weft-telemetry.log"));
            }
            Http.Reply r = Http.get(collectorPort, "/v1/links/" + probe + "/series", null);
            return r.status() == 200 && r.body().path("points").size() > 0;
        });
    }

    /** The devstack, then (without waiting for them) both scheduler-apis and the collector; needs no lab. */
    private void startDevstackAndServices() throws Exception {
        Path devDir = dir.resolve("devstack");
        deleteTree(devDir);
        Devstack d = Devstack.builder().stateDir(devDir).kafkaPort(0).postgresPort(0).postgresFromTemplate(true)
                .start();
        pushStarted(d);
        devstack = d;
        endpoints = d.endpoints();
        launchSchedulers();
        Map<String, String> collectorEnv = new HashMap<>(db());
        collectorEnv.put("WEFT_TELEMETRY_PORT", Integer.toString(collectorPort));
        Path streams = dir.resolve("collector-streams");
        deleteTree(streams);
        collectorEnv.put("WEFT_TELEMETRY_STATE_DIR", streams.toString());
        // Loopback only, like the demo: the experiment reads hotspots and series without a token.
        collectorEnv.put("WEFT_COLLECTOR_READS", "open");
        child("telemetry-collector", "telemetry-collector", "io.weft.telemetry.TelemetryCollectorApplication", "512m",
                collectorEnv, List.of(QUIET_KAFKA,
                        "--weft.telemetry.detection.samples-to-enter=" + options.samplesToEnter(),
                        "--weft.telemetry.detection.high-drop-fraction=" + options.dropFraction(),
                        "--weft.telemetry.detection.low-drop-fraction=" + options.dropFraction() / 5,
                        "--weft.telemetry.detection.at-once-drop-fraction=" + options.atOnceDropFraction()));
    }

    /** Remembers what to stop on close; the lab and the services start on two threads. */
    private void pushStarted(AutoCloseable c) {
        synchronized (started) {
            started.push(c);
        }
    }

    /**
     * Starts both scheduler-apis without waiting, as two instances in one JVM
     * ({@link SpringBootInstances}: the second shares the first's loaded classes and compiled code,
     * where a second JVM cost as much CPU as the first): loop off and loop on, each on its own port
     * and in its own schema of the devstack's database, so neither sees the other's jobs (the loop-on
     * one follows weft.hotspots from the start but has no flow to move until its own run).
     */
    private void launchSchedulers() throws java.sql.SQLException, java.net.URISyntaxException {
        List<String> args = new ArrayList<>(List.of("io.weft.scheduler.SchedulerApiApplication"));
        for (int i = 0; i < 2; i++) {
            boolean loop = i == 1;
            String schema = "experiment_loop_" + (loop ? "on" : "off");
            try (java.sql.Connection c = java.sql.DriverManager.getConnection(endpoints.jdbcUrl(), endpoints.jdbcUser(),
                    endpoints.jdbcPassword()); java.sql.Statement st = c.createStatement()) {
                st.execute("create schema if not exists " + schema);
            }
            schedulerPorts[i] = freePort();
            if (i > 0) {
                args.add("--");
            }
            // The variables application.yml reads, given per instance as arguments (they win over the environment).
            args.addAll(List.of(QUIET_KAFKA, "--weft.reroute.enabled=" + loop, "--weft.reroute.interval-ms=200",
                    "--WEFT_JDBC_URL=" + endpoints.jdbcUrl() + (endpoints.jdbcUrl().contains("?") ? "&" : "?")
                            + "currentSchema=" + schema,
                    "--WEFT_SCHEDULER_SCHEMA=" + schema, "--WEFT_SCHEDULER_PORT=" + schedulerPorts[i]));
        }
        Map<String, String> env = new HashMap<>(db());
        env.remove("WEFT_JDBC_URL");
        env.put("WEFT_TOKENS", "experiment:scheduler=" + SCHEDULER_TOKEN + ";agents:agent:"
                + String.join(",", plan.nics()) + "=" + AGENT_TOKEN);
        Path launcher = Path.of(SpringBootInstances.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ChildService jvm = ChildService.start(root, dir, "scheduler-api", "scheduler-api",
                SpringBootInstances.class.getName(), "768m", env, args, List.of(launcher));
        schedulers[0] = jvm;
        schedulers[1] = jvm;
    }

    /**
     * Points the job's nic-agents at the scheduler-api with the loop on or off (once it places on the
     * controller's snapshot). The other instance stays up, idle: it shares the JVM.
     */
    synchronized void useScheduler(boolean loop) throws Exception {
        stopAgents();
        int i = loop ? 1 : 0;
        if (schedulers[i] == null) {
            throw new IllegalStateException("scheduler-api with the loop " + (loop ? "on" : "off") + " was stopped");
        }
        scheduler = schedulers[i];
        schedulerPort = schedulerPorts[i];
        await("scheduler-api placing on the controller's snapshot", () -> {
            scheduler.checkAlive();
            int s = Http.get(schedulerPort, "/v1/agents/" + jobNics.get(0) + "/paths", AGENT_TOKEN).status();
            return Http.get(schedulerPort, "/v1/jobs", SCHEDULER_TOKEN).status() == 200 && (s == 200 || s == 204);
        });
        if (loop) {
            // It follows weft.hotspots from "latest": a hotspot before it holds a partition is lost to it.
            awaitGroupAssigned("weft-scheduler-reroute");
        }
        for (String nic : jobNics) {
            agents.add(startAgent(nic));
        }
    }

    /** Stops the agents and both scheduler-apis. */
    synchronized void stopScheduler() {
        stopAgents();
        for (int i = 0; i < schedulers.length; i++) {
            if (schedulers[i] != null) {
                schedulers[i].stop(); // one JVM holds both: the second stop finds it stopped
                schedulers[i] = null;
            }
        }
        scheduler = null;
    }

    private void stopAgents() {
        for (Process p : agents) {
            stop(p);
        }
        agents.clear();
    }

    /** The source leaf's links to other switches, in fabric order. */
    List<String> uplinks() {
        List<String> out = new ArrayList<>();
        for (io.weft.fabric.Link l : plan.fabric().links()) {
            String other = l.a().node().equals(sourceLeaf) ? l.b().node()
                    : l.b().node().equals(sourceLeaf) ? l.a().node() : null;
            if (other != null && plan.fabric().node(other).role().isSwitch()) {
                out.add(l.id());
            }
        }
        return out;
    }

    /** The running scheduler-api's log. */
    synchronized Path schedulerLog() {
        return scheduler.log();
    }

    /** The nic-agent's HCCL-shaped EV file ({@code srcIP,dstIP=sport,...} per peer). */
    Path evFile(String nic) {
        return dir.resolve("agents").resolve(nic).resolve("ev-ports");
    }

    Path agentLog(String nic) {
        return dir.resolve("agent-" + nic + ".log");
    }

    private Process startAgent(String nic) throws IOException {
        Path home = dir.resolve("agents").resolve(nic);
        deleteTree(home);
        Files.createDirectories(home);
        ProcessBuilder pb = new ProcessBuilder(agentBin.toString(), "run", "--nic", nic,
                "--server", "http://127.0.0.1:" + schedulerPort, "--netns", lab.layout().namespace(nic),
                "--state-file", home.resolve("state.json").toString(), "--ev-file", evFile(nic).toString(),
                "--socket", home.resolve("agent.sock").toString(), "--metrics-addr", "127.0.0.1:" + freePort(),
                "--wait", "20s", "--log-format", "json", "--stream=true")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(agentLog(nic).toFile()));
        pb.environment().keySet().removeIf(k -> k.startsWith("WEFT_"));
        pb.environment().put("WEFT_AGENT_TOKEN", AGENT_TOKEN);
        return pb.start();
    }

    /** Polls until {@code condition} holds; fails after the readiness timeout or when a service exited. */
    void await(String what, BooleanSupplier condition) {
        try {
            Waits.until(what, READY, this::checkAlive, condition);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "; logs in " + dir, e);
        }
    }

    /** Throws when a service or a nic-agent has exited. */
    private void checkAlive() {
        children.forEach(ChildService::checkAlive);
        if (scheduler != null) {
            scheduler.checkAlive();
        }
        for (Process p : agents) {
            if (!p.isAlive()) {
                throw new IllegalStateException("a nic-agent exited (" + p.exitValue() + "); see " + dir);
            }
        }
    }

    private void awaitGroupAssigned(String group) {
        Waits.consumerGroupAssigned(endpoints.kafkaBootstrapServers(), group, READY, this::checkAlive);
    }

    private ChildService child(String name, String module, String main, String heap, Map<String, String> env,
                               List<String> args) {
        ChildService c = ChildService.start(root, dir, name, module, main, heap, env, args);
        synchronized (started) {
            children.add(c);
            started.push(c::stop);
        }
        return c;
    }

    private Map<String, String> db() {
        return Map.of("WEFT_KAFKA_BOOTSTRAP", endpoints.kafkaBootstrapServers(), "WEFT_JDBC_URL", endpoints.jdbcUrl(),
                "WEFT_JDBC_USER", endpoints.jdbcUser(), "WEFT_JDBC_PASSWORD", endpoints.jdbcPassword());
    }

    /** The last lines of every service's log, for a failure message. */
    String tails(int lines) {
        List<ChildService> all = new ArrayList<>(children);
        for (ChildService s : schedulers) {
            if (s != null && !all.contains(s)) {
                all.add(s);
            }
        }
        return ChildService.tails(all, lines);
    }

    /** Stops agents, services, weft-telemetry, the devstack, then removes the lab. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopScheduler();
        while (true) {
            AutoCloseable next;
            synchronized (started) {
                if (started.isEmpty()) {
                    break;
                }
                next = started.pop();
            }
            try {
                next.close();
            } catch (Exception e) {
                System.err.println("experiment: cleanup step failed: " + e.getMessage());
            }
        }
    }

    static void stop(Process p) {
        ChildService.stop(p);
    }

    static int freePort() {
        return ChildService.freePort();
    }

    static void sleep(long ms) {
        Waits.sleep(ms);
    }

    static void deleteTree(Path d) throws IOException {
        if (!Files.exists(d)) {
            return;
        }
        try (var s = Files.walk(d)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    /** The lab's interface-level API (throttle, routes) for a run. */
    NetnsLab lab() {
        return lab;
    }
}
