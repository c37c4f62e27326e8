package io.weft.simulator.scenario;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricFormatException;
import io.weft.fabric.FabricJson;
import io.weft.fabric.FabricValidator;
import io.weft.plan.FabricPlan;
import io.weft.plan.PlanException;
import io.weft.plan.Planner;
import io.weft.plan.SnapshotJson;
import io.weft.simulator.FlowSpec;
import io.weft.simulator.LinkEvent;
import io.weft.simulator.Routing;

/**
 * Reads a scenario file (format: simulator/README.md) strictly: unknown fields, wrong types,
 * unknown NICs or links, encodings that do not walk and out-of-range values are refused with one
 * line {@code <file>: <field path>: <problem>}, before anything runs.
 */
public final class ScenarioReader {
    public static final int SCHEMA_VERSION = 1;

    private static final Set<String> TOP = Set.of("$schema", "schemaVersion", "fabric", "snapshot", "ecmpSeed", "endS",
            "flows", "events");
    private static final Set<String> FLOW = Set.of("id", "src", "dst", "tenant", "sizeBytes", "startS", "demandGbps",
            "routing");
    private static final Set<String> ROUTING = Set.of("mode", "carriers", "ev", "srcPort");
    private static final Set<String> EVENT = Set.of("atS", "link", "action", "factor", "gbps", "from");

    private ScenarioReader() {
    }

    /** Reads and validates; relative fabric and snapshot paths are resolved against the file's folder. */
    public static Scenario read(Path file) throws ScenarioException {
        String text = Fields.readFile(file);
        try {
            return parse(text, file.toAbsolutePath().getParent());
        } catch (ScenarioException e) {
            throw new ScenarioException(file + ": " + e.getMessage());
        }
    }

    /** Parses scenario text; {@code baseDir} resolves relative fabric and snapshot paths. */
    public static Scenario parse(String text, Path baseDir) throws ScenarioException {
        Fields top = Fields.topLevel(text, TOP, SCHEMA_VERSION);
        FabricPlan plan = plan(top, baseDir);
        long seed = top.integer("ecmpSeed", 0);
        double endS = top.positive("endS", false, Double.POSITIVE_INFINITY);

        JsonNode flowsNode = top.array("flows", true);
        List<FlowSpec> flows = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < flowsNode.size(); i++) {
            FlowSpec f = flow(flowsNode.get(i), "flows[" + i + "]");
            if (!ids.add(f.id())) {
                throw new ScenarioException("flows[" + i + "].id: \"" + f.id() + "\" is used by an earlier flow");
            }
            flows.add(f);
        }
        JsonNode eventsNode = top.array("events", false);
        List<LinkEvent> events = new ArrayList<>();
        for (int i = 0; i < eventsNode.size(); i++) {
            events.add(event(eventsNode.get(i), "events[" + i + "]"));
        }
        Scenario s = new Scenario(plan, seed, endS, flows, events);
        Scenario.build(s); // walks every steered flow and checks every event now, not mid-run
        return s;
    }

    private static FabricPlan plan(Fields top, Path baseDir) throws ScenarioException {
        if (top.has("fabric") == top.has("snapshot")) {
            throw new ScenarioException("fabric: give exactly one of \"fabric\" (a fabric file, planned here) "
                    + "or \"snapshot\" (the controller's snapshot, with its SIDs and EV tables)");
        }
        String field = top.has("fabric") ? "fabric" : "snapshot";
        Path p = baseDir == null ? Path.of(top.string(field)) : baseDir.resolve(top.string(field));
        try {
            if (field.equals("fabric")) {
                Fabric f = FabricJson.read(p);
                FabricValidator.requireValid(f);
                return Planner.plan(f, null);
            }
            return SnapshotJson.planFromTree(Fields.MAPPER.readTree(p.toFile()));
        } catch (FabricFormatException | PlanException e) {
            throw new ScenarioException(field + ": " + p + ": " + e.getMessage());
        } catch (IOException e) {
            throw new ScenarioException(field + ": " + p + ": cannot read: " + e.getMessage());
        }
    }

    private static FlowSpec flow(JsonNode node, String path) throws ScenarioException {
        Fields f = Fields.object(node, path, FLOW);
        String id = f.string("id");
        String src = f.string("src");
        String dst = f.string("dst");
        String tenant = f.string("tenant", "default");
        double size = f.positive("sizeBytes", false, Double.POSITIVE_INFINITY);
        double start = f.positive("startS", true, 0);
        double demand = f.positive("demandGbps", false, Double.POSITIVE_INFINITY);
        Routing routing = routing(f);
        return new FlowSpec(id, src, dst, tenant, routing, size, start, demand);
    }

    private static Routing routing(Fields flow) throws ScenarioException {
        if (!flow.has("routing")) {
            throw new ScenarioException(flow.path("routing") + ": missing (required)");
        }
        Fields r = Fields.object(flow.raw("routing"), flow.path("routing"), ROUTING);
        String mode = r.string("mode").toLowerCase(Locale.ROOT);
        switch (mode) {
            case "srv6":
                only(r, Set.of("mode", "carriers"));
                return Routing.srv6(r.strings("carriers"));
            case "ev":
                only(r, Set.of("mode", "ev"));
                return Routing.ev(r.integer("ev", 1, 0xFFFF));
            case "ecmp":
                only(r, Set.of("mode", "srcPort"));
                return Routing.ecmp(r.integer("srcPort", 1, 0xFFFF));
            default:
                throw new ScenarioException(r.path("mode") + ": \"" + mode + "\" is not one of srv6, ev, ecmp");
        }
    }

    private static LinkEvent event(JsonNode node, String path) throws ScenarioException {
        Fields e = Fields.object(node, path, EVENT);
        double at = e.positive("atS", true, Double.NaN);
        if (Double.isNaN(at)) {
            throw new ScenarioException(e.path("atS") + ": missing (required)");
        }
        String link = e.string("link");
        String action = e.string("action").toLowerCase(Locale.ROOT);
        switch (action) {
            case "fail":
                only(e, Set.of("atS", "link", "action"));
                return LinkEvent.fail(at, link);
            case "restore":
                only(e, Set.of("atS", "link", "action"));
                return LinkEvent.restore(at, link);
            case "throttle":
                only(e, Set.of("atS", "link", "action", "factor"));
                double factor = e.number("factor");
                if (factor < 0 || factor > 1) {
                    throw new ScenarioException(e.path("factor") + ": " + factor + " is not in [0, 1]");
                }
                return LinkEvent.throttle(at, link, factor);
            case "background":
                only(e, Set.of("atS", "link", "action", "gbps", "from"));
                double gbps = e.number("gbps");
                if (gbps < 0) {
                    throw new ScenarioException(e.path("gbps") + ": " + gbps + " must be >= 0");
                }
                return LinkEvent.background(at, link, e.string("from", null), gbps);
            default:
                throw new ScenarioException(e.path("action") + ": \"" + action
                        + "\" is not one of fail, restore, throttle, background");
        }
    }

    /** A field that belongs to another mode or action is a mistake worth naming. */
    private static void only(Fields f, Set<String> allowed) throws ScenarioException {
        for (String name : List.of("carriers", "ev", "srcPort", "factor", "gbps", "from")) {
            if (f.has(name) && !allowed.contains(name)) {
                throw new ScenarioException(f.path(name) + ": not used here (allowed: "
                        + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
            }
        }
    }
}
