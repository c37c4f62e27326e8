package io.weft.placement.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.contracts.LinkState;
import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricFormatException;
import io.weft.fabric.FabricJson;
import io.weft.placement.ColumnGenerationMultipath;
import io.weft.placement.DenseFabric;
import io.weft.placement.Job;
import io.weft.placement.JobSpec;
import io.weft.placement.JobSpecJson;
import io.weft.placement.MultipathFlow;
import io.weft.placement.MultipathOptions;
import io.weft.placement.MultipathResult;
import io.weft.placement.Patterns;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlacementException;
import io.weft.placement.PlacementResult;
import io.weft.placement.PlanFlowEncoder;
import io.weft.placement.Unplaced;
import io.weft.placement.WeightedPath;
import io.weft.plan.FabricPlan;
import io.weft.plan.PlanException;
import io.weft.plan.Planner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code ./weft place --fabric f.json --job job.json [--tenant t] [--down l1,l2] [--drained l3] [--multipath 8/16]}:
 * places one job on an empty fabric and prints the flows with their paths, carriers, EVs and the
 * placement quality as JSON on stdout (for inspection and independent checking). Errors: one line on
 * stderr, exit 2.
 */
@Command(name = "weft place", sortOptions = false,
        description = "Places one job on the fabric and prints its flows, paths, carriers, EVs and quality as JSON.")
public final class PlaceCli {
    @Option(names = "--fabric", required = true, paramLabel = "f.json", description = "the fabric file")
    private Path fabricFile;

    @Option(names = "--job", required = true, paramLabel = "job.json", description = "the job file")
    private Path jobFile;

    @Option(names = "--tenant", paramLabel = "t", description = "place the job for this tenant")
    private String tenant;

    @Option(names = "--down", split = ",", paramLabel = "link", description = "links that are down")
    private List<String> down = new ArrayList<>();

    @Option(names = "--drained", split = ",", paramLabel = "link", description = "links that are drained")
    private List<String> drained = new ArrayList<>();

    @Option(names = "--multipath", paramLabel = "maxPaths/granularity",
            description = "split each flow over up to maxPaths weighted paths, weights in 1/granularity (e.g. 8/16);"
                    + " solved to the splittable LP optimum when the time budget allows")
    private String multipathSpec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    private boolean help;

    private PlaceCli() {
    }

    public static void main(String[] args) {
        int exit = execute(args, System.out, System.err);
        if (exit != 0) {
            System.exit(exit);
        }
    }

    /** The command: 0 with the JSON (or the help) on out, 2 with one line on err. */
    static int execute(String[] args, PrintStream out, PrintStream err) {
        PlaceCli cli = new PlaceCli();
        CommandLine line = new CommandLine(cli).setOverwrittenOptionsAllowed(true);
        try {
            line.parseArgs(args);
            if (line.isUsageHelpRequested()) {
                line.usage(out);
                return 0;
            }
            out.println(cli.place());
            return 0;
        } catch (ParameterException e) {
            err.println("weft place: " + e.getMessage() + " (see --help)");
            return 2;
        } catch (PlacementException | PlanException | FabricFormatException | IOException e) {
            err.println("weft place: " + e.getMessage());
            return 2;
        }
    }

    /** Parses the arguments and places; a bad argument throws picocli's ParameterException. */
    static String run(String[] args) throws PlacementException, PlanException, FabricFormatException, IOException {
        PlaceCli cli = new PlaceCli();
        new CommandLine(cli).setOverwrittenOptionsAllowed(true).parseArgs(args);
        return cli.place();
    }

    /** One job from the command line is not latency-bound: the solver may take 30 s before falling back. */
    static final long CLI_BUDGET_MS = 30_000;

    private String place() throws PlacementException, PlanException, FabricFormatException, IOException {
        Map<String, LinkState> states = new LinkedHashMap<>();
        down.forEach(l -> states.put(l.trim(), LinkState.DOWN));
        drained.forEach(l -> states.put(l.trim(), LinkState.DRAINED));
        Fabric fabric = FabricJson.read(fabricFile);
        MultipathOptions multipath = multipathSpec == null ? null : multipathOptions(multipathSpec);
        for (String l : states.keySet()) {
            if (fabric.link(l) == null) {
                throw new PlacementException("--down/--drained", "no link \"" + l + "\" in fabric " + fabric.id());
            }
        }
        JobSpec spec = JobSpecJson.parse(Files.readString(jobFile));
        if (tenant != null) {
            spec = new JobSpec(spec.name(), tenant, spec.pattern(), spec.endpoints(), spec.demandGbps(),
                    spec.qpSlices(), spec.concurrentPeers(), spec.order(), spec.flows());
        }
        FabricPlan plan = Planner.plan(fabric, null);
        DenseFabric ix = DenseFabric.of(fabric, states);
        PlacementEngine engine = new PlacementEngine(ix, new PlanFlowEncoder(plan), PlacementConfig.DEFAULTS);
        Job job = Patterns.expand(spec, ix, PlacementConfig.DEFAULTS.maxFlowsPerJob());
        if (multipath != null) {
            MultipathResult mr = new ColumnGenerationMultipath(ix, new PlanFlowEncoder(plan), PlacementConfig.DEFAULTS)
                    .place(job, multipath);
            return multipathJson(fabric, job, mr);
        }
        PlacementResult r = engine.add(job);
        return toJson(fabric, job, r);
    }

