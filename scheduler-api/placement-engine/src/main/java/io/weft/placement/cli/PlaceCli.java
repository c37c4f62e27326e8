package io.weft.placement.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.contracts.LinkState;
import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricFormatException;
import io.weft.fabric.FabricJson;
import io.weft.plan.FabricPlan;
import io.weft.plan.PlanException;
import io.weft.plan.Planner;
import io.weft.placement.FabricIndex;
import io.weft.placement.Job;
import io.weft.placement.JobSpec;
import io.weft.placement.JobSpecJson;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlacementException;
import io.weft.placement.PlacementResult;
import io.weft.placement.Patterns;
import io.weft.placement.PlanFlowEncoder;
import io.weft.placement.Unplaced;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code ./weft place --fabric f.json --job job.json [--tenant t] [--down l1,l2] [--drained l3]}:
 * places one job on an empty fabric and prints the flows with their paths, carriers, EVs and the
 * placement quality as JSON on stdout (for inspection and independent checking). Errors: one line on
 * stderr, exit 2.
 */
public final class PlaceCli {
    private PlaceCli() {
    }

    public static void main(String[] args) {
        try {
            System.out.println(run(args));
        } catch (UsageError | PlacementException | PlanException | FabricFormatException | IOException e) {
            System.err.println("weft place: " + e.getMessage());
            System.exit(2);
        }
    }

    static final class UsageError extends Exception {
        private static final long serialVersionUID = 1L;

        UsageError(String m) {
            super(m);
        }
    }

    static String run(String[] args) throws UsageError, PlacementException, PlanException, FabricFormatException,
            IOException {
        String fabricFile = null;
        String jobFile = null;
        String tenant = null;
        Map<String, LinkState> states = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                throw new UsageError("usage: ./weft place --fabric f.json --job job.json [--tenant t] "
                        + "[--down link,...] [--drained link,...]");
            }
            if (i + 1 >= args.length) {
                throw new UsageError(a + ": needs a value");
            }
            String v = args[++i];
            switch (a) {
                case "--fabric":
                    fabricFile = v;
                    break;
                case "--job":
                    jobFile = v;
                    break;
                case "--tenant":
                    tenant = v;
                    break;
                case "--down":
                case "--drained":
                    for (String l : v.split(",")) {
                        states.put(l.trim(), a.equals("--down") ? LinkState.DOWN : LinkState.DRAINED);
                    }
                    break;
                default:
                    throw new UsageError("unknown option " + a + " (see --help)");
            }
        }
        if (fabricFile == null || jobFile == null) {
            throw new UsageError("--fabric and --job are required (see --help)");
        }
        Fabric fabric = FabricJson.read(Path.of(fabricFile));
        for (String l : states.keySet()) {
            if (fabric.link(l) == null) {
                throw new UsageError("--down/--drained: no link \"" + l + "\" in fabric " + fabric.id());
            }
        }
        JobSpec spec = JobSpecJson.parse(Files.readString(Path.of(jobFile)));
        if (tenant != null) {
            spec = new JobSpec(spec.name(), tenant, spec.pattern(), spec.endpoints(), spec.demandGbps(),
                    spec.qpSlices(), spec.concurrentPeers(), spec.order(), spec.flows());
        }
        FabricPlan plan = Planner.plan(fabric, null);
        FabricIndex ix = FabricIndex.of(fabric, states);
        PlacementEngine engine = new PlacementEngine(ix, new PlanFlowEncoder(plan), PlacementConfig.DEFAULTS);
        Job job = Patterns.expand(spec, ix, PlacementConfig.DEFAULTS.maxFlowsPerJob());
        PlacementResult r = engine.add(job);
        return toJson(fabric, job, r);
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
