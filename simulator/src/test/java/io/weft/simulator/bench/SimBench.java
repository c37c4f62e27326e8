package io.weft.simulator.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.lab.fabric.FatTreeGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoder;
import io.weft.plan.Planner;
import io.weft.simulator.EcmpHasher;
import io.weft.simulator.FlowSpec;
import io.weft.simulator.Routing;
import io.weft.simulator.Simulation;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * ./weft bench sim: one max-min rate recomputation for F flows on a k-ary fat-tree (default the
 * target: 65,536 flows, k = 32, 8,192 NICs, 1,280 switches), for ECMP-hashed flows and for
 * SRv6-steered flows (random shortest paths encoded by the core and walked). Reports the median,
 * p90 and worst of N recomputations after warm-up, the time to route the flows, and the peak heap.
 * Run it on one core in a 1 GB heap (the bench script does: taskset, -Xmx1g).
 */
public final class SimBench {
    private SimBench() {
    }

    /** The command line of {@code ./weft bench sim}; --quick changes only the sizes not given. */
    @Command(name = "weft bench sim", description = "The simulator's rate recomputation on a k-ary fat-tree.")
    static final class Flags {
        @Option(names = "--json", description = "one JSON object per mode")
        boolean json;

        @Option(names = "--quick", description = "k 16, 8192 flows, 10 runs")
        boolean quick;

        @Option(names = "--k", paramLabel = "N", description = "fat-tree arity (default 32)")
        Integer k;

        @Option(names = "--flows", paramLabel = "N", description = "flows (default 65536)")
        Integer flows;

        @Option(names = "--runs", paramLabel = "N", description = "recomputations measured (default 30)")
        Integer runs;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
        boolean help;
    }

    public static void main(String[] args) throws Exception {
        Flags flags = new Flags();
        CommandLine line = new CommandLine(flags).setOverwrittenOptionsAllowed(true);
        try {
            line.parseArgs(args);
        } catch (ParameterException e) {
            System.err.println("weft bench sim: " + e.getMessage() + " (see --help)");
            System.exit(2);
        }
        if (line.isUsageHelpRequested()) {
            line.usage(System.out);
            return;
        }
        int k = flags.k != null ? flags.k : flags.quick ? 16 : 32;
        int flows = flags.flows != null ? flags.flows : flags.quick ? 8192 : 65_536;
        int runs = flags.runs != null ? flags.runs : flags.quick ? 10 : 30;
        boolean json = flags.json;
        long t0 = System.nanoTime();
        Fabric fabric = FatTreeGenerator.generate(FatTreeGenerator.kary(k));
        FabricPlan plan = Planner.plan(fabric, null);
        double planMs = ms(t0);
        List<ObjectNode> rows = new ArrayList<>();
        for (String mode : List.of("ecmp", "srv6")) {
            rows.add(run(plan, mode, flows, runs, planMs));
        }
        ObjectMapper m = new ObjectMapper();
        if (json) {
            for (ObjectNode r : rows) {
                System.out.println(m.writeValueAsString(r));
            }
            return;
        }
        System.out.printf(Locale.ROOT, "%-6s %-10s %8s %6s %9s %9s %9s %9s %10s %9s %8s %9s %8s%n", "mode", "fabric",
                "flows", "arcs", "route_ms", "p50_ms", "p90_ms", "max_ms", "cpu_p50_ms", "goal_ms", "heap_mb", "xmx_mb",
                "load");
        for (ObjectNode r : rows) {
            System.out.printf(Locale.ROOT, "%-6s %-10s %8d %6d %9.0f %9.1f %9.1f %9.1f %10.1f %9s %8.0f %9.0f %8s%n",
                    r.get("mode").asText(), r.get("fabric").asText(), r.get("flows").asInt(), r.get("arcs").asInt(),
                    r.get("route_ms").asDouble(), r.get("recompute_p50_ms").asDouble(),
                    r.get("recompute_p90_ms").asDouble(), r.get("recompute_max_ms").asDouble(),
                    r.get("recompute_cpu_p50_ms").asDouble(), "<= 100",
                    r.get("peak_heap_mb").asDouble(), r.get("max_heap_mb").asDouble(), r.get("loadavg").asText());
        }
        System.out.println("cpus visible: " + Runtime.getRuntime().availableProcessors()
                + "; load = 1-minute load average when the row finished");
    }

