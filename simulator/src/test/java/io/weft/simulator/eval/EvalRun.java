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
import io.weft.fabric.Arc;
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
    /** Above this many NICs the LP is not solved: GLOP did not finish a 1,024-NIC fat-tree in 5 minutes here. */
    static final int LP_MAX_NICS = 256;

    private EvalRun() {
    }

    /**
     * elephants / fabricElephants: the most flows sharing one link direction (Reunion's t), over
     * every link and over switch-to-switch links only (every flow here is a line-rate elephant).
     */
    record Metrics(double maxLoad, double slowestGbps, double cctMs, int stalled, int elephants,
                   int fabricElephants) {
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

        @Option(names = "--large", description = "also a k=16 fat-tree (1,024 NICs, without the LP bound)")
        boolean large;

        @Option(names = "--fabric", paramLabel = "ID", description = "only this fabric (its id, e.g. rail-32x4-2pl)")
        String fabric;

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
        if (flags.large) {
            fabrics.put("3-tier fat-tree k=16 (the seeds' size: 1,024 NICs; no LP)",
                    FatTreeGenerator.generate(FatTreeGenerator.kary(16)));
        }
        fabrics.put("rail-optimised (32 servers x 4 rails, 8 servers per group, 4 spines, 1 plane)",
                RailGenerator.generate(RailGenerator.Params.of(32, 4, 8, 4)));
        fabrics.put("rail-optimised, 2 planes (32 servers x 4 rails, 8 per group, 4 spines per plane)",
                RailGenerator.generate(new RailGenerator.Params("rail-32x4-2pl", 32, 4, 8, 4, 2, 400, 400, 100, 500)));
        fabrics.put("Dragonfly p=2, a=4, h=2 (9 groups)",
                DragonflyGenerator.generate(DragonflyGenerator.Params.of(2, 4, 2)));
        fabrics.put("Slim Fly q=5", SlimFlyGenerator.generate(SlimFlyGenerator.Params.of(5)));
        if (flags.large) {
            // Spritz's setting: Dragonfly and Slim Fly with about 1,000 endpoints.
            fabrics.put("Dragonfly p=4, a=8, h=4 (33 groups, 1,056 NICs: the seeds' size; no LP)",
                    DragonflyGenerator.generate(DragonflyGenerator.Params.of(4, 8, 4)));
            fabrics.put("Slim Fly q=9 (162 routers, 1,134 NICs: the seeds' size; no LP)",
                    SlimFlyGenerator.generate(SlimFlyGenerator.Params.of(9)));
        }
        if (flags.fabric != null) {
            fabrics.values().removeIf(f -> !f.id().equals(flags.fabric));
            if (fabrics.isEmpty()) {
                System.err.println("weft eval: --fabric: no fabric with id " + flags.fabric);
                System.exit(2);
            }
        }
        StringBuilder md = new StringBuilder();
        header(md, seeds, flags.large, fabrics.size());
        int total = fabrics.size() * TRAFFIC.size() * 2;
        System.setProperty("java.awt.headless", "true");
        int done = 0;
        long t0 = System.nanoTime();
        String load0 = loadAverage();
        List<double[]> cctRatios = new ArrayList<>();
        for (Map.Entry<String, Fabric> fe : fabrics.entrySet()) {
            Fabric fabric = fe.getValue();
            FabricPlan plan = Planner.plan(fabric, null);
            ArcTable arcs = new ArcTable(fabric);
            md.append("\n## ").append(fe.getKey()).append("\n\n");
            md.append(String.format(Locale.ROOT, "%d NICs, %d switches, %d links, 400 Gbit/s everywhere.%s%n%n",
                    plan.nics().size(), plan.switches().size(), fabric.links().size(),
                    fabric.id().endsWith("-2pl") ? " Every NIC has one port per plane; the planes do not interconnect."
                            : ""));
            md.append("**Speaks to:** ").append(claims(fabric, plan.nics().size())).append("\n\n");
            // Spritz's setting: a low-diameter fabric with about 1,000 endpoints.
            boolean spritzSize = (fabric.id().startsWith("df-") || fabric.id().startsWith("sf-"))
                    && plan.nics().size() >= 1000;
            md.append("| traffic | flows | failed links | routing | max link load | slowest flow (Gbit/s) "
                    + "| 1 GB collective (ms) | elephants per link t: any link; fabric links | stalled / unplaced |\n");
            md.append("|---|---:|---:|---|---:|---:|---:|---:|---:|\n");
            BarChart chart = new BarChart(fe.getKey(), "1 GB collective, ms",
                    List.of("ECMP (mean of " + seeds + " seeds)", "UGAL-L (mean)", "Weft",
                            plan.nics().size() > LP_MAX_NICS
                            ? "bound (NIC links, capacity)" : "bound (unsplittable LP)"));
            for (String traffic : TRAFFIC) {
                for (double failPct : new double[] {0, 2}) {
                    List<String> failedLinks = failedLinks(fabric, failPct, 77);
                    Map<String, LinkState> states = new LinkedHashMap<>();
                    failedLinks.forEach(l -> states.put(l, LinkState.DOWN));
                    DenseFabric ix = DenseFabric.of(fabric, states);
                    List<Job> jobs = new ArrayList<>();
                    for (JobSpec js : specs(traffic, plan, 5)) {
                        jobs.add(Patterns.expand(js, ix, PlacementConfig.DEFAULTS.maxFlowsPerJob()));
                    }
                    List<String[]> pairs = new ArrayList<>();
                    for (Job job : jobs) {
                        for (Flow f : job.flows()) {
                            pairs.add(new String[] {f.srcNic(), f.dstNic()});
                        }
                    }
                    String prefix = String.format(Locale.ROOT, "| %s | %d | %d (%.0f %%) ", traffic, pairs.size(),
                            failedLinks.size(), failPct);

                    // ECMP and UGAL-L over the same seeds (the same source ports and hash seeds).
                    Seeded ecmp = overSeeds(plan, arcs, failedLinks, pairs, seeds, Routing::ecmp);
                    Seeded ugal = overSeeds(plan, arcs, failedLinks, pairs, seeds, Routing::ugalL);
                    md.append(prefix).append(ecmp.row("ECMP", seeds));
                    md.append(prefix).append(ugal.row("UGAL-L", seeds));
                    double[] sum = ecmp.sum();
                    Metrics worst = ecmp.worst();

                    // Weft: the placement engine's paths, as SRv6 carriers (and EVs where they reach the path).
                    // Several jobs: placed one after the other, each seeing the ones before it (as scheduler-api does).
                    PlacementEngine engine = new PlacementEngine(ix, new PlanFlowEncoder(plan),
                            PlacementConfig.DEFAULTS);
                    List<PlacedFlow> placedFlows = new ArrayList<>();
                    int unplaced = 0;
                    for (Job job : jobs) {
                        PlacementResult placed = engine.add(job);
                        placedFlows.addAll(placed.placed());
                        unplaced += placed.unplaced().size();
                    }
                    List<String[]> weftPairs = new ArrayList<>();
                    List<Routing> srv6 = new ArrayList<>();
                    List<Routing> evOrSrv6 = new ArrayList<>();
                    int evs = 0;
                    for (PlacedFlow pf : placedFlows) {
                        weftPairs.add(new String[] {pf.flow().srcNic(), pf.flow().dstNic()});
                        Routing sr = Routing.srv6(pf.encoding().carriers());
                        srv6.add(sr);
                        if (pf.encoding().ev() != null) {
                            evs++;
                            evOrSrv6.add(Routing.ev(pf.encoding().ev(), pf.path().get(0).link().id()));
                        } else {
                            evOrSrv6.add(sr);
                        }
                    }
                    Metrics w = simulate(plan, arcs, failedLinks, weftPairs, srv6, 1);
                    Metrics we = simulate(plan, arcs, failedLinks, weftPairs, evOrSrv6, 1);
                    if (Math.abs(w.cctMs() - we.cctMs()) > 1e-6 || Math.abs(w.maxLoad() - we.maxLoad()) > 1e-9) {
                        throw new IllegalStateException("EV routes differ from the SRv6 routes of the same placement");
                    }
                    md.append(prefix).append(String.format(Locale.ROOT,
                            "| Weft (SRv6; EV reaches %d/%d paths, same numbers) | %.2f | %.1f | %s | %d; %d | %d |%n",
                                    evs,
                            weftPairs.size(), w.maxLoad(), unplaced > 0 ? 0 : w.slowestGbps(),
                            unplaced > 0 ? "n/a" : ms(w.cctMs()), w.elephants(), w.fabricElephants(),
                            w.stalled() + unplaced));

                    // LP bounds over any path of the surviving fabric.
                    boolean[] failedArcs = new boolean[arcs.size()];
                    for (String l : failedLinks) {
                        int li = arcs.linkIndexOf(l);
                        failedArcs[2 * li] = true;
                        failedArcs[2 * li + 1] = true;
                    }
                    if (plan.nics().size() > LP_MAX_NICS) {
                        // No LP at this size; the NICs' own links and the fabric's total capacity still bound
                        // every routing from below.
                        double volume = VolumeBound.maxLoad(plan, arcs, failedArcs, pairs, DEMAND_GBPS);
                        int nicBound = Math.max(nicLinkBound(pairs), (int) Math.ceil(volume - 1e-9));
                        md.append(prefix).append(String.format(Locale.ROOT,
                                "| bound from the NICs' links and the fabric's capacity (volume %.2f; no LP at this "
                                        + "size) | ≥ %d | ≤ %.1f | ≥ %s | ≥ %d; – | – |%n", volume, nicBound,
                                DEMAND_GBPS / nicBound,
                                ms(COLLECTIVE_BYTES * 8 * nicBound / (DEMAND_GBPS * 1e9) * 1e3), nicBound));
                        chart.add(traffic + "\n" + (int) failPct + " % failed", sum[2] / seeds,
                                ugal.sum()[2] / seeds, unplaced > 0 ? Double.POSITIVE_INFINITY : w.cctMs(),
                                COLLECTIVE_BYTES * 8 * nicBound / (DEMAND_GBPS * 1e9) * 1e3);
                        if (unplaced == 0) {
                            cctRatios.add(new double[] {failPct, (sum[2] / seeds) / w.cctMs(),
                                    worst.cctMs() / w.cctMs(), -1, sum[4] / seeds, w.elephants(),
                                    sum[5] / seeds, w.fabricElephants(), -1, spritzSize ? 1 : 0,
                                    (ugal.sum()[2] / seeds) / w.cctMs(), ugal.worst().cctMs() / w.cctMs()});
                        }
                        done++;
                        progress(done, total, t0);
                        continue;
                    }
                    LpBounds.Result lp = LpBounds.of(plan, arcs, failedArcs, pairs, DEMAND_GBPS);
                    double rateBound = Math.min(DEMAND_GBPS, lp.maxMinRateGbps());
                    // Equal line-rate flows on equal links: an unsplittable routing puts a whole number of
                    // flows on its busiest link, so at least ceil(LP) of them; they share its 400G.
                    int whole = (int) Math.ceil(lp.minMaxLoad() - 1e-6);
                    md.append(prefix).append(String.format(Locale.ROOT,
                            "| LP bound (splittable, any path); unsplittable | %.2f; ≥ %d | %.1f; ≤ %.1f | %s; ≥ %s | "
                                    + "≥ %d; – | – |%n",
                            lp.minMaxLoad(), whole, rateBound, DEMAND_GBPS / whole,
                            ms(COLLECTIVE_BYTES * 8 / (rateBound * 1e9) * 1e3),
                            ms(COLLECTIVE_BYTES * 8 * whole / (DEMAND_GBPS * 1e9) * 1e3), whole));
                    chart.add(traffic + "\n" + (int) failPct + " % failed", sum[2] / seeds,
                            ugal.sum()[2] / seeds, unplaced > 0 ? Double.POSITIVE_INFINITY : w.cctMs(),
                            COLLECTIVE_BYTES * 8 * whole / (DEMAND_GBPS * 1e9) * 1e3);
                    if (unplaced == 0) {
                        cctRatios.add(new double[] {failPct, (sum[2] / seeds) / w.cctMs(), worst.cctMs() / w.cctMs(),
                                w.maxLoad() <= whole + 1e-9 ? 1 : 0, sum[4] / seeds, w.elephants(),
                                sum[5] / seeds, w.fabricElephants(), whole, spritzSize ? 1 : 0,
                                (ugal.sum()[2] / seeds) / w.cctMs(), ugal.worst().cctMs() / w.cctMs()});
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
        summary(md, cctRatios, fabrics.values().stream().anyMatch(f -> f.id().equals("df-4-8-4")));
        md.append(String.format(Locale.ROOT, "%nThis run: %d cases in %.0f s of wall time, load average %s at its "
                + "start and %s at its end (a 2-core machine shared by about eight busy engineers).%n", total,
                (System.nanoTime() - t0) / 1e9, load0, loadAverage()));
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, md.toString() + keptSections(out));
        System.err.println();
        System.out.println("wrote " + out);
    }

    /** The traffic patterns, each over every NIC (the last: four jobs on a quarter of the NICs each). */
    static final List<String> TRAFFIC = List.of("ring", "permutation", "all-to-all", "pipeline", "4 jobs");
    /** Stages per pipeline in the pipeline traffic (GPipe / Megatron pipeline parallelism: 4-8 stages). */
    static final int PIPELINE_STAGES = 8;

    /**
     * The jobs of one traffic pattern over every NIC in a seeded random rank order (so that rings and
     * shifts cross the fabric). "4 jobs": the NICs split in four, a ring, an all-to-all, a pipeline and
     * a permutation at once, placed in that order.
     */
    static List<JobSpec> specs(String traffic, FabricPlan plan, long seed) {
        List<String> nics = new ArrayList<>(plan.nics());
        Collections.shuffle(nics, new Random(seed));
        if (!traffic.equals("4 jobs")) {
            return List.of(spec(traffic, nics, ""));
        }
        List<JobSpec> out = new ArrayList<>();
        List<String> kinds = List.of("ring", "all-to-all", "pipeline", "permutation");
        int n = nics.size();
        for (int j = 0; j < kinds.size(); j++) {
            out.add(spec(kinds.get(j), nics.subList(j * n / kinds.size(), (j + 1) * n / kinds.size()), "-" + j));
        }
        return out;
    }

    static JobSpec spec(String traffic, List<String> nics, String suffix) {
        switch (traffic) {
            case "ring":
                return JobSpec.of("ring" + suffix, "ring", nics, DEMAND_GBPS);
            case "all-to-all":
                return JobSpec.of("a2a" + suffix, "all-to-all", nics, DEMAND_GBPS).withConcurrentPeers(8);
            case "permutation": {
                List<JobSpec.FlowSpec> flows = new ArrayList<>();
                for (int i = 0; i < nics.size(); i++) {
                    // A random derangement: rank i sends to rank i + n/2 of the shuffled order.
                    flows.add(new JobSpec.FlowSpec(nics.get(i), nics.get((i + nics.size() / 2) % nics.size()), 0));
                }
                return new JobSpec("perm" + suffix, "default", "explicit", List.of(), DEMAND_GBPS, 1, 0, "given",
                        flows);
            }
            case "pipeline": {
                // Pipeline pairs: pipelines of PIPELINE_STAGES consecutive ranks; each stage sends activations
                // to the next and gradients back, both at once (1F1B steady state).
                List<JobSpec.FlowSpec> flows = new ArrayList<>();
                for (int i = 0; i + 1 < nics.size(); i++) {
                    if ((i + 1) % PIPELINE_STAGES != 0) {
                        flows.add(new JobSpec.FlowSpec(nics.get(i), nics.get(i + 1), 0));
                        flows.add(new JobSpec.FlowSpec(nics.get(i + 1), nics.get(i), 0));
                    }
                }
                return new JobSpec("pipe" + suffix, "default", "explicit", List.of(), DEMAND_GBPS, 1, 0, "given",
                        flows);
            }
            default:
                throw new IllegalArgumentException("traffic: " + traffic);
        }
    }

    /** Which seed claims a fabric's table speaks to, and in what way it differs from the seed's setting. */
    static String claims(Fabric fabric, int nics) {
        String family = fabric.id().startsWith("df-") ? "Dragonfly" : fabric.id().startsWith("sf-") ? "Slim Fly" : "";
        if (!family.isEmpty()) {
            return "Spritz (up to 1.8× flow completion time against UGAL-L, up to 25.4× with 2 % of the links "
                    + "failed, on Dragonfly and Slim Fly" + (nics >= 1000 ? ", at this size: about 1,000 endpoints)"
                    : "; this fabric is smaller than its ~1,000 endpoints)") + ": the collective-time columns, "
                    + "Weft against UGAL-L and minimal ECMP, fluid model (no packet loss or timeouts; UGAL-L "
                    + "decides per flow from flow counts, not per packet from queues). "
                    + "Reunion's elephants per link t: the t column.";
        }
        return "Reunion (elephants per link t; 10.9-62.1 % lower tail latency, not measurable without queues): the t "
                + "column against ⌈LP⌉. The collective-time columns: Weft's placement against ECMP hashing on a "
                + (fabric.id().startsWith("rail") ? "rail-optimised" : "Clos") + " fabric (no seed reports this "
                + "directly; Spritz's gap from path choice alone).";
    }

    /** The most flows leaving or entering one NIC: no routing of single-homed NICs puts fewer on a link. */
    static int nicLinkBound(List<String[]> pairs) {
        Map<String, Integer> out = new java.util.HashMap<>();
        Map<String, Integer> in = new java.util.HashMap<>();
        int most = 0;
        for (String[] p : pairs) {
            most = Math.max(most, out.merge(p[0], 1, Integer::sum));
            most = Math.max(most, in.merge(p[1], 1, Integer::sum));
        }
        return most;
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

    /** A fabric-chosen routing over seeds: the sums of the metrics (Metrics' fields, in order), the worst seed. */
    record Seeded(double[] sum, Metrics worst) {
        String row(String name, int seeds) {
            return String.format(Locale.ROOT, "| %s, mean of %d seeds (worst) | %.2f (%.2f) | %.1f (%.1f) | %s (%s) "
                            + "| %.1f; %.1f (%d; %d) | %.1f |%n", name, seeds,
                    sum[0] / seeds, worst.maxLoad(), sum[1] / seeds, worst.slowestGbps(),
                    ms(sum[2] / seeds), ms(worst.cctMs()), sum[4] / seeds, sum[5] / seeds,
                    worst.elephants(), worst.fabricElephants(), sum[3] / seeds);
        }
    }

    /** Runs a fabric-chosen routing (ECMP, UGAL-L) once per seed: random RoCEv2 source ports, hash seed s. */
    static Seeded overSeeds(FabricPlan plan, ArcTable arcs, List<String> failedLinks, List<String[]> pairs, int seeds,
                            java.util.function.IntFunction<Routing> routing) throws Exception {
        double[] sum = new double[6];
        Metrics worst = null;
        for (int s = 1; s <= seeds; s++) {
            Random r = new Random(1000 + s);
            List<Routing> routings = new ArrayList<>();
            for (int i = 0; i < pairs.size(); i++) {
                routings.add(routing.apply(0xC000 + r.nextInt(0x4000)));
            }
            Metrics m = simulate(plan, arcs, failedLinks, pairs, routings, s);
            sum[0] += m.maxLoad();
            sum[1] += m.slowestGbps();
            sum[2] += m.cctMs();
            sum[3] += m.stalled();
            sum[4] += m.elephants();
            sum[5] += m.fabricElephants();
            if (worst == null || m.cctMs() > worst.cctMs()) {
                worst = m;
            }
        }
        return new Seeded(sum, worst);
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
        int[] flowsOn = new int[arcs.size()];
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
                flowsOn[a]++;
            }
        }
        double[] cap = steady.arcCapacitiesGbps();
        double maxLoad = 0;
        for (int a = 0; a < cap.length; a++) {
            if (offered[a] > 0) {
                maxLoad = Math.max(maxLoad, offered[a] / cap[a]);
            }
        }
        int elephants = 0;
        int fabricElephants = 0;
        for (int a = 0; a < flowsOn.length; a++) {
            elephants = Math.max(elephants, flowsOn[a]);
            Arc arc = arcs.arc(a);
            if (plan.fabric().node(arc.from()).role().isSwitch() && plan.fabric().node(arc.to()).role().isSwitch()) {
                fabricElephants = Math.max(fabricElephants, flowsOn[a]);
            }
        }
        collective.run();
        double cct = 0;
        for (FlowResult r : collective.results()) {
            cct = r.state() == FlowResult.State.DONE ? Math.max(cct, r.finishS()) : Double.POSITIVE_INFINITY;
        }
        return new Metrics(maxLoad, slowest == Double.POSITIVE_INFINITY ? 0 : slowest, cct * 1e3, stalled, elephants,
                fabricElephants);
    }

    /** The 1-minute load average (Linux), or "?" where there is none. */
    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException | RuntimeException e) {
            return "?";
        }
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

    /** The title says what this run compared, on how much; the note below it says how and what it leaves out. */
    private static void header(StringBuilder md, int seeds, boolean large, int fabricCount) {
        md.append(String.format(Locale.ROOT, "# Weft evaluation: ECMP, UGAL-L and Weft against the LP bound, %d "
                + "fabric%s x %d traffic patterns, flow-level simulation%n%n", fabricCount, fabricCount == 1 ? "" : "s",
                TRAFFIC.size()));
        md.append("> Written by `./weft eval" + (large ? " --large" : "") + "` from the flow-level "
                + "simulator (simulator/README.md: no packets, queues, PFC or DCQCN, so every completion time is "
                + "optimistic and gaps between routings come from path choice alone). Seven small fabrics (72-200 "
                + "NICs, among them a two-plane rail-optimised one)" + (large ? " and three at the seeds' size "
                + "(about 1,000 endpoints): a k=16 fat-tree (1,024 NICs), a Dragonfly (1,056) and a Slim Fly "
                + "(1,134), bounded without the LP (GLOP did not solve the k=16 fat-tree within 5 minutes here) "
                + "by the NICs' own links and the fabric's total capacity" : "") + "; five traffic patterns: "
                + "ring allreduce, permutation, all-to-all, pipeline pairs and four jobs at once. Not yet: t as a "
                + "placement constraint (Reunion's setting), queues (tail latency).\n\n");
        md.append("Every flow wants 400 Gbit/s (line rate). **Max link load**: offered load / capacity of the "
                + "busiest link direction (1.00 = exactly full; the LP row is the least any splittable routing "
                + "over any paths can reach, so it bounds ECMP and Weft alike). **Slowest flow**: smallest max-min "
                + "fair rate with every "
                + "flow sending at once (LP row: the largest rate all flows can get at once, capped at 400). "
                + "**1 GB collective**: every flow sends 1 GB from time 0; time until the last one is done "
                + "(LP row: 8 Gbit / that rate). ECMP: CRC-32 five-tuple hash per switch with random RoCEv2 "
                + "source ports, mean over " + seeds + " hash seeds, worst seed (by collective time) in "
                + "brackets; failed links are routed around (converged underlay). **UGAL-L** (Spritz's baseline): "
                + "at its source switch each flow takes its ECMP route or a Valiant route through a random "
                + "top-tier switch (any router on a Dragonfly or Slim Fly, a spine or core on a Clos, where the "
                + "Valiant route is one ECMP could hash to as well), whichever has the smaller flows on the local "
                + "output (or its next link, standing in for backpressure) × hops, flows deciding in order; same "
                + "seeds and source ports as ECMP (simulator/README.md). Weft: the placement "
                + "engine's paths (placed knowing the failed links), walked from their SRv6 carriers; where "
                + "EV routing reaches the same path its EV was simulated too and gave identical numbers. "
                + "Failed links: 2 % of the switch-to-switch links, one fixed seeded choice. The LP splits "
                + "flows, a real flow cannot: where a leaf is left with 6 uplinks for 8 flows the LP reaches "
                + "8/6 = 1.33 but any unsplittable routing puts two flows on some uplink. Since every flow "
                + "wants the full 400 Gbit/s of equal links, the LP row also gives the bound for unsplittable "
                + "routings after the semicolon: at least ⌈LP⌉ flows on the busiest link, sharing it. "
                + "**Elephants per link t** (Reunion's setting): the most flows sharing one link direction, over "
                + "every link and over switch-to-switch links only (ECMP: mean over seeds, worst seed in brackets; "
                + "every flow here is a line-rate elephant, so over every link t equals the max link load and "
                + "⌈LP⌉ bounds it). **Multi-plane**: every NIC has one port per plane and the planes do not "
                + "interconnect; ECMP's NIC hashes the five-tuple over its ports (then each plane hashes per "
                + "switch), the LP may split a NIC's traffic over its planes. **Traffic**: every NIC in a seeded "
                + "random rank order; ring allreduce (rank i to i+1), permutation (rank i to i+n/2), all-to-all "
                + "(8 peers at once: rank i to i+1..i+8), **pipeline** pairs (pipelines of " + PIPELINE_STAGES
                + " consecutive ranks, every stage sending to the next and back at once, as in 1F1B pipeline "
                + "parallelism) and **4 jobs** at once (the ranks split in quarters: a ring, an all-to-all, a "
                + "pipeline and a permutation; Weft places them one after the other, each seeing the load of the "
                + "ones before, as scheduler-api does; the collective time is the last flow's of any job). "
                + "**Bound without an LP** (fabrics above " + LP_MAX_NICS + " NICs): the larger of the busiest "
                + "NIC's flow count and ⌈volume⌉, volume = Σ flows × the hops of their shortest path on the "
                + "surviving fabric × 400 / the switch links' total capacity (no routing loads the switch links "
                + "with less in total).\n");
    }

    private static void summary(StringBuilder md, List<double[]> ratios, boolean dragonflyAtSize) {
        md.append("\n## What this speaks to\n\n");
        int atBound = 0;
        int withBound = 0;
        for (double[] r : ratios) {
            atBound += r[3] > 0 ? 1 : 0;
            withBound += r[3] >= 0 ? 1 : 0;
        }
        md.append(String.format(Locale.ROOT, "- Weft's max link load equals the unsplittable LP bound in %d of %d "
                + "cases with an LP (equal line-rate flows: no unsplittable routing can do better there).%n", atBound,
                withBound));
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
        for (double pct : new double[] {0, 2}) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = 0;
            double worst = 0;
            int cases = 0;
            for (double[] r : ratios) {
                if (r[0] == pct && r[9] > 0) {
                    lo = Math.min(lo, r[1]);
                    hi = Math.max(hi, r[1]);
                    worst = Math.max(worst, r[2]);
                    cases++;
                }
            }
            if (cases > 0) {
                md.append(String.format(Locale.ROOT, "- Dragonfly and Slim Fly at about 1,000 endpoints (Spritz's "
                        + "setting), %.0f %% failed links, %d cases: ECMP's mean collective time is %.2f× to %.2f× "
                        + "Weft's (worst seed up to %.2f×).%n", pct, cases, lo, hi, worst));
            }
        }
        for (boolean spritz : new boolean[] {false, true}) {
            for (double pct : new double[] {0, 2}) {
                double[] range = ugalRange(ratios, pct, spritz);
                if (range[3] > 0) {
                    md.append(String.format(Locale.ROOT, "- %s, %.0f %% failed links, %.0f cases: UGAL-L's mean "
                            + "collective time is %.2f× to %.2f× Weft's (worst seed up to %.2f×).%n",
                            spritz ? "Dragonfly and Slim Fly at about 1,000 endpoints (Spritz's setting)"
                                    : "All fabrics of this run", pct, range[3], range[0], range[1], range[2]));
                }
            }
        }
        md.append("- Spritz reports up to 1.8× flow completion time against UGAL-L and up to 25.4× under 2 % "
                + "link failures, on Dragonfly / Slim Fly, against adaptive routing, with packet-level "
                + "simulation at about 1,000 endpoints. The Dragonfly and Slim Fly tables"
                + (dragonflyAtSize ? " at about 1,000 NICs have Spritz's size and failure rate and" : " here are "
                + "small (72 and 200 NICs; `--large` adds them at about 1,000) but") + " compare against UGAL-L "
                + "as well as minimal ECMP, in a fluid model: UGAL-L chooses once per flow at its arrival, "
                + "from flow counts rather than queues (simulator/README.md), and nothing is lost or retransmitted. "
                + "So the UGAL-L ratios above are the part of Spritz's gap that comes from path choice alone; they "
                + "neither confirm nor refute the packet-level 1.8×. A failed link costs ECMP and UGAL-L only the "
                + "capacity it removes (flows re-route at once, no loss, no timeouts), which is why the 2 % rows "
                + "cannot show Spritz-sized factors like 25.4×.\n");
        int tAtBound = 0;
        double ecmpT = 0;
        double weftT = 0;
        double ecmpFabricT = 0;
        double weftFabricT = 0;
        for (double[] r : ratios) {
            tAtBound += r[8] >= 0 && r[5] <= r[8] ? 1 : 0;
            ecmpT += r[4];
            weftT += r[5];
            ecmpFabricT += r[6];
            weftFabricT += r[7];
        }
        int n = Math.max(1, ratios.size());
        md.append(String.format(Locale.ROOT, "- Elephants per link (Reunion's t: the most elephant flows sharing one "
                + "link direction; every flow here is a 400 Gbit/s elephant). Reunion places flows so that no link "
                + "carries more than t elephants and reports 10.9-62.1 %% lower tail latency from it, in a "
                + "packet-level setting. Weft does not take t as a constraint; it minimises the busiest link's "
                + "load, which with equal line-rate flows on equal links is the same quantity. Weft's t over any "
                + "link equals the lower bound ⌈LP⌉ in %d of %d cases with an LP; averaged over the cases, t is %.1f "
                + "for "
                + "ECMP (mean over seeds) and %.1f for Weft over any link, %.1f and %.1f over switch-to-switch links "
                + "only (where t is lower than over any link, the NICs' own links hold the most elephants: no "
                + "routing changes that). Tail latency itself needs queues this model does not have, so Reunion's "
                + "latency claim is not tested here.%n", tAtBound, withBound, ecmpT / n, weftT / n,
                ecmpFabricT / n, weftFabricT / n));
        md.append("- Multi-plane rails: Weft's candidate paths for a flow start at every port of its NIC (one per "
                + "plane) and end at the destination's port in the same plane (the planes do not meet), and the "
                + "exact Clos assignment first spreads the flows over the planes, so both planes carry Weft's "
                + "flows. EV routing starts on a NIC's home (plane-1) link, so only the plane-1 paths have an "
                + "EV (the \"EV reaches\" count); the plane-2 paths are SRv6 only.\n");
        md.append("- The SRv6 paper (+28.7 % delivered) needs queueing and transport dynamics this model does not "
                + "have; not addressed here.\n");
    }

    /** UGAL-L's collective time over Weft's at this failure rate (Spritz-size ones if asked): lo, hi, worst, n. */
    static double[] ugalRange(List<double[]> ratios, double pct, boolean spritzOnly) {
        double[] out = {Double.POSITIVE_INFINITY, 0, 0, 0};
        for (double[] r : ratios) {
            if (r[0] == pct && (!spritzOnly || r[9] > 0)) {
                out[0] = Math.min(out[0], r[10]);
                out[1] = Math.max(out[1], r[10]);
                out[2] = Math.max(out[2], r[11]);
                out[3]++;
            }
        }
        return out;
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
