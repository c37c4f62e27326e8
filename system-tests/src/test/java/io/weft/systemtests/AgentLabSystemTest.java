package io.weft.systemtests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.DevstackExtension;
import io.weft.devstack.junit.WeftDevstackTest;
import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.harness.ChildService;
import io.weft.harness.Http;
import io.weft.lab.netns.LabPaths;
import io.weft.lab.netns.NetnsLab;
import io.weft.lab.netns.Shell;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The host side of the loop with every part real: the 2x2 leaf-spine fabric built in network
 * namespaces with the kernel's SRv6 data plane ({@link NetnsLab}), scheduler-api as a child JVM on
 * the devstack placing on that fabric, and one real nic-agent process (built here with
 * {@code go build}) per NIC of the job, running in the root namespace and programming its host
 * namespace through {@code --netns}.
 *
 * <p>A ring job over nic1 and nic3 is placed; the agents must install its carriers; pings from nic1
 * to nic3 must cross exactly the spine the scheduler named (interface counters along both spines);
 * draining nic1's leaf link to that spine must re-place the flow, the agents must follow and the
 * pings must then cross the other spine. Namespaces, agents and the service are removed even when
 * the test fails.
 */
@Tag("lab")
@WeftDevstackTest
class AgentLabSystemTest {
    private static final String OPERATOR_TOKEN = "agent-lab-operator-token-0123456789";
    private static final String FORWARD_TOKEN = "agent-lab-scheduler-to-controller-0123456789";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int PINGS = 50;
    /** ND, MLD and the agents' probes (one a second per entry) may add a few packets on a link. */
    private static final int IDLE_NOISE = 10;
    /** This JVM's suffix: two runs at once (CI and a developer) never share a lab tag or a database. */
    private static final String RUN = Long.toString(ProcessHandle.current().pid() % (36L * 36 * 36 * 36), 36);

    private NetnsLab lab;
    private ChildService scheduler;
    private ChildService controller;
    private final List<Process> agents = new ArrayList<>();
    private final List<Path> agentLogs = new ArrayList<>();
    private final Map<String, Integer> metricsPorts = new HashMap<>();

