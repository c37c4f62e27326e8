package io.weft.lab.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The Go programs the experiment runs beside the Java services: the nic-agent (one per host NIC)
 * and weft-telemetry (the switches' gNMI subscriber writing gnmic events to Kafka). Named by
 * {@code WEFT_NIC_AGENT} / {@code WEFT_TELEMETRY} (./weft lab passes its builds), else built here
 * with {@code go build} into {@code <dir>} from the source tree.
 */
final class GoBinaries {
    static final String NIC_AGENT_ENV = "WEFT_NIC_AGENT";
    static final String TELEMETRY_ENV = "WEFT_TELEMETRY";

    private GoBinaries() {
    }

    static Path nicAgent(Path root, Path dir) throws IOException, InterruptedException {
        return named(NIC_AGENT_ENV, () ->
                build(root.resolve("nic-agent"), "./cmd/nic-agent", dir.resolve("nic-agent")));
    }

    static Path telemetry(Path root, Path dir) throws IOException, InterruptedException {
        return named(TELEMETRY_ENV, () -> build(root.resolve("lab-topologies/switch-agent"), "./cmd/weft-telemetry",
                dir.resolve("weft-telemetry")));
    }

    private interface Build {
        Path run() throws IOException, InterruptedException;
    }

    private static Path named(String env, Build build) throws IOException, InterruptedException {
        String v = System.getenv(env);
        if (v != null && !v.isBlank()) {
            return Path.of(v).toAbsolutePath();
        }
        return build.run();
    }

    private static Path build(Path module, String pkg, Path bin) throws IOException, InterruptedException {
        Files.createDirectories(bin.getParent());
        Path log = bin.resolveSibling(bin.getFileName() + "-build.log");
        ProcessBuilder pb = new ProcessBuilder("go", "build", "-trimpath", "-o", bin.toString(), pkg)
                .directory(module.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("CGO_ENABLED", "0");
        Process p = pb.start();
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("go build " + pkg + " in " + module + " failed:\n" + Files.readString(log));
        }
        return bin;
    }
}
