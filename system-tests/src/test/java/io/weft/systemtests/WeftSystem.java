package io.weft.systemtests;

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
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.ServiceRoles;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Role;
import io.weft.harness.ChildService;
import io.weft.harness.Http;
import io.weft.harness.Waits;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Weft as deployed, on the devstack: the standalone controller (plans the fabric file, publishes
 * weft.fabric, follows link-down/up), the telemetry collector and the scheduler API, each its own
 * JVM on its packaged jar, plus the scripted switches in this JVM. {@link #start} returns once every
 * part is ready for the loop: the scheduler places on the controller's snapshot, both hotspot
 * consumers hold their partitions, and the collector has turned the switches' counters into loads.
 *
 * <p>Not merged with the lab experiment's {@code LabStack}: that one runs real switch agents in network
 * namespaces, weft-telemetry, nic-agents and two scheduler-apis for a command-line experiment; this
 * one is a JUnit fixture with scripted switches in the test JVM. Both start services, wait and report
 * through the one harness ({@code io.weft.harness}: ChildService, Waits, Http).
 */
final class WeftSystem implements AutoCloseable {
    static final String SCHEDULER_TOKEN = "system-test-scheduler-token-0123456789";
    static final String AGENT_TOKEN = "system-test-agent-token-0123456789";
    static final String OPERATOR_TOKEN = "system-test-operator-token-0123456789";
    /** scheduler-api's own operator token towards the controller, the owner of link states. */
    static final String FORWARD_TOKEN = "system-test-scheduler-to-controller-0123456789";
    /** The scheduler's statistics interval: its k budget and "one move per flow" reset this often. */
    static final long INTERVAL_MS = 200;
    /** How often the scripted switches report (gnmic's sample interval). */
    static final long TICK_MS = 100;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    /** Kafka clients' INFO lines (configs, rebalances) would bury the services' own in the log tails. */
    static final String QUIET_KAFKA = "--logging.level.org.apache.kafka=WARN";

    final Fabric fabric;
    final DevstackEndpoints devstack;
    final int controllerPort;
    final int collectorPort;
    final int schedulerPort;
    final List<ChildService> children;
    final ScriptedSwitches switches;

    private WeftSystem(Fabric fabric, DevstackEndpoints devstack, int controllerPort, int collectorPort,
                       int schedulerPort, List<ChildService> children, ScriptedSwitches switches) {
        this.fabric = fabric;
        this.devstack = devstack;
        this.controllerPort = controllerPort;
        this.collectorPort = collectorPort;
        this.schedulerPort = schedulerPort;
        this.children = children;
        this.switches = switches;
    }

    /** Starts the three services on {@code fabric}; on failure stops what started and throws with their log tails. */
    static WeftSystem start(Fabric fabric, DevstackEndpoints devstack) {
        return start(fabric, devstack, KafkaLogins.NONE);
    }

    /**
     * As {@link #start(Fabric, DevstackEndpoints)}, each service (and this JVM's switches and checks) logging
     * in to Kafka as its own principal of contracts/topics.json.
     */
    static WeftSystem start(Fabric fabric, DevstackEndpoints devstack, KafkaLogins logins) {
        Path target = SystemTestPaths.target();
        Path fabricFile = target.resolve("fabric.json");
        Path controllerState = target.resolve("controller-state");
        Path streamsState = target.resolve("collector-streams");
        deleteTree(controllerState);
        deleteTree(streamsState);
        dropServiceSchemas(devstack);
        try {
            Files.writeString(fabricFile, FabricJson.write(fabric));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int controllerPort = freePort();
        int collectorPort = freePort();
        int schedulerPort = freePort();
        List<ChildService> children = new ArrayList<>();
        ScriptedSwitches switches = null;
        try {
            // All three at once: the scheduler and the collector follow weft.fabric, so the
            // controller's snapshot reaches them whenever it is published.
            // One token list for every service (contracts/auth.md), reads closed everywhere as in deploy/.
            String tokens = "system-test:scheduler=" + SCHEDULER_TOKEN + ";ops:operator=" + OPERATOR_TOKEN
                    + ";scheduler-api:operator=" + FORWARD_TOKEN + ";agents:agent:" + String.join(",", nics(fabric))
                    + "=" + AGENT_TOKEN;
            Map<String, String> controllerEnv = new java.util.HashMap<>(logins.env("weft-controller"));
            controllerEnv.putAll(Map.of("WEFT_KAFKA_BOOTSTRAP", devstack.kafkaBootstrapServers(),
                    "WEFT_TOKENS", tokens));
            children.add(ChildService.start(SystemTestPaths.root(), SystemTestPaths.target(), "controller",
                    "controller-app/standalone",
                    "io.weft.controller.standalone.StandaloneController", "256m", controllerEnv,
                    List.of("--fabric", fabricFile.toString(), "--http-port", Integer.toString(controllerPort),
                            "--state-dir", controllerState.toString(), "--reads", "token")));
            // Each service on its own PostgreSQL role, as deployed (deploy/postgres/roles.sql).
            Map<String, String> collectorEnv = new java.util.HashMap<>(devstack.collectorEnv());
            collectorEnv.putAll(logins.env("weft-telemetry-collector"));
            collectorEnv.put("WEFT_TELEMETRY_PORT", Integer.toString(collectorPort));
            collectorEnv.put("WEFT_TELEMETRY_STATE_DIR", streamsState.toString());
            collectorEnv.put("WEFT_TOKENS", tokens);
            collectorEnv.put("WEFT_COLLECTOR_READS", "token");
            children.add(ChildService.start(SystemTestPaths.root(), SystemTestPaths.target(),
                    "telemetry-collector", "telemetry-collector",
                    "io.weft.telemetry.TelemetryCollectorApplication", "512m", collectorEnv, List.of(QUIET_KAFKA)));
            Map<String, String> schedulerEnv = new java.util.HashMap<>(devstack.schedulerEnv());
            schedulerEnv.putAll(logins.env("weft-scheduler-api"));
            schedulerEnv.put("WEFT_SCHEDULER_PORT", Integer.toString(schedulerPort));
            schedulerEnv.put("WEFT_TOKENS", tokens);
            schedulerEnv.put("WEFT_CONTROLLER_URL", "http://127.0.0.1:" + controllerPort);
            schedulerEnv.put("WEFT_CONTROLLER_TOKEN", FORWARD_TOKEN);
            children.add(ChildService.start(SystemTestPaths.root(), SystemTestPaths.target(),
                    "scheduler-api", "scheduler-api",
                    "io.weft.scheduler.SchedulerApiApplication", "512m", schedulerEnv,
                    List.of(QUIET_KAFKA, "--weft.reroute.interval-ms=" + INTERVAL_MS)));

            String someNic = nics(fabric).get(0);
            await("controller GET /healthz", children,
                    () -> Http.get(controllerPort, "/healthz", null).status() == 200);
            await("collector Kafka Streams RUNNING", children, () -> {
                Http.Reply r = Http.get(collectorPort, "/v1/status", SCHEDULER_TOKEN);
                return r.status() == 200 && r.body().path("streams").asText().equals("RUNNING");
            });
            await("scheduler placing on the controller's snapshot", children, () ->
                    Http.get(schedulerPort, "/v1/jobs", SCHEDULER_TOKEN).status() == 200
                            && Http.get(schedulerPort, "/v1/agents/" + someNic + "/paths", AGENT_TOKEN)
                                    .status() == 200);
            // Both follow weft.hotspots from "latest": an event sent before they hold a partition is lost to them.
            // Each group described by its owner: only it may on a secure broker.
            awaitGroupAssigned(devstack, logins.client("weft-scheduler-api"), "weft-scheduler-reroute", children);
            awaitGroupAssigned(devstack, logins.client("weft-controller"), "weft-controller-standalone." + fabric.id(),
                    children);

            // The scripted switches write as gnmic does.
            switches = new ScriptedSwitches(fabric, producer(devstack, logins.client("weft-gnmic"))).start(TICK_MS);
            String probeLink = fabric.links().stream().filter(l -> fabric.node(l.a().node()).role() != Role.NIC
                    && fabric.node(l.b().node()).role() != Role.NIC).findFirst().orElseThrow().id();
            ScriptedSwitches s = switches;
            await("collector loads of " + probeLink + " in its history", children, () -> {
                s.check();
                Http.Reply r = Http.get(collectorPort, "/v1/links/" + probeLink + "/series", SCHEDULER_TOKEN);
                return r.status() == 200 && r.body().path("points").size() > 0;
            });
            return new WeftSystem(fabric, devstack, controllerPort, collectorPort, schedulerPort, children, switches);
        } catch (RuntimeException | Error e) {
            if (switches != null) {
                switches.close();
            }
            String tails = tails(children, 60);
            children.forEach(ChildService::stop);
            throw new IllegalStateException("Weft did not start: " + e.getMessage() + "\n" + tails, e);
        }
    }

    static List<String> nics(Fabric fabric) {
        List<String> out = new ArrayList<>();
        fabric.nodesWithRole(Role.NIC).forEach(n -> out.add(n.id()));
        return out;
    }

    /** The last lines of every child's log, headed by its name and log file. */
    static String tails(List<ChildService> children, int lines) {
        return ChildService.tails(children, lines);
    }

    String tails(int lines) {
        return tails(children, lines);
    }

    ChildService child(String name) {
        return children.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * Polls {@code condition} (the loop is asynchronous across four processes) until it holds; fails
     * when a child exits or after the readiness timeout.
     */
    static void await(String what, List<ChildService> children, BooleanSupplier condition) {
        Waits.until(what, READY_TIMEOUT, children, condition);
    }

    void await(String what, BooleanSupplier condition) {
        await(what, children, () -> {
            switches.check();
            return condition.getAsBoolean();
        });
    }

    static void awaitGroupAssigned(DevstackEndpoints devstack, Properties login, String group,
                                   List<ChildService> children) {
        Properties p = new Properties();
        p.putAll(login);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, devstack.kafkaBootstrapServers());
        Waits.consumerGroupAssigned(p, group, READY_TIMEOUT, () -> children.forEach(ChildService::checkAlive));
    }

    static KafkaProducer<String, String> producer(DevstackEndpoints devstack) {
        return producer(devstack, new Properties());
    }

    static KafkaProducer<String, String> producer(DevstackEndpoints devstack, Properties login) {
        Properties p = new Properties();
        p.putAll(login);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, devstack.kafkaBootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        p.put(ProducerConfig.ACKS_CONFIG, "1");
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    static int freePort() {
        return ChildService.freePort();
    }

    static void sleep(long ms) {
        Waits.sleep(ms);
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear " + dir, e);
        }
    }

    @Override
    public void close() {
        if (switches != null) {
            switches.close();
        }
        children.forEach(ChildService::stop);
    }

    /**
     * Every class on this JVM's devstack starts from empty service tables: the scheduler restores the
     * jobs it finds on start, so another class's jobs (on another fabric) would occupy paths or fail
     * to re-place. Both schemas are made again, empty, owned by the services' roles (which may not
     * create schemas themselves); Flyway migrates them.
     */
    static void dropServiceSchemas(DevstackEndpoints devstack) {
        try (Connection c = DriverManager.getConnection(devstack.jdbcUrl(), devstack.jdbcUser(),
                devstack.jdbcPassword());
             Statement s = c.createStatement()) {
            s.execute("drop schema if exists scheduler cascade");
            s.execute("drop schema if exists telemetry cascade");
            s.execute("create schema scheduler authorization " + ServiceRoles.SCHEDULER);
            s.execute("create schema telemetry authorization " + ServiceRoles.COLLECTOR);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reset the services' schemas: " + e.getMessage(), e);
        }
    }
}
