package io.weft.lab.netns;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Runs iproute2 and friends as child processes. One place for it, so every failure carries the
 * command line and what the tool printed on stderr, and a test can swap in a recording fake.
 */
public class Shell {
    /** What a finished command printed. */
    public record Result(int exitCode, String stdout, String stderr) {
    }

    /** Runs the command with {@code stdin} (may be null) and returns its output whatever the exit code. */
    public Result exec(List<String> command, String stdin) throws LabException {
        ProcessBuilder pb = new ProcessBuilder(command);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new LabException(command.get(0) + ": cannot run (" + e.getMessage() + ")");
        }
        // Drain both streams concurrently: a chatty child must never block on a full pipe.
        CompletableFuture<String> out = drain(p.getInputStream());
        CompletableFuture<String> err = drain(p.getErrorStream());
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            // The child exited before reading everything; its exit code and stderr tell why.
        }
        try {
            int code = p.waitFor();
            return new Result(code, out.join(), err.join());
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new LabException(String.join(" ", command) + ": interrupted");
        }
    }

    /** Runs the command and fails with its stderr unless it exits 0. */
    public String run(List<String> command, String stdin) throws LabException {
        Result r = exec(command, stdin);
        if (r.exitCode() != 0) {
            throw new LabException(describe(command) + ": " + firstLines(r.stderr().isBlank() ? r.stdout() : r.stderr())
                    + " (exit " + r.exitCode() + ")");
        }
        return r.stdout();
    }

    public String run(String... command) throws LabException {
        return run(List.of(command), null);
    }

    private static String describe(List<String> command) {
        String s = String.join(" ", command);
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    private static String firstLines(String s) {
        String t = s.strip();
        String[] lines = t.split("\n");
        return lines.length <= 3 ? t : String.join(" | ", List.of(lines).subList(0, 3)) + " | ...";
    }

    private static CompletableFuture<String> drain(java.io.InputStream s) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String(s.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        });
    }
}
