package io.weft.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One Weft deployable run as a child JVM exactly as {@code tools/lib.sh run_java} runs it: the module's
 * jar plus its {@code target/lib/*}, a main class, environment and arguments. Output (stdout and stderr)
 * goes to {@code <logDir>/<name>.log}, whose tail is printed when a test or an experiment fails. Shared
 * by system-tests, the lab experiments, scheduler-api's recovery tests (which SIGKILL it) and its api
 * bench, so all start the services one way. Lives in the devstack module because every one of them
 * depends on it.
 */
public final class ChildService {
    /** JVM options of every child; C1 and the serial collector start a service faster on 2 shared cores. */
    public static final String JAVA_OPTS = System.getenv().getOrDefault("WEFT_SYSTEM_TEST_JAVA_OPTS",
            "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");

    private final String name;
    private final Process process;
    private final Path log;

    private ChildService(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code mainClass} of {@code module} (a path under the repository root {@code root}, e.g.
     * {@code controller-app/standalone}), logging to {@code logDir/<name>.log}.
     *
     * @throws IllegalStateException naming the module when it has not been packaged
     */
    public static ChildService start(Path root, Path logDir, String name, String module, String mainClass,
                                     String heap, Map<String, String> env, List<String> args) {
        return start(root, logDir, name, module, mainClass, heap, env, args, List.of());
    }

    /** {@link #start}, with {@code extraClasspath} after the module's jar and libraries. */
    public static ChildService start(Path root, Path logDir, String name, String module, String mainClass,
                                     String heap, Map<String, String> env, List<String> args,
                                     List<Path> extraClasspath) {
        return start(name, moduleClasspath(root, module, extraClasspath), mainClass, heap, env, args,
                logDir.resolve(name + ".log"), false);
    }

    /**
     * {@link #start(Path, Path, String, String, String, String, Map, List)} with the JVM's options given
     * whole instead of a heap and {@link #JAVA_OPTS}: for a benchmark, which runs the service as it is
     * deployed (its collector, the full JIT), not as tests start it.
     */
    public static ChildService startWithJvmOptions(Path root, Path logDir, String name, String module,
                                                   String mainClass, List<String> jvmOptions,
                                                   Map<String, String> env, List<String> args) {
        return launch(name, moduleClasspath(root, module, List.of()), mainClass, jvmOptions, env, args,
                logDir.resolve(name + ".log"), false);
    }

    /** The module's jar and {@code target/lib/*}, then {@code extra}. */
    private static String moduleClasspath(Path root, String module, List<Path> extra) {
        Path target = root.resolve(module).resolve("target");
        Path jar = moduleJar(target, module);
        Path lib = target.resolve("lib");
        if (!Files.isDirectory(lib)) {
            throw new IllegalStateException(module + ": no " + lib + " (package the module first: ./mvnw -B -q -pl "
                    + module + " -am install -DskipTests)");
        }
        StringBuilder cp = new StringBuilder(jar + ":" + lib + "/*");
        extra.forEach(p -> cp.append(':').append(p));
        return cp.toString();
    }

    /**
     * Starts {@code mainClass} on an explicit {@code classpath} (for a module's own tests, which run
     * before its jar exists), logging to {@code log}; with {@code append}, after what an earlier run of
     * the same service wrote there (a restart keeps one log).
     */
    public static ChildService start(String name, String classpath, String mainClass, String heap,
                                     Map<String, String> env, List<String> args, Path log, boolean append) {
        List<String> jvm = new ArrayList<>();
        jvm.add("-Xmx" + heap);
        jvm.addAll(Arrays.asList(JAVA_OPTS.trim().split("\\s+")));
        return launch(name, classpath, mainClass, jvm, env, args, log, append);
    }

    private static ChildService launch(String name, String classpath, String mainClass, List<String> jvmOptions,
                                       Map<String, String> env, List<String> args, Path log, boolean append) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", classpath, mainClass));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(append ? ProcessBuilder.Redirect.appendTo(log.toFile()) : ProcessBuilder.Redirect.to(
                        log.toFile()));
        // Nothing of the caller's Weft environment may leak in: each child gets exactly what it is given.
        pb.environment().keySet().removeIf(k -> k.startsWith("WEFT_"));
        pb.environment().putAll(env);
        try {
            Process p = pb.start();
            return new ChildService(name, p, log);
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": cannot start " + cmd.get(0), e);
        }
    }

    private static Path moduleJar(Path target, String module) {
        try (Stream<Path> s = Files.list(target)) {
            return s.filter(f -> {
                String n = f.getFileName().toString();
                return n.startsWith("weft-") && n.endsWith(".jar") && !n.endsWith("-tests.jar");
            }).findFirst().orElseThrow(() -> new IllegalStateException(module + ": no module jar in " + target
                    + " (package it first)"));
        } catch (IOException e) {
            throw new IllegalStateException(module + ": no " + target + " (package the module first: ./mvnw -B -q -pl "
                    + module + " -am install -DskipTests)", e);
        }
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Fails with the log's tail when the process has exited (a readiness wait calls it each round). */
    public void checkAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(name + " exited with status " + process.exitValue() + "; its log ends:\n"
                    + tail(40));
        }
    }

    /** The whole log so far (for waits on a line it prints). */
    public String logText() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** The last {@code lines} lines of the log. */
    public String tail(int lines) {
        List<String> all;
        try {
            all = Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (IOException | UncheckedIOException e) {
            return "(no log at " + log + ": " + e.getMessage() + ")";
        }
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    public Path log() {
        return log;
    }

    /** SIGTERM (the services shut down cleanly on it), then SIGKILL after 10 s. */
    public void stop() {
        stop(process);
    }

    /** SIGTERM, then SIGKILL after 10 s, of any child process (also ones not started as a service here). */
    public static void stop(Process process) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** SIGKILL ({@link Process#destroyForcibly()} on Linux) without waiting: no shutdown hook runs. */
    public void sigkill() {
        process.destroyForcibly();
    }

    /** SIGKILL and wait; returns the exit status (137). */
    public int killHard() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " (pid " + process.pid() + ") still alive 30 s after SIGKILL");
        }
        return process.exitValue();
    }

    /** The last {@code lines} lines of each child's log, headed by its name and log file (for a failure message). */
    public static String tails(Collection<ChildService> children, int lines) {
        StringBuilder b = new StringBuilder();
        for (ChildService c : children) {
            b.append("----- ").append(c.name()).append(" (").append(c.log()).append("), last ").append(lines)
                    .append(" lines -----\n").append(c.tail(lines)).append('\n');
        }
        return b.toString();
    }

    /** A free TCP port on this machine for a child to listen on. */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    /** CPU seconds the process has used so far (user + system), from /proc; NaN where unreadable. */
    public double cpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // Fields 14 and 15 of /proc/<pid>/stat (utime, stime), counted after the command name.
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }
}
