package io.weft.scheduler.recovery;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.weft.devstack.DevstackEndpoints;
import io.weft.scheduler.SchedulerApiApplication;

/**
 * The real scheduler API as a child JVM, so that a test can kill it with SIGKILL: no shutdown hook,
 * no graceful close of Jetty, Hikari or an open transaction runs. Classpath as {@code ./weft} runs
 * the service: the module's classes plus its runtime dependencies in {@code target/lib}; the
 * configuration comes from the environment the service documents ({@code WEFT_*}).
 */
final class ServiceProcess implements AutoCloseable {
    /**
     * C1 only and the serial collector: the child starts in about half the time on two shared
     * cores, and this test is about what survives a kill, not about speed.
     */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx384m", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC");

    private final Process process;
    private final Path log;

    private ServiceProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts the service on {@code port} over the devstack's PostgreSQL, in its own schema. No Kafka:
     * the fabric comes from {@code fabric}, so snapshots other tests of this JVM publish on
     * {@code weft.fabric} cannot change what it places on.
     */
    static ServiceProcess start(DevstackEndpoints e, String schema, int port, String tokens, Path fabric, Path log)
            throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command(classpath())).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        var env = pb.environment();
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
                StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        return new ServiceProcess(pb.start(), log);
    }

    private static List<String> command(String classpath) {
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JVM_OPTIONS);
        cmd.addAll(List.of("-cp", classpath, SchedulerApiApplication.class.getName()));
        return cmd;
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
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /** Sends SIGKILL ({@link Process#destroyForcibly()} on Linux) without waiting. */
    void sigkill() {
        process.destroyForcibly();
    }

    /** SIGKILL and wait; returns the exit status (137). */
    int killHard() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("service pid " + process.pid() + " still alive 30 s after SIGKILL");
        }
        return process.exitValue();
    }

    /** The last {@code lines} lines of the service's log (both runs share one file). */
    String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | java.io.UncheckedIOException ex) {
            return "(cannot read " + log + ": " + ex.getMessage() + ")";
        }
    }

    Path log() {
        return log;
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
