package io.weft.simulator.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.Arc;
import io.weft.simulator.FlowResult;
import io.weft.simulator.Simulation;
import io.weft.simulator.scenario.Scenario;
import io.weft.simulator.scenario.ScenarioException;
import io.weft.simulator.scenario.ScenarioReader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * Runs one scenario file and prints each flow's outcome (a table, or JSON with --json). A bad
 * file prints one line naming the field on stderr and exits 2, before anything runs.
 */
@Command(name = "./weft simulate", description = "Runs a scenario and prints each flow's outcome.")
public final class SimulateCli {
    @Parameters(paramLabel = "scenario.json", description = "the scenario file (simulator/README.md)")
    private Path file;

    @Option(names = "--json", description = "print JSON instead of a table")
    private boolean json;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    private boolean help;

    private SimulateCli() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        SimulateCli cli = new SimulateCli();
        CommandLine line = new CommandLine(cli).setOverwrittenOptionsAllowed(true);
        try {
            line.parseArgs(args);
        } catch (ParameterException e) {
            err.println("simulate: " + e.getMessage() + " (see --help)");
            return 2;
        }
        if (line.isUsageHelpRequested()) {
            line.usage(out);
            return 0;
        }
        return cli.simulate(out, err);
    }

    private int simulate(PrintStream out, PrintStream err) {
        Scenario scenario;
        try {
            scenario = ScenarioReader.read(file);
        } catch (ScenarioException e) {
            err.println(e.getMessage());
            return 2;
        }
        Simulation sim = scenario.simulation();
        long t0 = System.nanoTime();
        sim.runUntil(scenario.endS());
        double wallMs = (System.nanoTime() - t0) / 1e6;
        List<FlowResult> results = sim.results();
        if (json) {
            out.println(toJson(sim, results, wallMs));
        } else {
            out.printf(Locale.ROOT, "%-16s %-8s %10s %10s %10s %10s  %s%n", "flow", "state", "start_s", "finish_s",
                    "fct_s", "rate_gbps", "route");
            for (FlowResult r : results) {
                out.printf(Locale.ROOT, "%-16s %-8s %10.6f %10.6f %10.6f %10.3f  %s%n", r.id(), r.state(), r.startS(),
                        r.finishS(), r.fctS(), r.rateGbps(), nodes(r.route()));
            }
            out.printf(Locale.ROOT, "simulated to %.6f s in %d rate recomputations, %.1f ms wall%n", sim.now(),
                    sim.recomputations(), wallMs);
        }
        return 0;
    }

    private static String toJson(Simulation sim, List<FlowResult> results, double wallMs) {
        ObjectMapper m = new ObjectMapper();
        ObjectNode root = m.createObjectNode();
        root.put("endS", sim.now());
        root.put("recomputations", sim.recomputations());
        root.put("wallMs", wallMs);
        ArrayNode flows = root.putArray("flows");
        for (FlowResult r : results) {
            ObjectNode f = flows.addObject();
            f.put("id", r.id());
            f.put("state", r.state().name().toLowerCase(Locale.ROOT));
            f.put("startS", r.startS());
            if (r.state() == FlowResult.State.DONE) {
                f.put("finishS", r.finishS());
                f.put("fctS", r.fctS());
            }
            f.put("rateGbps", r.rateGbps());
            ArrayNode route = f.putArray("route");
            nodes(r.route()).forEach(route::add);
        }
        return root.toString();
    }

    private static List<String> nodes(List<Arc> route) {
        List<String> out = new ArrayList<>();
        if (!route.isEmpty()) {
            out.add(route.get(0).from());
            route.forEach(a -> out.add(a.to()));
        }
        return out;
    }
}
