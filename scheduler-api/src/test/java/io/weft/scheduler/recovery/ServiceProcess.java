package io.weft.scheduler.recovery;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.weft.devstack.DevstackEndpoints;
import io.weft.harness.ChildService;
import io.weft.scheduler.SchedulerApiApplication;

/**
 * The real scheduler API as a child JVM (the shared {@link ChildService} harness), so that a test can
 * kill it with SIGKILL: no shutdown hook, no graceful close of Jetty, Hikari or an open transaction
 * runs. Classpath as {@code ./weft} runs the service: the module's classes plus its runtime
 * dependencies in {@code target/lib}; the configuration comes from the environment the service
 * documents ({@code WEFT_*}). What is particular to this module's own tests is here: they run before
 * the module's jar exists, so the classpath may be the test JVM's.
 */
final class ServiceProcess implements AutoCloseable {
    /** Enough for the service on the 2x2 fabric; C1 and the serial collector come from the harness. */
    private static final String HEAP = "384m";

    private final ChildService child;

    private ServiceProcess(ChildService child) {
        this.child = child;
    }

    /**
     * Starts the service on {@code port} over the devstack's PostgreSQL, in its own schema. No Kafka:
     * the fabric comes from {@code fabric}, so snapshots other tests of this JVM publish on
     * {@code weft.fabric} cannot change what it places on. A restart on the same {@code log} appends.
     */
    static ServiceProcess start(DevstackEndpoints e, String schema, int port, String tokens, Path fabric, Path log)
            throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("WEFT_JDBC_URL", e.jdbcUrl());
        env.put("WEFT_JDBC_USER", e.jdbcUser());
        env.put("WEFT_JDBC_PASSWORD", e.jdbcPassword());
        env.put("WEFT_SCHEDULER_SCHEMA", schema);
        env.put("WEFT_KAFKA_BOOTSTRAP", "");
        env.put("WEFT_FABRIC_FILE", fabric.toString());
        env.put("WEFT_SCHEDULER_PORT", Integer.toString(port));
        env.put("WEFT_TOKENS", tokens);
        env.put("WEFT_TOKENS_FILE", "");
        Files.writeString(log, "==== service started on port " + port + ", schema " + schema + ", classpath from "
                        + (Files.isDirectory(targetDir().resolve("lib")) ? "target/lib" : "the test JVM") + "\n",
                StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        return new ServiceProcess(ChildService.start("scheduler-api:" + port, classpath(),
                SchedulerApiApplication.class.getName(), HEAP, env, List.of(), log, true));
    }

    /**
     * The module's classes and target/lib (its runtime dependencies), as {@code ./weft} runs the
     * service. target/lib is made at {@code package}, after this test runs in a clean
     * {@code install}; then the test JVM's own classpath stands in, without test-classes (whose
     * Spring components the service would scan), with test-only jars the service ignores.
     */
    static String classpath() {
        Path lib = targetDir().resolve("lib");
        if (Files.isDirectory(lib)) {
            return codeSource() + File.pathSeparator + lib + "/*";
        }
        Path testClasses = targetDir().resolve("test-classes");
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).toAbsolutePath().normalize().equals(testClasses))
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** The module's build directory (target/), where its runtime dependencies are copied. */
    static Path targetDir() {
        return codeSource().getParent();
    }

    /** target/classes when run by Maven, or the module jar: either way its parent is target/. */
    private static Path codeSource() {
        try {
            return Path.of(SchedulerApiApplication.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException ex) {
            throw new IllegalStateException("cannot locate the scheduler-api classes: " + ex.getMessage(), ex);
        }
    }

    boolean isAlive() {
        return child.isAlive();
    }

    long pid() {
        return child.pid();
    }

    /** Sends SIGKILL without waiting. */
    void sigkill() {
        child.sigkill();
    }

    /** SIGKILL and wait; returns the exit status (137). */
    int killHard() throws InterruptedException {
        return child.killHard();
    }

    /** The last {@code lines} lines of the service's log (both runs share one file). */
    String logTail(int lines) {
        return child.tail(lines);
    }

    Path log() {
        return child.log();
    }

    @Override
    public void close() throws InterruptedException {
        if (child.isAlive()) {
            child.killHard();
        }
    }

    static int freePort() {
        return ChildService.freePort();
    }
}
