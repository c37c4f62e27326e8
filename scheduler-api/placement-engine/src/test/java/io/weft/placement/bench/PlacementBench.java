package io.weft.placement.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Role;
import io.weft.lab.fabric.DragonflyGenerator;
import io.weft.lab.fabric.FatTreeGenerator;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.lab.fabric.RailGenerator;
import io.weft.lab.fabric.SlimFlyGenerator;
import io.weft.placement.Candidates;
import io.weft.placement.ColumnGenerationMultipath;
import io.weft.placement.DenseFabric;
import io.weft.placement.Flow;
import io.weft.placement.FlowEncoder;
import io.weft.placement.FlowEncoding;
import io.weft.placement.Job;
import io.weft.placement.JobSpec;
import io.weft.placement.MultipathFlow;
import io.weft.placement.MultipathOptions;
import io.weft.placement.MultipathResult;
import io.weft.placement.Patterns;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlacementResult;
import io.weft.placement.PlanFlowEncoder;
import io.weft.placement.WeightedPath;
import io.weft.plan.Planner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code ./weft bench placement [--json] [--quick] [--case substring]}: the fixed placement suite of
 * the placement engine's goals and the named targets. Each case: warm-up runs, then timed runs of {@code add(job)} on a
 * live engine (released between runs, so the per-snapshot candidate cache is warm, as in service),
 * encodings included (the real plan encoder, which proves every path by its forwarding walk).
 * Then quality: max load, the lower bound (LP over the candidate paths, or a cut bound when the LP
 * is too big, labelled), collisions, ECMP baseline over seeds, max-min fair slowest rates.
 */
public final class PlacementBench {
    /**
     * Weighted multipath in the suite: 8 paths per flow, weights in 1/16, the served 5 % target gap.
     * The time budget is wide because wall time on a shared machine is not the solver's cost; the
     * multipath target below reports the 1 s goal with wall and CPU time.
     */
    static final MultipathOptions MULTIPATH = new MultipathOptions(8, 16, 60_000);
    /**
     * The multipath targets run with scheduler-api's budget (weft.scheduler.limits.multipath-budget-ms):
     * the solver stops there and hands out its best answer so far, with its gap.
     */
    static final MultipathOptions MULTIPATH_SERVED = new MultipathOptions(8, 16, 1_000);
    private static final FlowEncoder NO_ENCODING = (p, t) -> new FlowEncoding(List.of(), List.of(), null);

    private final boolean json;
    private final boolean quick;
    private final String filter;
    private final boolean multipath;
    private final Map<String, Fabric> fabrics = new LinkedHashMap<>();
    private final Map<String, FlowEncoder> encoders = new LinkedHashMap<>();

    private PlacementBench(boolean json, boolean quick, String filter, boolean multipath) {
        this.json = json;
        this.quick = quick;
        this.filter = filter;
        this.multipath = multipath;
    }

    /** The command line of {@code ./weft bench placement}. */
    @Command(name = "weft bench placement", description = "The placement engine's speed and quality suite.")
    static final class Flags {
        @Option(names = "--json", description = "one JSON object instead of the table")
        boolean json;

        @Option(names = "--quick", description = "the small cases only")
        boolean quick;

        @Option(names = "--case", paramLabel = "SUBSTRING", description = "only the cases whose name contains it")
        String filter;

        @Option(names = "--no-encode", description = "place without encoding the paths")
        boolean noEncode;

        @Option(names = "--no-multipath", description = "skip the multipath columns and targets")
        boolean noMultipath;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
        boolean help;
    }

    public static void main(String[] args) throws Exception {
        Flags flags = new Flags();
        CommandLine line = new CommandLine(flags).setOverwrittenOptionsAllowed(true);
        try {
            line.parseArgs(args);
        } catch (ParameterException e) {
            System.err.println("weft bench placement: " + e.getMessage() + " (see --help)");
            System.exit(2);
        }
        if (line.isUsageHelpRequested()) {
            line.usage(System.out);
            return;
        }
        if (flags.noEncode) {
            System.setProperty("weft.bench.encode", "false");
        }
        new PlacementBench(flags.json, flags.quick, flags.filter, !flags.noMultipath).run();
    }

    // ------------------------------------------------------------------ suite

    record Case(String name, String fabricKey, Supplier<Fabric> fabric, double failed,
                Function<Fabric, JobSpec> job, boolean big) {
    }