    /** {@code maxPaths[/granularity]} (granularity 16 when left out); a bad value names the option. */
    private static MultipathOptions multipathOptions(String v) throws PlacementException {
        String[] mg = v.split("/");
        try {
            return new MultipathOptions(Integer.parseInt(mg[0].trim()),
                    mg.length > 1 ? Integer.parseInt(mg[1].trim()) : 16,
                    CLI_BUDGET_MS).exact(); // offline: the LP optimum, when it fits the budget
        } catch (IllegalArgumentException e) {
            throw new PlacementException("--multipath",
                    "expected maxPaths/granularity, e.g. 8/16 (" + e.getMessage() + ")");
        }
    }

    /** Like {@link #toJson}, each flow with its weighted paths, and the multipath quality and bounds. */
    static String multipathJson(Fabric fabric, Job job, MultipathResult r) throws IOException {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = m.createObjectNode();
        root.put("fabric", fabric.id());
        root.put("job", job.id());
        root.put("tenant", job.tenant());
        ArrayNode flows = root.putArray("flows");
        for (MultipathFlow mf : r.flows()) {
            ObjectNode f = flows.addObject();
            f.put("id", mf.flow().id());
            f.put("src", mf.flow().srcNic());
            f.put("dst", mf.flow().dstNic());
            f.put("demandGbps", mf.flow().demandGbps());
            if (mf.note() != null) {
                f.put("note", mf.note());
            }
            ArrayNode paths = f.putArray("paths");
            for (WeightedPath wp : mf.paths()) {
                ObjectNode p = paths.addObject();
                p.put("weight", wp.weight());
                p.put("units", wp.units());
                ArrayNode links = p.putArray("links");
                for (Arc a : wp.path()) {
                    links.add(a.link().id());
                }
                ArrayNode carriers = p.putArray("carriers");
                wp.encoding().carriers().forEach(carriers::add);
                if (wp.encoding().ev() == null) {
                    p.putNull("ev");
                } else {
                    p.put("ev", wp.encoding().ev());
                }
            }
        }
        ArrayNode unplaced = root.putArray("unplaced");
        for (Unplaced u : r.unplaced()) {
            unplaced.addObject().put("id", u.flow().id()).put("reason", u.reason());
        }
        ObjectNode q = root.putObject("multipath");
        finite(q, "maxLoad", r.maxLoad());
        finite(q, "singlePathMaxLoad", r.singlePathMaxLoad());
        finite(q, "splittableOptimum", r.splittableOptimum());
        finite(q, "lowerBound", r.lowerBound());
        finite(q, "fractionalMaxLoad", r.fractionalMaxLoad());
        finite(q, "roundingBound", r.roundingBound());
        finite(q, "gapBound", r.gapBound());
        // The best any routing in whole units can do; above the optimum by more than 5 %, the units miss the goal.
        finite(q, "granularBound", r.granularBound());
        q.put("maxPathsPerFlow", r.maxPathsPerFlow());
        if (r.fallback() != null) {
            q.put("fallback", r.fallback());
        }
        return m.writeValueAsString(root);
    }

    /** A number the planner did not establish (NaN: no optimum, e.g. on a fallback) is left out: JSON has no NaN. */
    private static void finite(ObjectNode o, String name, double v) {
        if (Double.isFinite(v)) {
            o.put(name, v);
        }
    }

    static String toJson(Fabric fabric, Job job, PlacementResult r) throws IOException {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = m.createObjectNode();
        root.put("fabric", fabric.id());
        root.put("job", job.id());
        root.put("tenant", job.tenant());
        ArrayNode flows = root.putArray("flows");
        for (PlacedFlow pf : r.placed()) {
            ObjectNode f = flows.addObject();
            f.put("id", pf.flow().id());
            f.put("src", pf.flow().srcNic());
            f.put("dst", pf.flow().dstNic());
            f.put("demandGbps", pf.flow().demandGbps());
            f.put("slice", pf.flow().slice());
            ArrayNode nodes = f.putArray("nodes");
            pf.nodes().forEach(nodes::add);
            ArrayNode links = f.putArray("links");
            for (Arc a : pf.path()) {
                links.add(a.link().id());
            }
            ArrayNode carriers = f.putArray("carriers");
            pf.encoding().carriers().forEach(carriers::add);
            ArrayNode usids = f.putArray("usids");
            pf.encoding().usids().forEach(usids::add);
            if (pf.encoding().ev() == null) {
                f.putNull("ev");
            } else {
                f.put("ev", pf.encoding().ev());
            }
        }
        ArrayNode unplaced = root.putArray("unplaced");
        for (Unplaced u : r.unplaced()) {
            unplaced.addObject().put("id", u.flow().id()).put("reason", u.reason());
        }
        ObjectNode q = root.putObject("quality");
        q.put("maxLoad", r.quality().maxLoad());
        q.put("collisions", r.quality().collisions());
        q.put("totalHops", r.quality().totalHops());
        q.put("placedFlows", r.quality().placedFlows());
        return m.writeValueAsString(root);
    }
}
