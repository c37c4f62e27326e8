package io.weft.karafcheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One Apache Karaf 4.2.9 started from the tarball Maven unpacked: a fresh copy per run (no state
 * from an earlier run), free ports for SSH, RMI and HTTP, Maven artifacts from the local repository
 * only (no remote repository: whatever Karaf installs, Maven fetched), and {@code bin/karaf server}
 * as a child process on the given Java 11 runtime. Commands go through Karaf's own {@code bin/client}
 * in batch mode, so what is checked is what Karaf answers.
 */
final class KarafInstance implements AutoCloseable {
    private final Path home;
    private final Path javaHome;
    private final int sshPort;
    private Process server;

    private KarafInstance(Path home, Path javaHome, int sshPort) {
        this.home = home;
        this.javaHome = javaHome;
        this.sshPort = sshPort;
    }

    /**
     * Copies {@code pristine} to {@code runDir} and configures it.
     *
     * @param mavenRepo the local Maven repository Karaf resolves {@code mvn:} URLs from
     */
    static KarafInstance prepare(Path pristine, Path runDir, Path javaHome, Path mavenRepo) throws IOException {
        deleteTree(runDir);
        copyTree(pristine, runDir);
        int ssh = freePort();
        edit(runDir.resolve("etc/org.apache.karaf.shell.cfg"), Map.of("sshPort", Integer.toString(ssh),
                "sshHost", "127.0.0.1"));
        edit(runDir.resolve("etc/org.apache.karaf.management.cfg"), Map.of(
                "rmiRegistryPort", Integer.toString(freePort()), "rmiServerPort", Integer.toString(freePort()),
                "rmiRegistryHost", "127.0.0.1", "rmiServerHost", "127.0.0.1"));
        // ONOS 2.7's REST bundle brings up Jetty; 8181 (Karaf's default) is the Weft demo's port.
        Files.writeString(runDir.resolve("etc/org.ops4j.pax.web.cfg"),
                "org.osgi.service.http.port=" + freePort() + "\n", StandardCharsets.UTF_8);
        // Offline: only Karaf's own system/ folder and Maven's local repository.
        edit(runDir.resolve("etc/org.ops4j.pax.url.mvn.cfg"), Map.of(
                "org.ops4j.pax.url.mvn.repositories", "",
                "org.ops4j.pax.url.mvn.localRepository", mavenRepo.toString(),
                "org.ops4j.pax.url.mvn.offline", "true"));
        return new KarafInstance(runDir, javaHome, ssh);
    }

    Path home() {
        return home;
    }

    /** Starts {@code bin/karaf server} and waits until its shell answers feature commands. */
    void start(long timeoutMs) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("sh", home.resolve("bin/karaf").toString(), "server")
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(home.resolve("server.out").toFile());
        environment(pb);
        server = pb.start();
        long end = System.currentTimeMillis() + timeoutMs;
        String last = "";
        while (System.currentTimeMillis() < end) {
            if (!server.isAlive()) {
                throw new IllegalStateException("Karaf exited with " + server.exitValue() + ":\n" + tail("server.out"));
            }
            try {
                last = run(30_000, "feature:list -i");
            } catch (ClientTimeoutException e) {
                last = e.getMessage();
                continue;
            }
            if (last.contains("feature ") && last.contains("ssh ") && !last.contains("Command not found")) {
                return;
            }
            Thread.sleep(1000);
        }
        throw new IllegalStateException("Karaf's shell not ready after " + timeoutMs + " ms; last answer:\n" + last
                + "\nserver.out:\n" + tail("server.out"));
    }

    /**
     * Runs shell commands, one per line, through {@code bin/client -b}; returns what Karaf printed.
     * The answer goes to a file, not a pipe, so that a client that hangs (seen on a loaded machine)
     * is killed at the deadline instead of blocking the read forever.
     */
    String run(long timeoutMs, String... commands) throws IOException, InterruptedException {
        Path in = Files.createTempFile(home, "client-in", ".txt");
        Path out = Files.createTempFile(home, "client-out", ".txt");
        try {
            Files.writeString(in, String.join("\n", commands) + "\n", StandardCharsets.UTF_8);
            ProcessBuilder pb = new ProcessBuilder("sh", home.resolve("bin/client").toString(), "-a",
                    Integer.toString(sshPort), "-h", "127.0.0.1", "-u", "karaf", "-p", "karaf", "-r", "5", "-d", "1",
                    "-b")
                    .directory(home.toFile())
                    .redirectErrorStream(true)
                    .redirectInput(in.toFile())
                    .redirectOutput(out.toFile());
            environment(pb);
            Process p = pb.start();
            if (!p.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new ClientTimeoutException("bin/client did not finish within " + timeoutMs + " ms: "
                        + String.join("; ", commands) + "; it printed:\n"
                        + Files.readString(out, StandardCharsets.UTF_8));
            }
            return stripAnsi(Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
        }
    }

    /** {@link #run} hit its deadline. */
    static final class ClientTimeoutException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        ClientTimeoutException(String message) {
            super(message);
        }
    }

    String tail(String file) {
        try {
            List<String> lines = Files.readAllLines(home.resolve(file), StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(" + file + " unreadable: " + e.getMessage() + ")";
        }
    }

    private void environment(ProcessBuilder pb) {
        pb.environment().put("JAVA_HOME", javaHome.toString());
        pb.environment().put("JAVA_MIN_MEM", "128M");
        pb.environment().put("JAVA_MAX_MEM", "768M");
        pb.environment().remove("JAVA_OPTS");
        pb.environment().remove("EXTRA_JAVA_OPTS");
    }

    /**
     * Kills Karaf: the script's java child first (the shell script may not exec it), then the script.
     * No graceful shutdown: the run directory is thrown away and the next run starts from a copy.
     */
    @Override
    public void close() throws InterruptedException {
        if (server == null) {
            return;
        }
        List<ProcessHandle> tree = new ArrayList<>();
        server.descendants().forEach(tree::add);
        tree.forEach(ProcessHandle::destroyForcibly);
        server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        for (ProcessHandle h : tree) {
            h.onExit().completeOnTimeout(h, 30, TimeUnit.SECONDS).join();
        }
    }

    static String stripAnsi(String s) {
        return s.replaceAll("\u001B\\[[0-9;]*[A-Za-z]", "");
    }

    /** Sets {@code key = value} in a Karaf .cfg file, replacing a (possibly multi-line) existing entry. */
    static void edit(Path cfg, Map<String, String> values) throws IOException {
        List<String> in = Files.exists(cfg) ? Files.readAllLines(cfg, StandardCharsets.UTF_8) : List.of();
        List<String> out = new ArrayList<>();
        boolean continued = false;
        for (String line : in) {
            if (continued) {
                continued = line.stripTrailing().endsWith("\\");
                continue;
            }
            String key = line.split("[=:]", 2)[0].trim();
            if (!line.trim().startsWith("#") && values.containsKey(key)) {
                continued = line.stripTrailing().endsWith("\\");
                continue;
            }
            out.add(line);
        }
        values.forEach((k, v) -> out.add(k + " = " + v));
        Files.write(cfg, out, StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            walk.forEach(p -> {
                try {
                    Files.copy(p, to.resolve(from.relativize(p).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
        }
    }
}