    private List<Case> suite() {
        List<Case> c = new ArrayList<>();
        Supplier<Fabric> ls8 = () -> LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(8, 8, 8));
        Supplier<Fabric> ls8o = () -> LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(8, 8, 16));
        Supplier<Fabric> ls32 = () -> LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(32, 32, 32));
        Supplier<Fabric> ls32o = () -> LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(32, 32, 64));
        Supplier<Fabric> ft16 = () -> FatTreeGenerator.generate(FatTreeGenerator.kary(16));
        Supplier<Fabric> ft32 = () -> FatTreeGenerator.generate(FatTreeGenerator.kary(32));
        Supplier<Fabric> rail = () -> RailGenerator.generate(new RailGenerator.Params(null, 128, 8, 16, 16, 1,
                400, 400, 100, 500));
        // The evaluation's two-plane rail: every NIC has one port per plane, the planes do not meet.
        Supplier<Fabric> rail2pl = () -> RailGenerator.generate(new RailGenerator.Params("rail-32x4-2pl", 32, 4, 8, 4,
                2, 400, 400, 100, 500));
        Supplier<Fabric> df = () -> DragonflyGenerator.generate(DragonflyGenerator.Params.of(4, 8, 4));
        Supplier<Fabric> sf = () -> SlimFlyGenerator.generate(SlimFlyGenerator.Params.of(7));
        c.add(new Case("ls8x8 1:1 ring", "ls8", ls8, 0, PlacementBench::ring, false));
        c.add(new Case("ls8x8 1:1 perm", "ls8", ls8, 0, PlacementBench::perm, false));
        c.add(new Case("ls8x8 1:1 perm 5%fail", "ls8", ls8, 0.05, PlacementBench::perm, false));
        c.add(new Case("ls8x8 1:1 perm mixed", "ls8", ls8, 0, PlacementBench::permMixed, false));
        c.add(new Case("ls8x8 1:1 all-to-all", "ls8", ls8, 0, f -> a2a(f, 0), false));
        c.add(new Case("ls8x8 2:1 perm", "ls8o", ls8o, 0, PlacementBench::perm, false));
        c.add(new Case("ls32x32 1:1 ring", "ls32", ls32, 0, PlacementBench::ring, false));
        c.add(new Case("ls32x32 1:1 perm", "ls32", ls32, 0, PlacementBench::perm, false));
        c.add(new Case("ls32x32 1:1 perm 5%fail", "ls32", ls32, 0.05, PlacementBench::perm, false));
        c.add(new Case("ls32x32 1:1 perm mixed", "ls32", ls32, 0, PlacementBench::permMixed, false));
        c.add(new Case("ls32x32 1:1 a2a 8 peers", "ls32", ls32, 0, f -> a2a(f, 8), false));
        c.add(new Case("ls32x32 2:1 perm", "ls32o", ls32o, 0, PlacementBench::perm, false));
        c.add(new Case("ft16 ring", "ft16", ft16, 0, PlacementBench::ring, false));
        c.add(new Case("ft16 perm", "ft16", ft16, 0, PlacementBench::perm, false));
        c.add(new Case("ft16 perm 5%fail", "ft16", ft16, 0.05, PlacementBench::perm, false));
        c.add(new Case("ft16 perm mixed", "ft16", ft16, 0, PlacementBench::permMixed, false));
        c.add(new Case("ft16 a2a 8 peers", "ft16", ft16, 0, f -> a2a(f, 8), false));
        c.add(new Case("ft32 ring", "ft32", ft32, 0, PlacementBench::ring, true));
        c.add(new Case("ft32 perm", "ft32", ft32, 0, PlacementBench::perm, true));
        c.add(new Case("ft32 perm 5%fail", "ft32", ft32, 0.05, PlacementBench::perm, true));
        c.add(new Case("rail8 ring (per rail)", "rail", rail, 0, PlacementBench::ring, false));
        c.add(new Case("rail8 perm", "rail", rail, 0, PlacementBench::perm, false));
        c.add(new Case("rail8 perm 5%fail", "rail", rail, 0.05, PlacementBench::perm, false));
        c.add(new Case("rail 2 planes ring", "rail2pl", rail2pl, 0, PlacementBench::ring, false));
        c.add(new Case("rail 2 planes perm", "rail2pl", rail2pl, 0, PlacementBench::perm, false));
        c.add(new Case("rail 2 planes perm 5%fail", "rail2pl", rail2pl, 0.05, PlacementBench::perm, false));
        c.add(new Case("rail 2 planes a2a 8 peers", "rail2pl", rail2pl, 0, f -> a2a(f, 8), false));
        c.add(new Case("df(4,8,4) ring", "df", df, 0, PlacementBench::ring, false));
        c.add(new Case("df(4,8,4) perm", "df", df, 0, PlacementBench::perm, false));
        c.add(new Case("df(4,8,4) perm 5%fail", "df", df, 0.05, PlacementBench::perm, false));
        c.add(new Case("df(4,8,4) group A->B", "df", df, 0, PlacementBench::groupToGroup, false));
        c.add(new Case("df(4,8,4) a2a 8 peers", "df", df, 0, f -> a2a(f, 8), false));
        c.add(new Case("sf(q=7) perm", "sf", sf, 0, PlacementBench::perm, false));
        c.add(new Case("sf(q=7) perm 5%fail", "sf", sf, 0.05, PlacementBench::perm, false));
        c.add(new Case("sf(q=7) a2a 4 peers", "sf", sf, 0, f -> a2a(f, 4), false));
        return c;
    }

    static List<String> nics(Fabric f) {
        List<String> out = new ArrayList<>();
        f.nodesWithRole(Role.NIC).forEach(n -> out.add(n.id()));
        return out;
    }

    static double nicGbps(Fabric f) {
        String nic = f.nodesWithRole(Role.NIC).get(0).id();
        return f.linksOf(nic).get(0).capacityGbps();
    }

    /** Ring over all NICs in a random rank order (the scheduler did not align ranks with leaves). */
    static JobSpec ring(Fabric f) {
        List<String> eps = nics(f);
        Collections.shuffle(eps, new Random(3));
        return JobSpec.of("ring", "ring", eps, nicGbps(f));
    }

    /** A random derangement at line rate: every NIC sends one flow and receives one. */
    static JobSpec perm(Fabric f) {
        return permutation(f, false);
    }

    static JobSpec permMixed(Fabric f) {
        return permutation(f, true);
    }

    private static JobSpec permutation(Fabric f, boolean mixed) {
        List<String> src = nics(f);
        List<String> dst = new ArrayList<>(src);
        Random rnd = new Random(5);
        Collections.shuffle(dst, rnd);
        for (int i = 0; i < src.size(); i++) {
            if (src.get(i).equals(dst.get(i))) {
                Collections.swap(dst, i, (i + 1) % dst.size());
            }
        }
        double rate = nicGbps(f);
        double[] sizes = {rate / 4, rate / 2, rate};
        List<JobSpec.FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < src.size(); i++) {
            flows.add(new JobSpec.FlowSpec(src.get(i), dst.get(i), mixed ? sizes[rnd.nextInt(3)] : rate));
        }
        return new JobSpec("perm", null, "explicit", null, rate, 1, 0, null, flows);
    }

    /** All-to-all (peers 0 = every other NIC) with each NIC injecting its line rate in total. */
    static JobSpec a2a(Fabric f, int peers) {
        List<String> eps = nics(f);
        int n = peers == 0 ? eps.size() - 1 : peers;
        return JobSpec.of("a2a", "all-to-all", eps, nicGbps(f) / n).withConcurrentPeers(peers);
    }

    /** All-to-all with n concurrent peers over a random rank order (peers on other routers and groups). */
    static JobSpec a2aShuffled(Fabric f, int peers) {
        List<String> eps = nics(f);
        Collections.shuffle(eps, new Random(3));
        return JobSpec.of("a2a", "all-to-all", eps, nicGbps(f) / peers).withConcurrentPeers(peers);
    }

    /** Dragonfly adversarial: every NIC of group 0 sends at line rate to a NIC of group 1. */
    static JobSpec groupToGroup(Fabric f) {
        List<String> a = new ArrayList<>();
        List<String> b = new ArrayList<>();
        for (String nic : nics(f)) {
            String router = f.linksOf(nic).get(0).otherEnd(nic).node();
            int g = f.node(router).group();
            if (g == 0) {
                a.add(nic);
            } else if (g == 1) {
                b.add(nic);
            }
        }
        List<JobSpec.FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            flows.add(new JobSpec.FlowSpec(a.get(i), b.get(i), nicGbps(f)));
        }
        return new JobSpec("adv", null, "explicit", null, nicGbps(f), 1, 0, null, flows);
    }

    static Map<String, LinkState> failures(Fabric f, double fraction) {
        Map<String, LinkState> m = new LinkedHashMap<>();
        Random rnd = new Random(7);
        for (Link l : f.links()) {
            boolean fabricLink = f.node(l.a().node()).role().isSwitch() && f.node(l.b().node()).role().isSwitch();
            if (fabricLink && rnd.nextDouble() < fraction) {
                m.put(l.id(), LinkState.DOWN);
            }
        }
        return m;
    }

    // ------------------------------------------------------------------ running

    private Fabric fabric(String key, Supplier<Fabric> make) {
        return fabrics.computeIfAbsent(key, k -> make.get());
    }

    private FlowEncoder encoder(String key, Fabric f) {
        return encoders.computeIfAbsent(key, k -> {
            if (System.getProperty("weft.bench.encode", "true").equals("false")) {
                return NO_ENCODING;
            }
            try {
                return new PlanFlowEncoder(Planner.plan(f, null));
            } catch (Exception e) {
                System.err.println("weft bench: no plan for " + key + " (" + e.getMessage() + "): encodings skipped");
                return NO_ENCODING;
            }
        });
    }

    record Timing(double medianMs, double p99Ms) {
    }

    static Timing timing(double[] ms) {
        double[] s = ms.clone();
        Arrays.sort(s);
        int p99 = (int) Math.ceil(0.99 * s.length) - 1;
        return new Timing(s[s.length / 2], s[Math.max(0, p99)]);
    }

    /**
     * Wall and CPU time of each timed run, and bytes allocated by the thread. On a machine shared
     * with other busy processes wall time includes waiting for a core; the thread's CPU time does
     * not, so the two together tell the engine's cost from the machine's load.
     */
    static final class Runs {
        final double[] wallMs;
        final double[] cpuMs;
        final long[] allocBytes;
        /** Collections that ended during each timed run, and the time the collectors report for them. */
        final int[] gcCount;
        final double[] gcMs;
        /** CPU time of the first warm-up run (the case's first call in this JVM), or NaN without warm-up. */
        double firstCpuMs = Double.NaN;
        /** Warm-up calls made before the timed ones. */
        int warmCalls;

        Runs(int n) {
            wallMs = new double[n];
            cpuMs = new double[n];
            allocBytes = new long[n];
            gcCount = new int[n];
            gcMs = new double[n];
        }

        /** Timed runs during which a collection ran. */
        int runsWithGc() {
            return (int) Arrays.stream(gcCount).filter(c -> c > 0).count();
        }

        double maxGcMs() {
            return Arrays.stream(gcMs).max().orElse(0);
        }

        Timing wall() {
            return timing(wallMs);
        }

        Timing cpu() {
            return timing(cpuMs);
        }

        double minWallMs() {
            return Arrays.stream(wallMs).min().getAsDouble();
        }

        double medianAllocMb() {
            long[] s = allocBytes.clone();
            Arrays.sort(s);
            return s[s.length / 2] / (1024.0 * 1024.0);
        }
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final List<GarbageCollectorMXBean> COLLECTORS = ManagementFactory.getGarbageCollectorMXBeans();

    /** {collections, milliseconds} over every collector so far. */
    private static long[] gcTotals() {
        long n = 0;
        long ms = 0;
        for (GarbageCollectorMXBean gc : COLLECTORS) {
            n += Math.max(0, gc.getCollectionCount());
            ms += Math.max(0, gc.getCollectionTime());
        }
        return new long[] {n, ms};
    }

    /**
     * Times {@code body} {@code warm + runs} times, keeping the last {@code runs}; {@code between} runs untimed before
     * each.
     */
    static Runs measure(int warm, int runs, ThrowingRunnable between, ThrowingRunnable body) throws Exception {
        return measure(warm, 0, runs, between, body);
    }

    /**
     * As {@link #measure(int, int, ThrowingRunnable, ThrowingRunnable)}, warming up for at least {@code warm} calls
     * and at least {@code warmMs} of wall time (calls and what runs between them): the JIT compiles a case's code in
     * the background while the first calls run, and on two shared cores ten calls were not enough (see
     * {@link #TARGET_WARM_MS}).
     */
    static Runs measure(int warm, double warmMs, int runs, ThrowingRunnable between, ThrowingRunnable body)
            throws Exception {
        Runs r = new Runs(runs);
        long tid = Thread.currentThread().getId();
        com.sun.management.ThreadMXBean alloc = THREADS instanceof com.sun.management.ThreadMXBean
                ? (com.sun.management.ThreadMXBean) THREADS : null;
        long warmStart = System.nanoTime();
        int warmed = 0;
        int timed = 0;
        for (int i = 0; timed < runs; i++) {
            // Once the timed calls have begun, every later call is timed.
            boolean warming = timed == 0 && (i < warm || (warm > 0 && (System.nanoTime() - warmStart) / 1e6 < warmMs));
            if (!warming && timed == 0 && warmMs > 0) {
                // Two seconds of warm-up leave hundreds of MB in the young generation (the 4,096 ring's cold call
                // allocates 3 MB): collected here, untimed, as earlier cases' garbage is, so a collection in the
                // timed calls is theirs alone.
                System.gc();
            }
            if (between != null) {
                between.run();
            }
            long[] g0 = gcTotals();
            long a0 = alloc == null ? 0 : alloc.getThreadAllocatedBytes(tid);
            long c0 = THREADS.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            body.run();
            long t1 = System.nanoTime();
            long c1 = THREADS.getCurrentThreadCpuTime();
            long a1 = alloc == null ? 0 : alloc.getThreadAllocatedBytes(tid);
            long[] g1 = gcTotals();
            if (i == 0 && warm > 0) {
                r.firstCpuMs = (c1 - c0) / 1e6;
            }
            if (warming) {
                warmed++;
                continue;
            }
            int k = timed++;
            r.wallMs[k] = (t1 - t0) / 1e6;
            r.cpuMs[k] = (c1 - c0) / 1e6;
            r.allocBytes[k] = a1 - a0;
            r.gcCount[k] = (int) (g1[0] - g0[0]);
            r.gcMs[k] = g1[1] - g0[1];
        }
        r.warmCalls = warmed;
        return r;
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    private void run() throws Exception {
        if (!json) {
            System.out.printf(Locale.ROOT,
                    "%-26s %7s %9s %9s %9s %9s %8s %8s %-8s %6s %6s %8s %9s %9s | %8s %8s %8s %6s %9s %5s %9s %9s %s%n",
                    "case", "flows", "med ms", "p99 ms", "cpu med", "cpu p99", "maxload",
                            "bound", "kind", "ratio", "coll",
                    "ecmpMax", "ecmpSlow", "weftSlow", "splitLP", "gBound", "mpMax", "mpRat", "mpSlow",
                            "paths", "mp ms", "mp cpu",
                    "");
        }
        for (Case c : suite()) {
            if ((filter != null && !c.name().contains(filter)) || (quick && c.big())) {
                continue;
            }
            runCase(c);
        }
        if (filter == null || filter.contains("target")) {
            if (filter == null || !filter.contains("multipath")) {
                targets();
            }
            if (multipath) {
                multipathTargets();
            }
        }
    }

    private void runCase(Case c) throws Exception {
        Fabric f = fabric(c.fabricKey(), c.fabric());
        DenseFabric ix = DenseFabric.of(f, failures(f, c.failed()));
        PlacementEngine engine = new PlacementEngine(ix, encoder(c.fabricKey(), f), PlacementConfig.DEFAULTS);
        Job job = Patterns.expand(c.job().apply(f), ix, 1 << 20);
        int warm = quick ? 1 : (c.big() ? 3 : 8);
        int runs = quick ? 3 : (c.big() ? 5 : 15);
        PlacementResult[] last = new PlacementResult[1];
        Runs runsOf = measure(warm, runs, () -> {
            if (last[0] != null) {
                engine.release(job.id());
            }
        }, () -> last[0] = engine.add(job));
        PlacementResult r = last[0];
        Timing t = runsOf.wall();
        Timing cpu = runsOf.cpu();
        int n = job.flows().size();
        int[] src = new int[n];
        int[] dst = new int[n];
        double[] dem = new double[n];
        for (int i = 0; i < n; i++) {
            Flow fl = job.flows().get(i);
            src[i] = ix.node(fl.srcNic());
            dst[i] = ix.node(fl.dstNic());
            dem[i] = fl.demandGbps();
        }
        Candidates cands = new Candidates(ix);
        LowerBound.Bound lb = LowerBound.integral(LowerBound.of(cands, src, dst, dem,
                ix.fabric().nodesWithRole(Role.ROUTER).size() > 0), ix, dem);
        Ecmp.Result ecmp = Ecmp.run(cands, src, dst, dem, quick ? 20 : 100, true);
        double[] cap = new double[ix.arcCount()];
        for (int a = 0; a < cap.length; a++) {
            cap[a] = ix.capacityGbps(a);
        }
        List<int[]> paths = new ArrayList<>();
        List<Double> pd = new ArrayList<>();
        for (Flow fl : job.flows()) {
            int[] p = engine.pathArcs(fl.id());
            if (p != null) {
                paths.add(p);
                pd.add(fl.demandGbps());
            }
        }
        double weftSlow = MaxMinFair.min(MaxMinFair.rates(cap, paths, pd.stream().mapToDouble(Double::doubleValue)
                .toArray()));
        double maxLoad = r.quality().maxLoad();
        String note = r.unplaced().isEmpty() ? "" : r.unplaced().size() + " unplaced";
        Multi mp = !multipath ? null : multipath(ix, encoder(c.fabricKey(), f), job, cap,
                quick ? 0 : (c.big() ? 1 : 2), quick ? 1 : (c.big() ? 1 : 3));
        if (mp != null) {
            mp = mp.withExact(exactRun(ix, encoder(c.fabricKey(), f), job, mp.result()));
        }
        row(c.name(), n, t, cpu, maxLoad, lb, r.quality().collisions(), ecmp, weftSlow, mp, note);
    }

    /**
     * A multipath placement of the job, timed, with its slowest max-min fair rate under fixed weights
     * and the splittable optimum it is measured against: the planner's own when it proved one, else
     * the exact LP run apart (untimed) with {@code -Dweft.bench.exact=true}, else NaN.
     */
    record Multi(MultipathResult result, Timing wall, Timing cpu, double slowestGbps, double allocMb,
                 double optimum, double granularBound) {
        Multi(MultipathResult result, Timing wall, Timing cpu, double slowestGbps, double allocMb) {
            this(result, wall, cpu, slowestGbps, allocMb, result.splittableOptimum(), result.granularBound());
        }

        /** With the exact run's optimum and its granular bound (tighter: raised from the optimum). */
        Multi withExact(MultipathResult exact) {
            if (exact == result) {
                return this;
            }
            double gb = Double.isNaN(result.granularBound()) ? exact.granularBound()
                    : Math.max(result.granularBound(), Double.isNaN(exact.granularBound()) ? 0 : exact.granularBound());
            return new Multi(result, wall, cpu, slowestGbps, allocMb, exact.splittableOptimum(), gb);
        }

        /**
         * True when no routing in whole weight units comes within 5 % of the optimum: the granular
         * bound is above 1.05 x it. The row then says so, with that bound (the best rounding is at least it).
         */
        boolean granularityMisses() {
            return optimumKnown() && granularBound > 1.05 * optimum + 1e-9;
        }

        /** Max load over the LP optimum; over the proven lower bound (so at least the true ratio) without one. */
        double ratio() {
            return result.maxLoad() / (optimumKnown() ? optimum : result.lowerBound());
        }

        boolean optimumKnown() {
            return Double.isFinite(optimum);
        }
    }

    /**
     * The splittable optimum of the job over the candidates: the planner's when it proved one; with
     * {@code -Dweft.bench.exact=true} column generation run to the end apart from the timed calls
     * (minutes of CPU on the largest rows); else NaN (the ratio is then against the proven bound).
     */
    static MultipathResult exactRun(DenseFabric ix, FlowEncoder enc, Job job, MultipathResult r) throws Exception {
        if (Double.isFinite(r.splittableOptimum()) || !Boolean.getBoolean("weft.bench.exact")) {
            return r;
        }
        return new ColumnGenerationMultipath(ix, enc, PlacementConfig.DEFAULTS)
                .place(job, new MultipathOptions(8, 16, 1_800_000, 0));
    }

    static Multi multipath(DenseFabric ix, FlowEncoder enc, Job job, double[] cap, int warm, int runs)
            throws Exception {
        return multipath(ix, enc, job, cap, warm, runs, MULTIPATH);
    }

    static Multi multipath(DenseFabric ix, FlowEncoder enc, Job job, double[] cap, int warm, int runs,
                           MultipathOptions options) throws Exception {
        ColumnGenerationMultipath planner = new ColumnGenerationMultipath(ix, enc, PlacementConfig.DEFAULTS);
        MultipathResult[] last = new MultipathResult[1];
        Runs m = measure(warm, runs, null, () -> last[0] = planner.place(job, options));
        MultipathResult res = last[0];
        List<int[][]> paths = new ArrayList<>();
        List<double[]> weights = new ArrayList<>();
        double[] dem = new double[res.flows().size()];
        for (int i = 0; i < dem.length; i++) {
            MultipathFlow mf = res.flows().get(i);
            int[][] ps = new int[mf.paths().size()][];
            double[] ws = new double[ps.length];
            for (int p = 0; p < ps.length; p++) {
                WeightedPath wp = mf.paths().get(p);
                ps[p] = wp.path().stream().mapToInt(a -> ix.arcOf(a.link().id(), a.from())).toArray();
                ws[p] = wp.weight();
            }
            paths.add(ps);
            weights.add(ws);
            dem[i] = mf.flow().demandGbps();
        }
        double slow = MaxMinFair.min(MaxMinFair.weightedRates(cap, paths, weights, dem));
        return new Multi(res, m.wall(), m.cpu(), slow, m.medianAllocMb());
    }

    private void row(String name, int flows, Timing t, Timing cpu, double maxLoad, LowerBound.Bound lb, int coll,
                     Ecmp.Result ecmp, double weftSlow, Multi mp, String note) {
        MultipathResult m = mp == null ? null : mp.result();
        if (m != null && m.fallback() != null) {
            note = (note.isEmpty() ? "" : note + "; ") + "multipath fell back: " + m.fallback();
        }
        if (mp != null && mp.granularityMisses()) {
            note = (note.isEmpty() ? "" : note + "; ") + String.format(Locale.ROOT,
                    "1/16 units cannot come within 1.05 of the optimum: best rounding >= %.4f (%.3f x)",
                    mp.granularBound(), mp.granularBound() / mp.optimum());
        }
        double ratio = lb.value() > 0 ? maxLoad / lb.value() : Double.NaN;
        if (json) {
            ObjectNode o = new ObjectMapper().createObjectNode();
            o.put("case", name);
            o.put("flows", flows);
            o.put("time_ms_median", round(t.medianMs()));
            o.put("time_ms_p99", round(t.p99Ms()));
            o.put("cpu_ms_median", round(cpu.medianMs()));
            o.put("cpu_ms_p99", round(cpu.p99Ms()));
            o.put("max_load", round(maxLoad));
            o.put("lp_bound", round(lb.value()));
            o.put("bound_kind", lb.kind());
            o.put("ratio", round(ratio));
            o.put("collisions", coll);
            o.put("ecmp_max_load", round(ecmp.expectedMaxLoad()));
            o.put("ecmp_slowest_rate", round(ecmp.expectedSlowestGbps()));
            o.put("weft_slowest_rate", round(weftSlow));
            if (m != null) {
                o.put("splittable_lp", round(mp.optimum()));
                o.put("multipath_lower_bound", round(m.lowerBound()));
                o.put("multipath_fractional_max_load", round(m.fractionalMaxLoad()));
                o.put("multipath_max_load", round(m.maxLoad()));
                o.put("multipath_ratio", round(mp.ratio()));
                o.put("multipath_ratio_vs", mp.optimumKnown() ? "optimum" : "lower_bound");
                o.put("multipath_granular_bound", round(mp.granularBound()));
                o.put("multipath_granularity_misses_1_05", mp.granularityMisses());
                o.put("multipath_gap_bound", round(m.gapBound()));
                o.put("multipath_slowest_rate", round(mp.slowestGbps()));
                o.put("multipath_paths_mean", round(m.meanPathsPerFlow()));
                o.put("multipath_paths_max", m.maxPathsPerFlow());
                o.put("multipath_lp_rounds", m.iterations());
                o.put("multipath_ms_median", round(mp.wall().medianMs()));
                o.put("multipath_cpu_ms_median", round(mp.cpu().medianMs()));
                if (m.fallback() != null) {
                    o.put("multipath_fallback", m.fallback());
                }
            }
            if (!note.isEmpty()) {
                o.put("note", note);
            }
            System.out.println(o);
        } else if (m == null) {
            System.out.printf(Locale.ROOT,
                    "%-26s %7d %9.3f %9.3f %9.3f %9.3f %8.3f %8.3f %-8s %6.3f %6d %8.3f %9.1f %9.1f | %s%n",
                    name, flows, t.medianMs(), t.p99Ms(), cpu.medianMs(), cpu.p99Ms(), maxLoad, lb.value(), lb.kind(),
                    ratio, coll, ecmp.expectedMaxLoad(), ecmp.expectedSlowestGbps(), weftSlow, note);
        } else {
            System.out.printf(Locale.ROOT,
                    "%-26s %7d %9.3f %9.3f %9.3f %9.3f %8.3f %8.3f %-8s %6.3f %6d %8.3f %9.1f %9.1f | %8.3f %8.3f "
                            + "%8.3f %6.3f %9.1f %5s %9.1f %9.1f %s%n",
                    name, flows, t.medianMs(), t.p99Ms(), cpu.medianMs(), cpu.p99Ms(), maxLoad, lb.value(), lb.kind(),
                    ratio, coll,
                    ecmp.expectedMaxLoad(), ecmp.expectedSlowestGbps(), weftSlow, mp.optimum(), mp.granularBound(),
                    m.maxLoad(),
                    mp.ratio(), mp.slowestGbps(), String.format(Locale.ROOT, "%.1f/%d", m.meanPathsPerFlow(),
                            m.maxPathsPerFlow()), mp.wall().medianMs(), mp.cpu().medianMs(), note);
        }
        System.out.flush();
    }

    private static double round(double v) {
        return Double.isNaN(v) ? v : Math.round(v * 1e4) / 1e4;
    }

    // ------------------------------------------------------------------ named targets

    private void target(String name, String value, String target, boolean met, String note) {
        if (json) {
            ObjectNode o = new ObjectMapper().createObjectNode();
            o.put("target", name);
            o.put("value", value);
            o.put("goal", target);
            o.put("met", met);
            if (!note.isEmpty()) {
                o.put("note", note);
            }
            System.out.println(o);
        } else {
            System.out.printf(Locale.ROOT, "target %-52s %-50s goal %-12s %s %s%n", name, value, target,
                    met ? "MET" : "MISSED", note);
        }
        System.out.flush();
    }

    /**
     * Warm-up calls of the ~10 ms targets with --quick (at least; see {@link #TARGET_WARM_MS}), as in a service
     * that has placed jobs before; what the first call cost is in each target's note.
     */
    private static final int TARGET_QUICK_WARM = 10;
    /**
     * Wall time each ~10 ms target warms up for, at least. The JIT compiles a case's own code (the Dragonfly's
     * Valiant sweeps, the cold cache's walk proofs, the link-state re-index) in the background: in a fresh JVM at
     * load 2-4 the Dragonfly ring took 40-100 calls to settle (18-29 ms CPU per call over the first 15, 10-13 ms
     * later), so with ten warm-up calls the row timed first caught the compiler mid-way. That is why the warm
     * Dragonfly ring read slower than the cold one measured after it, and why re-placing a failed link "engine
     * only" (two warm-up calls, the first of this JVM) read twice the same call with encodings timed next.
     */
    static final double TARGET_WARM_MS = 2_000;

    private void targets() throws Exception {
        if (!json) {
            System.out.println();
        }
        // 4,096-GPU ring on a 3-tier Clos: 16 pods x 16 leaves x 16 NICs, 16 spines per pod, 256 superspines.
        Fabric clos = FatTreeGenerator.generate(new FatTreeGenerator.Params("clos-4096", 16, 16, 16, 256, 16,
                400, 400, 400, 100, 500, 1000));
        DenseFabric ix = DenseFabric.of(clos);
        Job ring = Patterns.expand(ring(clos), ix, 1 << 20);
        // Warm: the plan encoder has proven this job's switch paths before (a job placed again, or
        // another job over the same leaf/spine paths). Cold: its cache is emptied before every run.
        for (String mode : new String[] {"none", "warm", "cold"}) {
            FlowEncoder enc = mode.equals("none") ? NO_ENCODING : encoder("clos-4096", clos);
            PlacementEngine e = new PlacementEngine(ix, enc, PlacementConfig.DEFAULTS);
            long[] p0 = proofCounts(enc);
            Runs r = timeAdd(e, ring, enc, mode.equals("cold"), quick ? TARGET_QUICK_WARM : 60, TARGET_WARM_MS,
                    quick ? 10 : 100);
            timeTarget("4096-GPU ring, 3-tier Clos, p99" + suffix(mode), r, 10, "max load "
                    + round(e.quality().maxLoad()) + proofNote(enc, p0, r));
        }
        // About 1,000 flows on the direct networks, whose candidates include Valiant detours.
        Fabric df = fabric("df", () -> DragonflyGenerator.generate(DragonflyGenerator.Params.of(4, 8, 4)));
        Fabric sf = fabric("sf", () -> SlimFlyGenerator.generate(SlimFlyGenerator.Params.of(7)));
        Object[][] direct = {{"df", df, ring(df), "df(4,8,4) ring"}, {"df", df, perm(df), "df(4,8,4) perm"},
            {"sf", sf, perm(sf), "sf(q=7) perm"}};
        for (Object[] c : direct) {
            Fabric f = (Fabric) c[1];
            DenseFabric dix = DenseFabric.of(f);
            Job job = Patterns.expand((JobSpec) c[2], dix, 1 << 20);
            for (String mode : new String[] {"warm", "cold"}) {
                FlowEncoder enc = encoder((String) c[0], f);
                PlacementEngine e = new PlacementEngine(dix, enc, PlacementConfig.DEFAULTS);
                long[] p0 = proofCounts(enc);
                Runs r = timeAdd(e, job, enc, mode.equals("cold"), quick ? TARGET_QUICK_WARM : 20, TARGET_WARM_MS,
                        quick ? 10 : 100);
                timeTarget(job.flows().size() + " flows, " + c[3] + ", p99" + suffix(mode), r, 20, "max load "
                        + round(e.quality().maxLoad()) + proofNote(enc, p0, r));
            }
        }
        // 65,536 flows: fat-tree k=32 (8,192 NICs), all-to-all with 8 concurrent peers.
        Fabric ft32 = fabric("ft32", () -> FatTreeGenerator.generate(FatTreeGenerator.kary(32)));
        DenseFabric ix32 = DenseFabric.of(ft32);
        Job big = Patterns.expand(a2a(ft32, 8), ix32, 1 << 20);
        for (String mode : new String[] {"none", "warm", "cold"}) {
            FlowEncoder enc = mode.equals("none") ? NO_ENCODING : encoder("ft32", ft32);
            PlacementEngine e = new PlacementEngine(ix32, enc, PlacementConfig.DEFAULTS);
            long[] p0 = proofCounts(enc);
            Runs r = timeAdd(e, big, enc, mode.equals("cold"), quick ? 1 : 3, 0, quick ? 2 : 7);
            timeTarget(big.flows().size() + " flows (ft32 a2a 8 peers)" + suffix(mode), r, 100,
                    "max load " + round(e.quality().maxLoad()) + proofNote(enc, p0, r));
            if (mode.equals("cold")) {
                continue;
            }
            // The hottest fabric link goes down (production's link-down path: new states, the flows
            // on the link move), repeatedly on the 65,536 placed flows; it comes back up untimed.
            int[] moved = {0};
            String[] hot = new String[1];
            Runs h = measure(quick ? TARGET_QUICK_WARM : 20, TARGET_WARM_MS, quick ? 10 : 40, () -> {
                e.updateLinkStates(Map.of());
                hot[0] = hottestFabricLink(e, ix32);
            }, () -> moved[0] += e.updateLinkStates(Map.of(hot[0], LinkState.DOWN)).moved().size());
            timeTarget("re-place one failed link (65,536 placed)" + suffix(mode), h, 10,
                    String.format(Locale.ROOT, "%.1f flows moved per call", moved[0] / (double) (h.wallMs.length
                            + h.warmCalls)));
        }
        // Heap held by an engine with 65,536 placed, encoded flows (candidate cache included).
        long before = usedHeap();
        PlacementEngine e = new PlacementEngine(ix32, encoder("ft32", ft32), PlacementConfig.DEFAULTS);
        e.add(big);
        long after = usedHeap();
        target("engine heap, 65,536 placed flows", (after - before) / (1024 * 1024) + " MB", "<= 256 MB",
                after - before <= 256L * 1024 * 1024, "used heap after GC, engine + encodings + candidate cache; "
                        + e.quality().placedFlows() + " placed");
    }

    /**
     * Weighted multipath on about 4,096 flows (goal 1 s): the 4,096-GPU ring on the 3-tier Clos, and
     * a Dragonfly(4,8,4) all-to-all with 4 random concurrent peers (4,224 flows), encodings included. Run
     * with {@code WEFT_JAVA_OPTS=-Xmx512m} for the 512 MB heap goal.
     */
    private void multipathTargets() throws Exception {
        if (!json) {
            System.out.println();
        }
        Fabric clos = fabric("clos-4096", () -> FatTreeGenerator.generate(new FatTreeGenerator.Params("clos-4096",
                16, 16, 16, 256, 16, 400, 400, 400, 100, 500, 1000)));
        Fabric df = fabric("df", () -> DragonflyGenerator.generate(DragonflyGenerator.Params.of(4, 8, 4)));
        Object[][] cases = {{"clos-4096", clos, ring(clos), "4096-GPU ring, 3-tier Clos"},
            {"df", df, a2aShuffled(df, 4), "df(4,8,4) a2a 4 random peers"}};
        for (Object[] c : cases) {
            Fabric f = (Fabric) c[1];
            DenseFabric ix = DenseFabric.of(f);
            Job job = Patterns.expand((JobSpec) c[2], ix, 1 << 20);
            double[] cap = new double[ix.arcCount()];
            for (int a = 0; a < cap.length; a++) {
                cap[a] = ix.capacityGbps(a);
            }
            FlowEncoder enc = encoder((String) c[0], f);
            Multi m = multipath(ix, enc, job, cap, quick ? 1 : 2, quick ? 2 : 5, MULTIPATH_SERVED);
            MultipathResult r = m.result();
            // The optimum to compare with: column generation run to the end (untimed) when asked for
            // (-Dweft.bench.exact=true: ~80 s of CPU on the Dragonfly); else the proven lower bound.
            double optimum = exactRun(ix, enc, job, r).splittableOptimum();
            String vs = Double.isNaN(optimum) ? "proven lower bound" : "split LP";
            optimum = Double.isNaN(optimum) ? r.lowerBound() : optimum;
            String value = String.format(Locale.ROOT, "median %.0f ms, p99 %.0f; cpu median %.0f ms, p99 %.0f",
                    m.wall().medianMs(), m.wall().p99Ms(), m.cpu().medianMs(), m.cpu().p99Ms());
            String note = String.format(Locale.ROOT,
                    "%d flows; max load %.4f vs %s %.4f (ratio %.4f, proven gap bound %.4f), single path %.4f;"
                            + " %.2f paths/flow (max %d); %d LP rounds%s; %.1f MB allocated per call; max heap %d MB%s",
                    job.flows().size(), r.maxLoad(), vs, optimum, r.maxLoad() / optimum, r.gapBound(),
                    r.singlePathMaxLoad(), r.meanPathsPerFlow(), r.maxPathsPerFlow(), r.iterations(),
                    Double.isNaN(r.splittableOptimum()) ? " (stopped at the budget)" : "", m.allocMb(),
                    Runtime.getRuntime().maxMemory() / (1024 * 1024),
                    r.fallback() == null ? "" : "; fell back: " + r.fallback());
            target("multipath, " + c[3], value, "<= 1000 ms", m.wall().p99Ms() <= 1000, note);
        }
    }

    private static long[] proofCounts(FlowEncoder enc) {
        return enc instanceof PlanFlowEncoder p ? new long[] {p.proofs(), p.cacheHits()} : null;
    }

    /** Walk proofs and cache hits of the encoder during the calls (warm-up included). */
    private static String proofNote(FlowEncoder enc, long[] before, Runs r) {
        if (before == null) {
            return "";
        }
        long[] now = proofCounts(enc);
        return String.format(Locale.ROOT, "; %d walk proofs, %d cache hits over warm-up + %d timed calls",
                now[0] - before[0], now[1] - before[1], r.wallMs.length);
    }

    private static String suffix(String mode) {
        switch (mode) {
            case "none":
                return " (engine only)";
            case "cold":
                return " (cold encoding cache)";
            default:
                return "";
        }
    }

    /** A timing target on the p99 of wall time, with CPU time and allocation alongside. */
    private void timeTarget(String name, Runs r, double goalMs, String note) {
        Timing w = r.wall();
        Timing c = r.cpu();
        String f = goalMs < 5 ? "%.3f" : "%.1f";
        String value = String.format(Locale.ROOT, "p99 " + f + " ms, median " + f + ", min " + f
                + "; cpu p99 " + f + ", median " + f, w.p99Ms(), w.medianMs(), r.minWallMs(), c.p99Ms(),
                c.medianMs());
        target(name, value, "<= " + (long) goalMs + " ms", w.p99Ms() <= goalMs,
                note + String.format(Locale.ROOT, "; %.1f MB allocated per call (median); GC in %d of %d timed calls"
                        + " (longest %.0f ms); first of %d warm-up calls %.1f ms cpu", r.medianAllocMb(),
                        r.runsWithGc(), r.wallMs.length, r.maxGcMs(), r.warmCalls, r.firstCpuMs));
    }

    /**
     * {@code add(job)} timed on a live engine (released between runs); {@code cold} empties the encoder's cache.
     * The garbage of earlier cases (their engines, plans, baselines) is collected first, untimed, so a collection
     * inside these runs is this case's own.
     */
    private static Runs timeAdd(PlacementEngine e, Job job, FlowEncoder enc, boolean cold, int warm, double warmMs,
                                int runs) throws Exception {
        System.gc();
        boolean[] placed = {false};
        return measure(warm, warmMs, runs, () -> {
            if (placed[0]) {
                e.release(job.id());
            }
            if (cold && enc instanceof PlanFlowEncoder p) {
                p.clearCache();
            }
        }, () -> {
            e.add(job);
            placed[0] = true;
        });
    }

    private static String hottestFabricLink(PlacementEngine e, DenseFabric ix) {
        double[] load = e.arcLoadsGbps();
        int best = -1;
        for (int a = 0; a < load.length; a++) {
            boolean fabricArc = ix.role(ix.from(a)).isSwitch() && ix.role(ix.to(a)).isSwitch();
            if (fabricArc && (best < 0 || load[a] / ix.capacityGbps(a) > load[best] / ix.capacityGbps(best))) {
                best = a;
            }
        }
        return ix.arc(best).link().id();
    }

    private static long usedHeap() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
