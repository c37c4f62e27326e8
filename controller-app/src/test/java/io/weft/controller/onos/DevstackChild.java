package io.weft.controller.onos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;

/**
 * A real Kafka broker for this module's tests, run as the devstack's own process ({@code DevstackMain},
 * as {@code ./weft demo} runs it) from the devstack module's packaged jar and {@code target/lib}.
 *
 * <p>Why a child process: this module's tests run on ONOS 2.11's Jackson, and the broker needs a newer
 * one, so the broker cannot share this JVM. The reactor packages {@code devstack} before this module, so
 * {@code ./mvnw install} always finds it; a lone {@code -pl controller-app} run without it skips, except
 * with {@code CI=true}, where a test that cannot run for lack of a build step must fail.
 * {@code WEFT_KAFKA_BOOTSTRAP} set → that broker is used instead and nothing is started.
 */
final class DevstackChild implements AutoCloseable {
    private static final long READY_TIMEOUT_MS = 180_000;

    private final Process process;
    private final Path stateDir;
    private final String bootstrap;

    private DevstackChild(Process process, Path stateDir, String bootstrap) {
        this.process = process;
        this.stateDir = stateDir;
        this.bootstrap = bootstrap;
    }

    /** The external broker named by WEFT_KAFKA_BOOTSTRAP, or a devstack started for these tests. */
    static DevstackChild start() throws IOException, InterruptedException {
        String external = System.getenv("WEFT_KAFKA_BOOTSTRAP");
        if (external != null && !external.isBlank()) {
            return new DevstackChild(null, null, external);
        }
        // Surefire runs in the module directory and names it in "basedir".
        Path module = Path.of(System.getProperty("basedir", "."), "..", "devstack", "target")
                .toAbsolutePath().normalize();
        Path jar = devstackJar(module);
        Path lib = module.resolve("lib");
        if (jar == null || !Files.isDirectory(lib)) {
            String why = "the devstack module is not packaged (" + module + "): run ./mvnw -pl devstack -am package";
            if ("true".equals(System.getenv("CI"))) {
                throw new IllegalStateException(why);
            }
            Assumptions.abort(why);
        }
        Path stateDir = Files.createTempDirectory("weft-onos-devstack");
        Path log = stateDir.resolve("child.out");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                "-cp", jar + java.io.File.pathSeparator + lib.resolve("*"),
                "io.weft.devstack.DevstackMain",
                "--state-dir", stateDir.toString(), "--kafka-port", "0", "--postgres-port", "0"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        Path env = stateDir.resolve("devstack.env");
        long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
        while (!Files.isRegularFile(env)) {
            if (!process.isAlive() || System.currentTimeMillis() > deadline) {
                process.destroyForcibly();
                throw new IllegalStateException("the devstack child did not start within "
                        + READY_TIMEOUT_MS / 1000 + " s; its output:\n" + Files.readString(log));
            }
            Thread.sleep(200);
        }
        String bootstrap = Files.readAllLines(env, StandardCharsets.UTF_8).stream()
                .filter(l -> l.startsWith("WEFT_KAFKA_BOOTSTRAP="))
                .map(l -> l.substring("WEFT_KAFKA_BOOTSTRAP=".length()))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(env + " names no WEFT_KAFKA_BOOTSTRAP"));
        return new DevstackChild(process, stateDir, bootstrap);
    }

    private static Path devstackJar(Path target) throws IOException {
        if (!Files.isDirectory(target)) {
            return null;
        }
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith("weft-devstack") && n.endsWith(".jar")
                        && !n.endsWith("-tests.jar") && !n.endsWith("-sources.jar");
            }).findFirst().orElse(null);
        }
    }

    String bootstrap() {
        return bootstrap;
    }

    /** SIGTERM: the devstack's shutdown hook stops Kafka and PostgreSQL cleanly; then its state goes. */
    @Override
    public void close() throws IOException, InterruptedException {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        try (Stream<Path> all = Files.walk(stateDir)) {
            all.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
        }
    }
}