    @AfterEach
    void tearDown() throws Exception {
        for (Process p : agents) {
            p.destroy(); // SIGTERM: the agent exits leaving its routes (fail-static by design)
        }
        for (Process p : agents) {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        if (scheduler != null) {
            scheduler.stop();
        }
        if (controller != null) {
            controller.stop();
        }
        if (lab != null) {
            lab.down();
            assertThat(NetnsLab.namespaces(new Shell())).noneMatch(ns -> ns.startsWith("wl-" + lab.layout().tag()));
        }
    }

    @Test
    void agentsInstallTheJobsCarriersAndFollowADrain() throws Exception {
        requireHost();
        Path root = SystemTestPaths.root();
        Path dir = SystemTestPaths.target().resolve("agent-lab");
        deleteTree(dir);
        Files.createDirectories(dir);
        Fabric fabric = FabricJson.read(root.resolve("contracts/examples/leaf-spine-2x2.json"));
        FabricPlan plan = Planner.plan(fabric, null);
        Path fabricFile = dir.resolve("fabric.json");
        Files.writeString(fabricFile, FabricJson.write(fabric));

        Path agentBin = buildAgent(root, dir);
        lab = new NetnsLab(plan, "ag" + RUN);
        lab.up(NetnsLab.Progress.NONE);
        int port = startScheduler(DevstackExtension.endpoints(), fabricFile);
        for (String nic : List.of("nic1", "nic2", "nic3", "nic4")) {
            startAgent(agentBin, dir, nic, port);
        }

        long t0 = System.nanoTime();
        JsonNode job = createRing(port, List.of("nic1", "nic3"), "srv6");
        long posted = System.nanoTime();
        JsonNode forward = flow(job, "nic1", "nic3");
        String spine = spineOf(forward);
        String other = spine.equals("spine1") ? "spine2" : "spine1";
        awaitRoutes(plan, job);
        String status = run(agentBin.toString(), "status", "--socket",
                dir.resolve("nic1").resolve("agent.sock").toString());
        assertThat(status).as("nic-agent status").startsWith("nic nic1: connected, version ")
                .contains("route " + plan.nicAddress("nic3") + "/128 dev ");
        // Timings are printed, not asserted: the machine is shared (the wait polls every 100 ms).
        System.out.printf(Locale.ROOT, "agent lab: job POST answered in %.0f ms, then both agents' routes in the "
                + "kernel %.0f ms later (load %s)%n", (posted - t0) / 1e6, (System.nanoTime() - posted) / 1e6,
                loadAverage());
        assertTrafficCrosses(plan, spine, other);

        // Maintenance on nic1's leaf link to that spine: the scheduler moves the flow, the agents follow.
        long t1 = System.nanoTime();
        Http.Reply drained = Http.send(Http.request(port, "/v1/fabric/links/leaf1-" + spine + "/drain", OPERATOR_TOKEN)
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build());
        assertThat(drained.status()).as("drain: %s", drained.text()).isEqualTo(200);
        String jobId = job.get("id").asText();
        JsonNode[] moved = new JsonNode[1];
        await("the flow re-placed over " + other, () -> {
            moved[0] = ok(Http.get(port, "/v1/jobs/" + jobId, WeftSystem.SCHEDULER_TOKEN));
            return spineOf(flow(moved[0], "nic1", "nic3")).equals(other);
        });
        awaitRoutes(plan, moved[0]);
        System.out.printf(Locale.ROOT, "agent lab: drain POST -> re-placed routes in the kernel %.0f ms (load %s)%n",
                (System.nanoTime() - t1) / 1e6, loadAverage());
        assertTrafficCrosses(plan, other, spine);

        // EV mode: no routes, the agent hands the entropy value to the training stack (its EV file and
        // `nic-agent ev-ports`); datagrams sent with it as UDP source port take the spine the flow names.
        JsonNode evJob = createRing(port, List.of("nic2", "nic4"), "ev");
        JsonNode evFlow = flow(evJob, "nic2", "nic4");
        int ev = evFlow.get("ev").asInt();
        String evSpine = spineOf(evFlow);
        String line = plan.nicAddress("nic2") + "," + plan.nicAddress("nic4") + "=" + ev;
        Path evFile = dir.resolve("nic2").resolve("ev-ports");
        await("nic2's EV file naming " + line, () -> readOrEmpty(evFile).contains(line));
        String printed = run(agentBin.toString(), "ev-ports", "--socket",
                dir.resolve("nic2").resolve("agent.sock").toString());
        assertThat(printed).as("nic-agent ev-ports").contains(line);
        assertThat(run("ip", "-n", lab.layout().namespace("nic2"), "-6", "route", "show", "proto", "200"))
                .as("an EV job installs no route").doesNotContain(plan.nicAddress("nic4"));
        List<Arc> evVia = LabPaths.via(plan, "nic2", "nic4", List.of("leaf1", evSpine, "leaf2"));
        List<Arc> evNot = LabPaths.via(plan, "nic2", "nic4",
                List.of("leaf1", evSpine.equals("spine1") ? "spine2" : "spine1", "leaf2"));
        long[] beforeVia = lab.txPackets(evVia);
        long[] beforeNot = lab.txPackets(evNot);
        lab.sendUdp("nic2", "nic4", ev, 100);
        long[] dVia = delta(beforeVia, lab.txPackets(evVia));
        long[] dNot = delta(beforeNot, lab.txPackets(evNot));
        System.out.printf(Locale.ROOT, "agent lab: EV %d from nic2's EV file: tx over %s %s, other spine %s%n", ev,
                evSpine, java.util.Arrays.toString(dVia), java.util.Arrays.toString(dNot));
        for (int i = 0; i < evVia.size(); i++) {
            assertThat(dVia[i]).as("tx on %s (EV %d over %s)", evVia.get(i), ev, evSpine).isGreaterThanOrEqualTo(100);
        }
        for (int i = 1; i < evNot.size() - 1; i++) {
            assertThat(dNot[i]).as("tx on %s (the spine EV %d does not select)", evNot.get(i), ev)
                    .isLessThanOrEqualTo(IDLE_NOISE);
        }

        // The real service accepted every agent's flow reports (it validates them field by field), and
        // the SRv6 agents' probes along their carriers were answered through the fabric (EV entries
        // are not probed).
        for (String nic : metricsPorts.keySet()) {
            boolean srv6 = nic.equals("nic1") || nic.equals("nic3");
            await(nic + "'s reports accepted" + (srv6 ? " and probes answered" : ""), () -> {
                String m = metrics(nic);
                return counter(m, "weft_agent_reports_total{result=\"ok\"}") > 0
                        && (!srv6 || counter(m, "weft_agent_probes_total{result=\"ok\"}") > 0);
            });
            String m = metrics(nic);
            System.out.printf(Locale.ROOT,
                    "agent lab: %s reports ok %.0f, failed %.0f; probes ok %.0f, lost %.0f%n", nic,
                    counter(m, "weft_agent_reports_total{result=\"ok\"}"),
                    counter(m, "weft_agent_reports_total{result=\"error\"}"),
                    counter(m, "weft_agent_probes_total{result=\"ok\"}"),
                    counter(m, "weft_agent_probes_total{result=\"lost\"}"));
        }
    }

    private static String readOrEmpty(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            return "";
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private String metrics(String nic) {
        Http.Reply r = Http.get(metricsPorts.get(nic), "/metrics", null);
        return r.status() == 200 ? r.text() : "";
    }

    /** The value of one series in Prometheus text, 0 when absent. */
    private static double counter(String text, String series) {
        for (String line : text.split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1).trim());
            }
        }
        return 0;
    }

    /** Pings nic1 -> nic3 and checks, with the switches' tx counters, that they went over {@code spine} only. */
    private void assertTrafficCrosses(FabricPlan plan, String spine, String idle) throws Exception {
        List<Arc> via = LabPaths.via(plan, "nic1", "nic3", List.of("leaf1", spine, "leaf2"));
        List<Arc> notVia = LabPaths.via(plan, "nic1", "nic3", List.of("leaf1", idle, "leaf2"));
        long[] beforeVia = lab.txPackets(via);
        long[] beforeNot = lab.txPackets(notVia);
        NetnsLab.PingResult r = lab.ping("nic1", "nic3", PINGS, 0.01);
        long[] dVia = delta(beforeVia, lab.txPackets(via));
        long[] dNot = delta(beforeNot, lab.txPackets(notVia));
        System.out.printf(Locale.ROOT, "agent lab: %d/%d pings; tx over %s %s, over %s %s%n", r.received(), r.sent(),
                spine, java.util.Arrays.toString(dVia), idle, java.util.Arrays.toString(dNot));
        assertThat(r.received()).as("replies from nic3\n%s\n%s", r.output(), logs()).isEqualTo(PINGS);
        for (int i = 0; i < via.size(); i++) {
            assertThat(dVia[i]).as("tx on %s (path over %s)", via.get(i), spine).isGreaterThanOrEqualTo(PINGS);
        }
        // Only the fabric arcs differ between the two paths: leaf1 -> idle spine -> leaf2 stay quiet.
        for (int i = 1; i < notVia.size() - 1; i++) {
            assertThat(dNot[i]).as("tx on %s (the spine not named)", notVia.get(i)).isLessThanOrEqualTo(IDLE_NOISE);
        }
    }

    /** Waits until each agent's namespace routes the other NIC over exactly the carriers its flow names. */
    private void awaitRoutes(FabricPlan plan, JsonNode job) {
        for (JsonNode f : job.get("flows")) {
            String src = f.get("src").asText();
            String dst = f.get("dst").asText();
            String carriers = String.join(" ", texts(f.get("carriers")));
            String ns = lab.layout().namespace(src);
            await(src + " routing " + dst + " over [ " + carriers + " ]", () -> {
                String out = run("ip", "-n", ns, "-6", "route", "show", plan.nicAddress(dst) + "/128", "proto", "200");
                return out.contains("[ " + carriers + " ]");
            });
        }
    }

    private static void requireHost() {
        String labProblem = NetnsLab.hostProblem();
        String problem = labProblem == null && findOnPath("go") == null
                ? "the Go toolchain (go) is not on PATH: the test builds the nic-agent" : labProblem;
        if (problem == null) {
            return;
        }
        if ("true".equals(System.getenv("CI"))) {
            fail("agent lab test cannot run under CI=true: " + problem);
        }
        assumeTrue(false, () -> "agent lab skipped: " + problem);
    }

    private static Path findOnPath(String exe) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d, exe);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    private static Path buildAgent(Path root, Path dir) throws Exception {
        Path bin = dir.resolve("nic-agent");
        Path log = dir.resolve("go-build.log");
        Process p = new ProcessBuilder("go", "build", "-o", bin.toString(), "./cmd/nic-agent")
                .directory(root.resolve("nic-agent").toFile()).redirectErrorStream(true).redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new AssertionError("go build of the nic-agent failed:\n" + Files.readString(log));
        }
        return bin;
    }

    private int startScheduler(DevstackEndpoints dev, Path fabricFile) throws Exception {
        // Its own schema: other system tests on the same devstack leave jobs. (The devstack user may not
        // create databases, but owns the database it is given.)
        String schema = "agentlab_" + RUN;
        try (Connection c = DriverManager.getConnection(dev.jdbcUrl(), dev.jdbcUser(), dev.jdbcPassword());
             Statement s = c.createStatement()) {
            s.execute("drop schema if exists " + schema + " cascade");
            s.execute("create schema " + schema);
        } catch (SQLException e) {
            throw new AssertionError("cannot create schema " + schema + ": " + e.getMessage(), e);
        }
        // The controller owns link states: the drain below goes to it and comes back on weft.fabric (this
        // class has its own devstack, so no other test's fabric is on that topic).
        int controllerPort = freePort();
        Path controllerState = fabricFile.resolveSibling("controller-state");
        deleteTree(controllerState);
        controller = ChildService.start(SystemTestPaths.root(), SystemTestPaths.target(), "agent-lab-controller",
                "controller-app/standalone", "io.weft.controller.standalone.StandaloneController", "256m",
                Map.of("WEFT_KAFKA_BOOTSTRAP", dev.kafkaBootstrapServers(),
                        "WEFT_TOKENS", "ops:operator=" + OPERATOR_TOKEN + ";scheduler-api:operator=" + FORWARD_TOKEN),
                List.of("--fabric", fabricFile.toString(), "--http-port", Integer.toString(controllerPort),
                        "--state-dir", controllerState.toString()));
        await("controller GET /healthz", () -> Http.get(controllerPort, "/healthz", null).status() == 200);
        int port = freePort();
        Map<String, String> env = new HashMap<>();
        env.put("WEFT_KAFKA_BOOTSTRAP", dev.kafkaBootstrapServers());
        env.put("WEFT_JDBC_URL", dev.jdbcUrl() + (dev.jdbcUrl().contains("?") ? "&" : "?") + "currentSchema=" + schema);
        // The service names its schema itself (Flyway and Hibernate); currentSchema alone is overridden.
        env.put("WEFT_SCHEDULER_SCHEMA", schema);
        env.put("WEFT_JDBC_USER", dev.jdbcUser());
        env.put("WEFT_JDBC_PASSWORD", dev.jdbcPassword());
        env.put("WEFT_SCHEDULER_PORT", Integer.toString(port));
        env.put("WEFT_TOKENS", "system-test:scheduler=" + WeftSystem.SCHEDULER_TOKEN + ";ops:operator=" + OPERATOR_TOKEN
                + ";agents:agent:nic1,nic2,nic3,nic4=" + WeftSystem.AGENT_TOKEN);
        env.put("WEFT_CONTROLLER_URL", "http://127.0.0.1:" + controllerPort);
        env.put("WEFT_CONTROLLER_TOKEN", FORWARD_TOKEN);
        scheduler = ChildService.start(SystemTestPaths.root(), SystemTestPaths.target(),
                "agent-lab-scheduler-api", "scheduler-api",
                "io.weft.scheduler.SchedulerApiApplication", "512m", env,
                List.of("--logging.level.org.apache.kafka=WARN", "--weft.scheduler.fabric.file=" + fabricFile));
        await("scheduler-api answering agents", () -> {
            int s = Http.get(port, "/v1/agents/nic1/paths", WeftSystem.AGENT_TOKEN).status();
            return s == 200 || s == 204;
        });
        return port;
    }

    private void startAgent(Path bin, Path dir, String nic, int port) throws IOException {
        Path home = dir.resolve(nic);
        Files.createDirectories(home);
        Path log = dir.resolve("agent-" + nic + ".log");
        int metricsPort = freePort();
        metricsPorts.put(nic, metricsPort);
        ProcessBuilder pb = new ProcessBuilder(bin.toString(), "run", "--nic", nic,
                "--server", "http://127.0.0.1:" + port, "--netns", lab.layout().namespace(nic),
                "--state-file", home.resolve("state.json").toString(), "--ev-file", home.resolve("ev-ports").toString(),
                "--socket", home.resolve("agent.sock").toString(), "--metrics-addr",
                        "127.0.0.1:" + metricsPort, "--wait", "20s",
                "--log-format", "text",
                // nic1 and nic3 follow the profile stream, nic2 and nic4 long-poll: both ways are exercised.
                "--stream=" + (nic.equals("nic1") || nic.equals("nic3")))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("WEFT_"));
        pb.environment().put("WEFT_AGENT_TOKEN", WeftSystem.AGENT_TOKEN); // the token through the environment
        agents.add(pb.start());
        agentLogs.add(log);
    }

    private static JsonNode createRing(int port, List<String> nics, String encoding) {
        Http.Reply r = Http.post(port, "/v1/jobs", WeftSystem.SCHEDULER_TOKEN, "{\"name\":\"agent-lab-" + encoding
                + "\",\"pattern\":\"ring\",\"order\":\"given\",\"endpoints\":[\"" + String.join("\",\"", nics)
                + "\"],\"demandGbps\":100,\"encoding\":\"" + encoding + "\"}");
        assertThat(r.status()).as("job: %s", r.text()).isEqualTo(201);
        return r.body();
    }

    private static JsonNode flow(JsonNode job, String src, String dst) {
        for (JsonNode f : job.get("flows")) {
            if (f.get("src").asText().equals(src) && f.get("dst").asText().equals(dst)) {
                return f;
            }
        }
        throw new AssertionError("no flow " + src + " -> " + dst + " in " + job);
    }

    private static String spineOf(JsonNode flow) {
        for (String n : texts(flow.get("nodes"))) {
            if (n.startsWith("spine")) {
                return n;
            }
        }
        throw new AssertionError("flow crosses no spine: " + flow);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static JsonNode ok(Http.Reply r) {
        assertThat(r.status()).as(r.text()).isEqualTo(200);
        return r.body();
    }

    private void await(String what, BooleanSupplier cond) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!cond.getAsBoolean()) {
            if (scheduler != null) {
                scheduler.checkAlive();
            }
            for (Process p : agents) {
                if (!p.isAlive()) {
                    throw new AssertionError("a nic-agent exited (" + p.exitValue() + ")\n" + logs());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + TIMEOUT.toSeconds() + " s waiting for " + what + "\n"
                        + logs() + (scheduler == null ? "" : "\n----- scheduler-api -----\n" + scheduler.tail(40)));
            }
            WeftSystem.sleep(100);
        }
    }

    private String logs() {
        StringBuilder b = new StringBuilder();
        for (Path l : agentLogs) {
            try {
                List<String> lines = Files.readAllLines(l);
                b.append("----- ").append(l.getFileName()).append(" -----\n")
                        .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size())))
                        .append('\n');
            } catch (IOException e) {
                b.append(l).append(": ").append(e.getMessage()).append('\n');
            }
        }
        return b.toString();
    }

    private static String run(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor();
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static long[] delta(long[] before, long[] after) {
        long[] d = new long[before.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = after[i] - before[i];
        }
        return d;
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
