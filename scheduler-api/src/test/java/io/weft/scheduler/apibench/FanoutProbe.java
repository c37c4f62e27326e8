package io.weft.scheduler.apibench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The bench's agents as a child process: nic-agent's {@code fanout-probe} (Go), driven by lines on
 * its stdin. It holds every agent's stream or long-poll on raw sockets, times each version's arrival
 * by the kernel's receive stamp ({@code SO_TIMESTAMPNS}: when the bytes reached the host) and by its
 * own read, and runs under {@code SCHED_IDLE}: on the service's two cores it reads only on CPU the
 * service and PostgreSQL leave, as agents on their own hosts cost the service's host nothing.
 */
final class FanoutProbe implements AutoCloseable {
    /** Where {@code ./weft bench api} put the built probe. */
    static final String BINARY_PROPERTY = "weft.bench.fanoutProbe";

    /** One round as the probe saw it. */
    record Round(int events, int unstamped, int restamped, int failed, long publishedMinUs, double cpuMs,
                 Spread delivered, Spread read, Spread update) {
        /** Reads the probe's {@code round k=v ...} line. */
        static Round parse(String line) {
            Map<String, String> f = fields(line, "round");
            int events = Integer.parseInt(f.get("events"));
            int unstamped = Integer.parseInt(f.get("unstamped"));
            int restamped = Integer.parseInt(f.get("restamped"));
            return new Round(events, unstamped, restamped, Integer.parseInt(f.get("failed")),
                    Long.parseLong(f.get("published_min_us")), number(f, "cpu_ms"),
                    spread(f, "delivered", events - unstamped - restamped), spread(f, "read", events),
                    spread(f, "update", events));
        }

        private static Spread spread(Map<String, String> f, String prefix, int n) {
            double p50 = number(f, prefix + "_p50_ms");
            return Double.isNaN(p50) ? Spread.NONE : new Spread(n, number(f, prefix + "_first_ms"), p50,
                    number(f, prefix + "_p99_ms"), number(f, prefix + "_max_ms"));
        }
    }

    private final Process process;
    private final BufferedReader out;
    private final Writer in;
    /** The scheduling the probe runs under ({@code idle} or {@code normal}). */
    final String sched;

    private FanoutProbe(Process process) throws IOException {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.sched = fields(answer(), "ready").getOrDefault("sched", "?");
    }

    /** Starts the probe for {@code agents} agents (agent i on NIC i mod nics) of the service at port. */
    static FanoutProbe start(int port, String token, int agents, int nics, boolean stream, int readers)
            throws IOException {
        String binary = System.getProperty(BINARY_PROPERTY, "");
        if (binary.isEmpty() || !Files.isExecutable(Path.of(binary))) {
            throw new IllegalStateException("no fanout-probe at -D" + BINARY_PROPERTY + "=" + binary
                    + " (./weft bench api builds it from nic-agent/cmd/fanout-probe; --client nio needs none)");
        }
        List<String> cmd = new ArrayList<>(List.of(binary, "--addr", "127.0.0.1:" + port, "--token", token,
                "--agents", Integer.toString(agents), "--nics", Integer.toString(nics),
                "--readers", Integer.toString(readers)));
        if (stream) {
            cmd.add("--stream");
        }
        return new FanoutProbe(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start());
    }

    long pid() {
        return process.pid();
    }

    /** Connects every agent (streams: opens them); the seconds it took. */
    double open() throws IOException {
        return Double.parseDouble(fields(call("open"), "opened").get("seconds"));
    }

    /** Long-polls: sends every agent's poll at its NIC's current version. */
    void park() throws IOException {
        call("park");
    }

    /** Starts a round: each agent's next version is its arrival. */
    void arm() throws IOException {
        call("arm");
    }

    /** Ends the round once every agent has its version or after {@code seconds}; postUs: when the job was sent. */
    Round await(int seconds, long postUs) throws IOException {
        return Round.parse(call("await " + seconds + " " + postUs));
    }

    private String call(String command) throws IOException {
        in.write(command + "\n");
        in.flush();
        return answer();
    }

    private String answer() throws IOException {
        String line = out.readLine();
        if (line == null) {
            throw new IllegalStateException("fanout-probe exited (" + exitCode() + ")");
        }
        if (line.startsWith("error ")) {
            throw new IllegalStateException("fanout-probe: " + line.substring(6));
        }
        return line;
    }

    private String exitCode() {
        try {
            return process.waitFor(2, TimeUnit.SECONDS) ? "exit " + process.exitValue() : "still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }

    /** The {@code key=value} words of a line that starts with {@code verb}. */
    static Map<String, String> fields(String line, String verb) {
        String[] words = line.trim().split("\\s+");
        if (!words[0].equals(verb)) {
            throw new IllegalStateException("fanout-probe answered \"" + line + "\", expected " + verb);
        }
        Map<String, String> f = new HashMap<>();
        for (int i = 1; i < words.length; i++) {
            int eq = words[i].indexOf('=');
            if (eq > 0) {
                f.put(words[i].substring(0, eq), words[i].substring(eq + 1));
            }
        }
        return f;
    }

    private static double number(Map<String, String> f, String key) {
        String v = f.get(key);
        return v == null || v.equals("nan") ? Double.NaN : Double.parseDouble(v);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            call("quit");
        } catch (IOException | IllegalStateException gone) {
            // it ended already
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
