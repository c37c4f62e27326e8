package io.weft.simulator.eval;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.lab.fabric.DragonflyGenerator;
import io.weft.lab.fabric.FatTreeGenerator;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.lab.fabric.RailGenerator;
import io.weft.lab.fabric.SlimFlyGenerator;
import io.weft.placement.DenseFabric;
import io.weft.placement.Flow;
import io.weft.placement.Job;
import io.weft.placement.JobSpec;
import io.weft.placement.Patterns;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlacementResult;
import io.weft.placement.PlanFlowEncoder;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.simulator.ArcTable;
import io.weft.simulator.EcmpHasher;
import io.weft.simulator.FlowResult;
import io.weft.simulator.FlowSpec;
import io.weft.simulator.LinkEvent;
import io.weft.simulator.Routing;
import io.weft.simulator.Simulation;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * A first, partial evaluation (./weft eval): on two fabrics, three traffic patterns over every
 * NIC, with 0 % and 2 % of the switch links failed, compares ECMP (five-tuple hash, mean and worst
 * over seeds), Weft's placement (SRv6 carriers; EV where it reaches the same path) and the LP
 * bounds, all in the flow-level simulator: max link load, slowest max-min rate, completion time
 * of a 1 GB-per-flow collective. Writes a markdown report.
 */
public final class EvalRun {
    static final double DEMAND_GBPS = 400;
    static final double COLLECTIVE_BYTES = 1e9;

    private EvalRun() {
    }

    record Metrics(double maxLoad, double slowestGbps, double cctMs, int stalled) {
    }

    /** The command line of {@code ./weft eval}; --quick changes only the seed count when not given. */
    @Command(name = "weft eval",
            description = "Weft's placement against ECMP and the LP bounds in the simulator; writes the report.")
    static final class Flags {
        @Option(names = "--out", paramLabel = "FILE", description = "the report (default ${DEFAULT-VALUE})")
        Path out = Path.of("docs/EVALUATION.md");

        @Option(names = "--seeds", paramLabel = "N", description = "seeds per case (default 10)")
        Integer seeds;

        @Option(names = "--quick", description = "3 seeds")
        boolean quick;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
        boolean help;
    }