    private static ObjectNode run(FabricPlan plan, String mode, int flows, int runs, double planMs) throws Exception {
        System.gc();
        resetPeaks();
        List<String> nics = plan.nics();
        Random r = new Random(42);
        Simulation sim = new Simulation(plan, new EcmpHasher(7));
        long t0 = System.nanoTime();
        for (int i = 0; i < flows; i++) {
            // Each NIC sends flows / #NICs flows to random other NICs: all-to-all-like, the hard case.
            String src = nics.get(i % nics.size());
            String dst = nics.get(r.nextInt(nics.size()));
            while (dst.equals(src)) {
                dst = nics.get(r.nextInt(nics.size()));
            }
            Routing routing;
            if (mode.equals("ecmp")) {
                routing = Routing.ecmp(0xC000 + r.nextInt(0x4000));
            } else {
                routing = Routing.srv6(PathEncoder.encode(plan, shortest(plan, src, dst, r), "default").carriers());
            }
            sim.addFlow(FlowSpec.persistent("f" + i, src, dst, routing));
        }
        sim.runUntil(0); // starts every flow (ECMP hashing happens here) and computes the first rates
        double routeMs = ms(t0);
        double[] t = new double[runs];
        double[] cpu = new double[runs];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int w = 0; w < 10; w++) {
            sim.recomputeRates();
        }
        for (int i = 0; i < runs; i++) {
            long c = threads.getCurrentThreadCpuTime();
            long s = System.nanoTime();
            sim.recomputeRates();
            t[i] = ms(s);
            cpu[i] = (threads.getCurrentThreadCpuTime() - c) / 1e6;
        }
        Arrays.sort(t);
        Arrays.sort(cpu);
        double slowest = Double.POSITIVE_INFINITY;
        for (var res : sim.results()) {
            slowest = Math.min(slowest, res.rateGbps());
        }
        ObjectNode row = new ObjectMapper().createObjectNode();
        row.put("bench", "sim");
        row.put("mode", mode);
        row.put("fabric", plan.fabric().id());
        row.put("switches", plan.switches().size());
        row.put("nics", nics.size());
        row.put("flows", flows);
        row.put("arcs", plan.fabric().links().size() * 2);
        row.put("plan_ms", Math.round(planMs));
        row.put("route_ms", Math.round(routeMs));
        row.put("recompute_p50_ms", round(t[t.length / 2]));
        row.put("recompute_p90_ms", round(t[(int) Math.min(t.length - 1, Math.ceil(t.length * 0.9) - 1)]));
        row.put("recompute_max_ms", round(t[t.length - 1]));
        row.put("recompute_cpu_p50_ms", round(cpu[cpu.length / 2]));
        row.put("recompute_cpu_max_ms", round(cpu[cpu.length - 1]));
        row.put("recompute_goal_ms", 100);
        row.put("runs", runs);
        row.put("slowest_flow_gbps", round(slowest));
        row.put("peak_heap_mb", Math.round(peakHeapBytes() / 1e6));
        row.put("max_heap_mb", Math.round(Runtime.getRuntime().maxMemory() / 1e6));
        row.put("cpus", Runtime.getRuntime().availableProcessors());
        row.put("loadavg", loadavg());
        return row;
    }

    private static List<Arc> shortest(FabricPlan plan, String src, String dst, Random r) {
        List<Arc> out = new ArrayList<>();
        Arc first = plan.attachment(src);
        out.add(first);
        String at = first.to();
        String dstSwitch = plan.attachment(dst).to();
        while (!at.equals(dstSwitch)) {
            List<Arc> hops = plan.nextHops(at, dstSwitch);
            Arc next = hops.get(r.nextInt(hops.size()));
            out.add(next);
            at = next.to();
        }
        out.add(new Arc(plan.attachment(dst).link(), at));
        return out;
    }

    private static void resetPeaks() {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            p.resetPeakUsage();
        }
    }

    /** Sum of the heap pools' peaks since the last reset: an upper bound on the live heap reached. */
    private static long peakHeapBytes() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    private static String loadavg() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (Exception e) {
            return "?";
        }
    }

    private static double ms(long since) {
        return (System.nanoTime() - since) / 1e6;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
