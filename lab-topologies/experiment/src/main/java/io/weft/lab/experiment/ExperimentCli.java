package io.weft.lab.experiment;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import picocli.CommandLine.ParameterException;

/**
 * {@code ./weft lab experiment reroute [options]}. Bad input (an unknown experiment or option, a
 * value out of range, not root, no SEG6, a missing tool) is one line on stderr and exit 2 before
 * anything is built. While it runs, one progress line on stderr; at the end the figures (or one JSON
 * object with {@code --json}) on stdout, and {@code reroute.json} and {@code reroute.png} in the output
 * directory. Ctrl-C or a failure removes every process, namespace and route it made (shutdown hook).
 */
public final class ExperimentCli {
    private ExperimentCli() {
    }

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.contains("-h") || args.contains("--help")) {
            out.print(ExperimentOptions.usage());
            return 0;
        }
        ExperimentOptions o;
        try {
            String state = System.getenv("WEFT_STATE");
            o = ExperimentOptions.parse(args, Path.of(state == null || state.isBlank() ? ".weft" : state, "experiments",
                    "reroute"));
        } catch (ParameterException | IllegalArgumentException e) {
            err.println("experiment: " + e.getMessage());
            return 2;
        }
        String host = HostCheck.problem();
        if (host != null) {
            err.println("experiment: " + host);
            return 2;
        }
        String home = System.getenv("WEFT_HOME");
        Path root = Path.of(home != null && !home.isBlank() ? home : System.getProperty("weft.root", "."))
                .toAbsolutePath().normalize();
        Progress progress = new Progress(err);
        LabStack stack;
        try {
            Files.createDirectories(o.out());
            stack = new LabStack(o, root, progress::step);
        } catch (Exception e) {
            err.println("experiment: " + e.getMessage());
            return 1;
        }
        java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
        Thread cleanup = new Thread(() -> {
            // A terminal's Ctrl-C reaches the whole process group: the services stop on it too, and
            // the run in progress fails on their exit; that failure is not worth reporting.
            stopping.set(true);
            progress.done();
            err.println("experiment: stopping, removing the lab and every process it started");
            stack.close();
        }, "weft-experiment-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            stack.start();
            RerouteExperiment.Report report = new RerouteExperiment(stack, progress::status).run();
            progress.done();
            var json = RerouteExperiment.json(report);
            String pretty = new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(json);
            Files.writeString(o.out().resolve("reroute.json"), pretty + "\n");
            ThroughputPlot.write(report.plotted(), o.fault(), o.throttleAtS(), o.out().resolve("reroute.png"));
            out.println(o.json() ? pretty : RerouteExperiment.text(report) + "  plot: " + o.out().resolve("reroute.png")
                    + ", figures: " + o.out().resolve("reroute.json"));
            return 0;
        } catch (Exception e) {
            if (stopping.get()) {
                return 130;
            }
            progress.done();
            err.println("experiment failed: " + e.getMessage());
            err.println(stack.tails(30));
            return 1;
        } finally {
            stack.close();
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running: it cleans up.
            }
        }
    }

    /** One progress line on a terminal (rewritten in place), plain lines for steps. */
    static final class Progress {
        private final PrintStream err;
        private boolean open;
        private long last;

        Progress(PrintStream err) {
            this.err = err;
        }

        synchronized void step(String line) {
            done();
            err.println("experiment: " + line);
        }

        synchronized void status(String line) {
            long now = System.nanoTime();
            if (now - last < 200_000_000L) {
                return;
            }
            last = now;
            err.print("\r\u001b[K" + line);
            err.flush();
            open = true;
        }

        synchronized void done() {
            if (open) {
                err.println();
                open = false;
            }
        }
    }
}
