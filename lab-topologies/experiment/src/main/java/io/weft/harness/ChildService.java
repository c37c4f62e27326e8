package io.weft.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One Weft deployable run as a child JVM exactly as {@code tools/lib.sh run_java} runs it: the module's
 * jar plus its {@code target/lib/*}, a main class, environment and arguments. Output (stdout and stderr)
 * goes to {@code <logDir>/<name>.log}, whose tail is printed when a test or an experiment fails. Shared
 * by system-tests and the lab experiments, so both start the services one way.
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
        Path target = root.resolve(module).resolve("target");
        Path jar = moduleJar(target, module);
        Path lib = target.resolve("lib");
        if (!Files.isDirectory(lib)) {
            throw new IllegalStateException(module + ": no " + lib + " (package the module first: ./mvnw -B -q -pl "
                    + module + " -am install -DskipTests)");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + heap);
        cmd.addAll(Arrays.asList(JAVA_OPTS.trim().split("\\s+")));
        StringBuilder cp = new StringBuilder(jar + ":" + lib + "/*");
        extraClasspath.forEach(p -> cp.append(':').append(p));
        cmd.addAll(List.of("-cp", cp.toString(), mainClass));
        cmd.addAll(args);
        Path log = logDir.resolve(name + ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
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