    public static void main(String[] args) throws Exception {
        Flags flags = new Flags();
        CommandLine line = new CommandLine(flags).setOverwrittenOptionsAllowed(true);
        try {
            line.parseArgs(args);
        } catch (ParameterException e) {
            System.err.println("weft eval: " + e.getMessage() + " (see --help)");
            System.exit(2);
        }
        if (line.isUsageHelpRequested()) {
            line.usage(System.out);
            return;
        }
        Path out = flags.out;
        int seeds = flags.seeds != null ? flags.seeds : flags.quick ? 3 : 10;
        Map<String, Fabric> fabrics = new LinkedHashMap<>();
        fabrics.put("leaf-spine 1:1 (16 leaves, 8 spines, 8 NICs per leaf)",
                LeafSpineGenerator.generate(new LeafSpineGenerator.Params(null, 16, 8, 8, 1, 400, 400, 100, 500)));
        fabrics.put("leaf-spine 2:1 (16 leaves, 4 spines, 8 NICs per leaf)",
                LeafSpineGenerator.generate(new LeafSpineGenerator.Params(null, 16, 4, 8, 1, 400, 400, 100, 500)));
        fabrics.put("3-tier fat-tree k=8", FatTreeGenerator.generate(FatTreeGenerator.kary(8)));
        fabrics.put("rail-optimised (32 servers x 4 rails, 8 servers per group, 4 spines, 1 plane)",
                RailGenerator.generate(RailGenerator.Params.of(32, 4, 8, 4)));
        fabrics.put("Dragonfly p=2, a=4, h=2 (9 groups)",
                DragonflyGenerator.generate(DragonflyGenerator.Params.of(2, 4, 2)));
        fabrics.put("Slim Fly q=5", SlimFlyGenerator.generate(SlimFlyGenerator.Params.of(5)));
        StringBuilder md = new StringBuilder();
        header(md, seeds);
        int total = fabrics.size() * 3 * 2;
        System.setProperty("java.awt.headless", "true");
        int done = 0;
        long t0 = System.nanoTime();
        List<double[]> cctRatios = new ArrayList<>();
        for (Map.Entry<String, Fabric> fe : fabrics.entrySet()) {
            Fabric fabric = fe.getValue();
            FabricPlan plan = Planner.plan(fabric, null);
            ArcTable arcs = new ArcTable(fabric);
            md.append("\n## ").append(fe.getKey()).append("\n\n");
            md.append(String.format(Locale.ROOT, "%d NICs, %d switches, %d links, 400 Gbit/s everywhere.%n%n",
                    plan.nics().size(), plan.switches().size(), fabric.links().size()));
            md.append("| traffic | flows | failed links | routing | max link load | slowest flow (Gbit/s) "
                    + "| 1 GB collective (ms) | stalled / unplaced |\n");
            md.append("|---|---:|---:|---|---:|---:|---:|---:|\n");
            BarChart chart = new BarChart(fe.getKey(), "1 GB collective, ms",
                    List.of("ECMP (mean of " + seeds + " seeds)", "Weft", "bound (unsplittable LP)"));
            for (String traffic : List.of("ring", "permutation", "all-to-all")) {
                for (double failPct : new double[] {0, 2}) {
                    List<String> failedLinks = failedLinks(fabric, failPct, 77);
                    Map<String, LinkState> states = new LinkedHashMap<>();
                    failedLinks.forEach(l -> states.put(l, LinkState.DOWN));
                    DenseFabric ix = DenseFabric.of(fabric, states);
                    Job job = Patterns.expand(spec(traffic, plan, 5), ix, PlacementConfig.DEFAULTS.maxFlowsPerJob());
                    List<String[]> pairs = new ArrayList<>();
                    for (Flow f : job.flows()) {
                        pairs.add(new String[] {f.srcNic(), f.dstNic()});
                    }
                    String prefix = String.format(Locale.ROOT, "| %s | %d | %d (%.0f %%) ", traffic, pairs.size(),
                            failedLinks.size(), failPct);

                    // ECMP over seeds.
                    double[] sum = new double[4];
                    Metrics worst = null;
                    for (int s = 1; s <= seeds; s++) {
                        Random r = new Random(1000 + s);
                        List<Routing> routings = new ArrayList<>();
                        for (int i = 0; i < pairs.size(); i++) {
                            routings.add(Routing.ecmp(0xC000 + r.nextInt(0x4000)));
                        }
                        Metrics m = simulate(plan, arcs, failedLinks, pairs, routings, s);
                        sum[0] += m.maxLoad();
                        sum[1] += m.slowestGbps();
                        sum[2] += m.cctMs();
                        sum[3] += m.stalled();
                        if (worst == null || m.cctMs() > worst.cctMs()) {
                            worst = m;
                        }
                    }
                    md.append(prefix).append(String.format(Locale.ROOT,
                            "| ECMP, mean of %d seeds (worst) | %.2f (%.2f) | %.1f (%.1f) | %s (%s) | %.1f |%n", seeds,
                            sum[0] / seeds, worst.maxLoad(), sum[1] / seeds, worst.slowestGbps(),
                            ms(sum[2] / seeds), ms(worst.cctMs()), sum[3] / seeds));

                    // Weft: the placement engine's paths, as SRv6 carriers (and EVs where they reach the path).
                    PlacementEngine engine = new PlacementEngine(ix, new PlanFlowEncoder(plan),
                            PlacementConfig.DEFAULTS);
                    PlacementResult placed = engine.add(job);
                    List<String[]> weftPairs = new ArrayList<>();
                    List<Routing> srv6 = new ArrayList<>();
                    List<Routing> evOrSrv6 = new ArrayList<>();
                    int evs = 0;
                    for (PlacedFlow pf : placed.placed()) {
                        weftPairs.add(new String[] {pf.flow().srcNic(), pf.flow().dstNic()});
                        Routing sr = Routing.srv6(pf.encoding().carriers());
                        srv6.add(sr);
                        if (pf.encoding().ev() != null) {
                            evs++;
                            evOrSrv6.add(Routing.ev(pf.encoding().ev()));
                        } else {
                            evOrSrv6.add(sr);
                        }
                    }
                    Metrics w = simulate(plan, arcs, failedLinks, weftPairs, srv6, 1);
                    Metrics we = simulate(plan, arcs, failedLinks, weftPairs, evOrSrv6, 1);
                    if (Math.abs(w.cctMs() - we.cctMs()) > 1e-6 || Math.abs(w.maxLoad() - we.maxLoad()) > 1e-9) {
                        throw new IllegalStateException("EV routes differ from the SRv6 routes of the same placement");
                    }
                    int unplaced = placed.unplaced().size();
                    md.append(prefix).append(String.format(Locale.ROOT,
                            "| Weft (SRv6; EV reaches %d/%d paths, same numbers) | %.2f | %.1f | %s | %d |%n", evs,
                            weftPairs.size(), w.maxLoad(), unplaced > 0 ? 0 : w.slowestGbps(),
                            unplaced > 0 ? "n/a" : ms(w.cctMs()), w.stalled() + unplaced));

                    // LP bounds over any path of the surviving fabric.
                    boolean[] failedArcs = new boolean[arcs.size()];
                    for (String l : failedLinks) {
                        int li = arcs.linkIndexOf(l);
                        failedArcs[2 * li] = true;
                        failedArcs[2 * li + 1] = true;
                    }
                    LpBounds.Result lp = LpBounds.of(plan, arcs, failedArcs, pairs, DEMAND_GBPS);
                    double rateBound = Math.min(DEMAND_GBPS, lp.maxMinRateGbps());
                    // Equal line-rate flows on equal links: an unsplittable routing puts a whole number of
                    // flows on its busiest link, so at least ceil(LP) of them; they share its 400G.
                    int whole = (int) Math.ceil(lp.minMaxLoad() - 1e-6);
                    md.append(prefix).append(String.format(Locale.ROOT,
                            "| LP bound (splittable, any path); unsplittable | %.2f; ≥ %d | %.1f; ≤ %.1f | %s; ≥ %s | "
                                    + "– |%n",
                            lp.minMaxLoad(), whole, rateBound, DEMAND_GBPS / whole,
                            ms(COLLECTIVE_BYTES * 8 / (rateBound * 1e9) * 1e3),
                            ms(COLLECTIVE_BYTES * 8 * whole / (DEMAND_GBPS * 1e9) * 1e3)));
                    chart.add(traffic + "\n" + (int) failPct + " % failed", sum[2] / seeds,
                            unplaced > 0 ? Double.POSITIVE_INFINITY : w.cctMs(),
                            COLLECTIVE_BYTES * 8 * whole / (DEMAND_GBPS * 1e9) * 1e3);
                    if (unplaced == 0) {
                        cctRatios.add(new double[] {failPct, (sum[2] / seeds) / w.cctMs(), worst.cctMs() / w.cctMs(),
                                w.maxLoad() <= whole + 1e-9 ? 1 : 0});
                    }
                    done++;
                    progress(done, total, t0);
                }
            }
            // The plot sits next to the report (eval/<fabric id>.png) and is linked from it.
            String png = "eval/" + fabric.id() + ".png";
            chart.write(out.toAbsolutePath().getParent().resolve(png));
            md.append("\n![1 GB collective completion time on ").append(fabric.id()).append("](").append(png)
                    .append(")\n");
        }
        summary(md, cctRatios);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, md.toString() + keptSections(out));
        System.err.println();
        System.out.println("wrote " + out);
    }

    /** Traffic over every NIC in a seeded random rank order (so that rings and shifts cross the fabric). */
    static JobSpec spec(String traffic, FabricPlan plan, long seed) {
        List<String> nics = new ArrayList<>(plan.nics());
        Collections.shuffle(nics, new Random(seed));
        switch (traffic) {
            case "ring":
                return JobSpec.of("ring", "ring", nics, DEMAND_GBPS);
            case "all-to-all":
                return JobSpec.of("a2a", "all-to-all", nics, DEMAND_GBPS).withConcurrentPeers(8);
            case "permutation":
                List<JobSpec.FlowSpec> flows = new ArrayList<>();
                for (int i = 0; i < nics.size(); i++) {
                    // A random derangement: rank i sends to rank i + n/2 of the shuffled order.
                    flows.add(new JobSpec.FlowSpec(nics.get(i), nics.get((i + nics.size() / 2) % nics.size()), 0));
                }
                return new JobSpec("perm", "default", "explicit", List.of(), DEMAND_GBPS, 1, 0, "given", flows);
            default:
                throw new IllegalArgumentException("traffic: " + traffic);
        }
    }

    /** About {@code pct} % of the switch-to-switch links, chosen with a fixed seed (the same for every routing). */
    static List<String> failedLinks(Fabric fabric, double pct, long seed) {
        List<String> sw = new ArrayList<>();
        for (Link l : fabric.links()) {
            if (fabric.node(l.a().node()).role().isSwitch() && fabric.node(l.b().node()).role().isSwitch()) {
                sw.add(l.id());
            }
        }
        Collections.shuffle(sw, new Random(seed));
        return new ArrayList<>(sw.subList(0, (int) Math.round(sw.size() * pct / 100)));
    }

    /** Max offered link load and slowest max-min rate (flows wanting line rate), then the 1 GB collective. */
    static Metrics simulate(FabricPlan plan, ArcTable arcs, List<String> failed, List<String[]> pairs,
                            List<Routing> routings, long seed) throws Exception {
        Simulation steady = new Simulation(plan, new EcmpHasher(seed));
        Simulation collective = new Simulation(plan, new EcmpHasher(seed));
        for (String l : failed) {
            steady.schedule(LinkEvent.fail(0, l));
            collective.schedule(LinkEvent.fail(0, l));
        }
        for (int i = 0; i < pairs.size(); i++) {
            String[] p = pairs.get(i);
            steady.addFlow(new FlowSpec("f" + i, p[0], p[1], "default", routings.get(i), Double.POSITIVE_INFINITY, 0,
                    DEMAND_GBPS));
            collective.addFlow(new FlowSpec("f" + i, p[0], p[1], "default", routings.get(i), COLLECTIVE_BYTES, 0,
                    DEMAND_GBPS));
        }
        steady.runUntil(0);
        double[] offered = new double[arcs.size()];
        double slowest = Double.POSITIVE_INFINITY;
        int stalled = 0;
        for (int i = 0; i < pairs.size(); i++) {
            int[] route = steady.routeArcs("f" + i);
            FlowResult r = steady.result("f" + i);
            if (r.state() == FlowResult.State.STALLED || route == null) {
                stalled++;
                slowest = 0;
                continue;
            }
            slowest = Math.min(slowest, r.rateGbps());
            for (int a : route) {
                offered[a] += DEMAND_GBPS;
            }
        }
        double[] cap = steady.arcCapacitiesGbps();
        double maxLoad = 0;
        for (int a = 0; a < cap.length; a++) {
            if (offered[a] > 0) {
                maxLoad = Math.max(maxLoad, offered[a] / cap[a]);
            }
        }
        collective.run();
        double cct = 0;
        for (FlowResult r : collective.results()) {
            cct = r.state() == FlowResult.State.DONE ? Math.max(cct, r.finishS()) : Double.POSITIVE_INFINITY;
        }
        return new Metrics(maxLoad, slowest == Double.POSITIVE_INFINITY ? 0 : slowest, cct * 1e3, stalled);
    }

    private static String ms(double v) {
        return Double.isInfinite(v) ? "∞ (stalled)" : String.format(Locale.ROOT, "%.2f", v);
    }

    private static void progress(int done, int total, long t0) {
        int width = 30;
        int filled = done * width / total;
        System.err.printf(Locale.ROOT, "\r[%s%s] %d/%d cases, %.0f s", "#".repeat(filled), ".".repeat(width - filled),
                done, total, (System.nanoTime() - t0) / 1e9);
    }

    private static void header(StringBuilder md, int seeds) {
        md.append("# Weft evaluation (partial, first run)\n\n");
        md.append("> **Partial.** Written by `./weft eval` from the flow-level simulator (simulator/README.md: "
                + "no packets, queues, PFC or DCQCN, so every completion time is optimistic and gaps between "
                + "routings come from path choice alone). Six small fabrics (72-200 NICs), three traffic "
                + "patterns; not yet: multi-plane rails (the LP below assumes single-homed NICs), the seeds' sizes "
                + "(~1,000 endpoints: the any-path LP for a 1,024-NIC fat-tree did not "
                + "finish within 5 minutes here), pipeline "
                + "and multi-job traffic, t as a placement constraint (Reunion's setting).\n\n");
        md.append("Every flow wants 400 Gbit/s (line rate). **Max link load**: offered load / capacity of the "
                + "busiest link direction (1.00 = exactly full; the LP row is the least any splittable routing "
                + "over any paths can reach, so it bounds ECMP and Weft alike). **Slowest flow**: smallest max-min "
                + "fair rate with every "
                + "flow sending at once (LP row: the largest rate all flows can get at once, capped at 400). "
                + "**1 GB collective**: every flow sends 1 GB from time 0; time until the last one is done "
                + "(LP row: 8 Gbit / that rate). ECMP: CRC-32 five-tuple hash per switch with random RoCEv2 "
                + "source ports, mean over " + seeds + " hash seeds, worst seed (by collective time) in "
                + "brackets; failed links are routed around (converged underlay). Weft: the placement "
                + "engine's paths (placed knowing the failed links), walked from their SRv6 carriers; where "
                + "EV routing reaches the same path its EV was simulated too and gave identical numbers. "
                + "Failed links: 2 % of the switch-to-switch links, one fixed seeded choice. The LP splits "
                + "flows, a real flow cannot: where a leaf is left with 6 uplinks for 8 flows the LP reaches "
                + "8/6 = 1.33 but any unsplittable routing puts two flows on some uplink. Since every flow "
                + "wants the full 400 Gbit/s of equal links, the LP row also gives the bound for unsplittable "
                + "routings after the semicolon: at least ⌈LP⌉ flows on the busiest link, sharing it.\n");
    }

    private static void summary(StringBuilder md, List<double[]> ratios) {
        md.append("\n## What this speaks to\n\n");
        int atBound = 0;
        for (double[] r : ratios) {
            atBound += (int) r[3];
        }
        md.append(String.format(Locale.ROOT, "- Weft's max link load equals the unsplittable LP bound in %d of %d "
                + "cases (equal line-rate flows: no unsplittable routing can do better there).%n", atBound,
                ratios.size()));
        for (double pct : new double[] {0, 2}) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = 0;
            double worst = 0;
            for (double[] r : ratios) {
                if (r[0] == pct) {
                    lo = Math.min(lo, r[1]);
                    hi = Math.max(hi, r[1]);
                    worst = Math.max(worst, r[2]);
                }
            }
            md.append(String.format(Locale.ROOT,
                    "- %.0f %% failed links: ECMP's mean collective time is %.2f× to %.2f× Weft's (worst seed up "
                            + "to %.2f×).%n", pct, lo, hi, worst));
        }
        md.append("- Spritz reports up to 1.8× flow completion time against UGAL-L and up to 25.4× under 2 % "
                + "link failures, on Dragonfly / Slim Fly, against adaptive routing, with packet-level "
                + "simulation at about 1,000 endpoints. The Dragonfly and Slim Fly rows here are small (72 and "
                + "200 NICs), against minimal ECMP rather than UGAL-L, in a fluid model, so they do not test that "
                + "claim yet; they show the part of the gap that comes from path choice alone. In the fluid "
                + "model a failed link costs ECMP only the capacity it removes (flows re-hash at once, no loss, "
                + "no timeouts), which is why the 2 % rows cannot show Spritz-sized factors.\n");
        md.append("- Every flow here is a 400 Gbit/s elephant on 400 Gbit/s links, so the max link load column is "
                + "also the number of elephants on the busiest link, Reunion's t: the table gives t for each "
                + "routing and its lower bound (after the semicolon). Using t as a constraint is not run yet.\n");
        md.append("- Reunion (tail latency) and the SRv6 paper (+28.7 % delivered) need queueing and "
                + "transport dynamics this model does not have; not addressed here.\n");
    }

    /** Marks where the sections other tools write begin (e.g. the lab's reroute experiment). */
    static final String KEPT_MARKER = "<!-- Sections below are not written by ./weft eval, which keeps them. -->";

    /** The part of an existing report from {@link #KEPT_MARKER} on, so a re-run does not drop it. */
    static String keptSections(Path out) throws java.io.IOException {
        if (!Files.exists(out)) {
            return "";
        }
        String old = Files.readString(out);
        int at = old.indexOf(KEPT_MARKER);
        return at < 0 ? "" : "\n" + old.substring(at);
    }
}
