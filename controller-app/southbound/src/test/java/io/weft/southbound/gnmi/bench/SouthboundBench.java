package io.weft.southbound.gnmi.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;
import io.weft.lab.fabric.FatTreeGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.plan.intent.DeviceIntent;
import io.weft.plan.intent.IntentChanges;
import io.weft.southbound.gnmi.CanonicalJson;
import io.weft.southbound.gnmi.DeviceState;
import io.weft.southbound.gnmi.DeviceStatus;
import io.weft.southbound.gnmi.GnmiTarget;
import io.weft.southbound.gnmi.Provisioner;
import io.weft.southbound.gnmi.ProvisionerConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code ./weft bench southbound [--json] [--k N] [--changes N]}: the provisioner against one
 * in-process gNMI server per switch of a k-ary fat-tree (k=16: 320 switches). Measures the full push
 * (every op of every switch rendered on demand, sent and confirmed by Get), then {@code changes}
 * single-link changes (a leaf-spine link removed, then restored, for links spread over the pods),
 * each re-planned against the previous plan: every switch is rendered and digested to find the ones
 * whose intent changed ({@code detect_ms}), then the clock runs from handing those switches over
 * (their intents rendered on demand inside the provisioner, as the controller does) until every switch
 * is confirmed in sync ({@code in_sync_ms}; p50/p99 over the changes), with the switches,
 * ops and bytes re-pushed. Heap: what the provisioner holds after the push (channels, sessions,
 * digests of the confirmed config), measured as the heap released when it is closed. The fakes keep
 * every value as bytes, in the same JVM or, with {@code --fakes-jvm HEAP}, in a child JVM reached over
 * loopback TCP (then this JVM's heap is the controller's alone: run it with -Xmx512m to check the
 * controller's sessions for a k=16 fabric fit the heap the controller is given).
 */
public final class SouthboundBench {
    private SouthboundBench() {
    }

    /** The command line of {@code ./weft bench southbound}. */
    @Command(name = "weft bench southbound", sortOptions = false,
            description = "The gNMI provisioner against one in-process gNMI server per switch of a k-ary fat-tree.")
    static final class Flags {
        @Option(names = "--json", description = "one JSON object")
        boolean json;

        @Option(names = "--k", paramLabel = "N", description = "fat-tree arity (default ${DEFAULT-VALUE})")
        int k = 16;

        @Option(names = "--changes", paramLabel = "N",
                description = "single-link changes measured (default ${DEFAULT-VALUE})")
        int changes = 6;

        @Option(names = "--fakes-jvm", paramLabel = "HEAP",
                description = "run the fake switches in a child JVM with this heap")
        String fakesJvm;

        @Option(names = "--whole",
                description = "hand changed switches over as whole intents (found by rendering every switch) instead "
                        + "of route-level changes")
        boolean whole;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
        boolean help;
    }

    public static void main(String[] args) throws Exception {
        Flags flags = new Flags();
        CommandLine line = new CommandLine(flags).setOverwrittenOptionsAllowed(true);
        try {
            line.parseArgs(args);
        } catch (ParameterException e) {
            System.err.println("weft bench southbound: " + e.getMessage() + " (see --help)");
            System.exit(2);
        }
        if (line.isUsageHelpRequested()) {
            line.usage(System.out);
            return;
        }
        boolean json = flags.json;
        int k = flags.k;
        int changes = flags.changes;
        String fakesJvm = flags.fakesJvm;
        Map<String, Object> r = run(k, changes, json, fakesJvm, flags.whole);
        if (json) {
            System.out.println(FabricJson.mapper().writer()
                    .without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT).writeValueAsString(r));
        } else {
            r.forEach((key, v) -> {
                if (!key.equals("steps")) { // printed one per line on stderr as they ran
                    System.out.printf("%-34s %s%n", key, v);
                }
            });
        }
        System.exit(0);
    }

    public static Map<String, Object> run(int k) throws Exception {
        return run(k, 6, true);
    }

    /** {@code changes} single-link changes (a link removed, then restored, ...); {@code json} keeps stderr quiet. */
    public static Map<String, Object> run(int k, int changes, boolean json) throws Exception {
        return run(k, changes, json, null);
    }

    /** With {@code fakesJvm} (a heap size such as "2g"), the switches run in a child JVM on loopback TCP. */
    public static Map<String, Object> run(int k, int changes, boolean json, String fakesJvm) throws Exception {
        return run(k, changes, json, fakesJvm, false);
    }

    /**
     * With {@code whole}, the previous way: the changed switches are found by rendering every switch
     * before the clock starts and handed over as whole intents. Otherwise route-level changes
     * ({@link IntentChanges}), computed inside the clock.
     */
    public static Map<String, Object> run(int k, int changes, boolean json, String fakesJvm,
            boolean whole) throws Exception {
        Map<String, Object> r = new LinkedHashMap<>();
        Fabric fabric = FatTreeGenerator.generate(FatTreeGenerator.kary(k));
        long t0 = System.nanoTime();
        FabricPlan plan = Planner.plan(fabric, null);
        long t1 = System.nanoTime();
        long[] bytes = new long[1];
        Map<String, String> digests = digests(plan, bytes, null);
        long t2 = System.nanoTime();
        r.put("k", k);
        r.put("switches", digests.size());
        r.put("plan_ms", ms(t0, t1));
        r.put("render_ms", ms(t1, t2));
        r.put("intent_mb", round(bytes[0] / 1e6));

        FakeFleet fleet = fakesJvm == null ? FakeFleet.inProcess(new ArrayList<>(digests.keySet()))
                : FakeFleet.childJvm(new ArrayList<>(digests.keySet()), fakesJvm);
        Map<String, GnmiTarget> targets = fleet.targets();
        r.put("fakes", fakesJvm == null ? "in-process" : "child JVM, loopback TCP");
        r.put("handover", whole ? "whole intents of the changed switches" : "route-level changes");
        Provisioner p = new Provisioner(ProvisionerConfig.defaults(), fleet.channels(), System.err::println);
        try {
            // Full push: each switch rendered on demand and handed to the workers at once (pipelined).
            long t3 = System.nanoTime();
            p.provision(targets, plan, sw -> DeviceIntent.render(plan, sw));
            if (!p.awaitIdle(300_000)) {
                throw new IllegalStateException("full push did not finish in 300 s");
            }
            long t4 = System.nanoTime();
            r.put("full_push_ms", ms(t3, t4));
            r.put("full_push_in_sync", count(p, DeviceState.IN_SYNC));
            r.put("full_push_ops", total(fleet.counters(), 1));
            r.put("full_push_mb_sent", round(total(fleet.counters(), 2) / 1e6));
            long heapWith = usedHeapAfterGc();

            // Single-link changes: a leaf-spine link leaves the fabric, then comes back, for several links
            // spread over the pods; each step is re-planned against the previous plan. in_sync_ms runs from the
            // new plan until every switch is confirmed: the route-level changes computed (diff_ms) and handed
            // over, as the controllers do. With --whole, the previous way: every switch rendered and digested to
            // find the changed ones (detect_ms) before the clock starts, then those handed over whole.
            List<Link> picked = leafSpineLinks(fabric, (changes + 1) / 2);
            List<Map<String, Object>> steps = new ArrayList<>();
            FabricPlan prev = plan;
            Map<String, String> prevDigests = digests;
            for (int step = 0; step < changes; step++) {
                Link l = picked.get(step / 2);
                boolean removing = step % 2 == 0;
                Fabric next = removing ? without(fabric, l) : fabric;
                Map<String, long[]> before = fleet.counters();
                long cpu0 = processCpuNs();
                long a = System.nanoTime();
                FabricPlan replan = Planner.plan(next, prev);
                long b = System.nanoTime();
                java.util.Set<String> changed = new java.util.HashSet<>();
                long[] renderChangedNs = new long[1];
                Map<String, String> nextDigests = new LinkedHashMap<>();
                FabricPlan current = replan;
                FabricPlan before0 = prev;
                long c;
                long h;
                long diffNs = 0;
                long diffCpuNs = 0;
                long windowCpu0 = 0;
                long handoverCpuNs = 0;
                int changesGiven = -1;
                if (whole) {
                    detect(replan, prevDigests, nextDigests, changed, renderChangedNs);
                    windowCpu0 = processCpuNs();
                    c = System.nanoTime();
                    p.provision(targets, current, sw -> changed.contains(sw) ? DeviceIntent.render(current, sw) : null);
                    h = System.nanoTime();
                } else {
                    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                    windowCpu0 = processCpuNs();
                    c = System.nanoTime();
                    long tc0 = threads.getCurrentThreadCpuTime();
                    Map<String, IntentChanges.SwitchChange> delta = IntentChanges.between(before0, current);
                    diffNs = System.nanoTime() - c;
                    long tc1 = threads.getCurrentThreadCpuTime();
                    changesGiven = delta == null ? -1 : delta.size();
                    p.provisionChanges(targets, before0, current, delta, sw -> DeviceIntent.render(current, sw));
                    h = System.nanoTime();
                    diffCpuNs = tc1 - tc0;
                    handoverCpuNs = threads.getCurrentThreadCpuTime() - tc1;
                }
                if (!p.awaitIdle(600_000)) {
                    throw new IllegalStateException("re-plan push did not finish in 600 s");
                }
                long e = System.nanoTime();
                long cpu1 = processCpuNs();
                Map<String, long[]> after = fleet.counters();
                int verifyOps = -1;
                if (!whole) {
                    // Outside the clock: the switches whose rendered intent changed must be exactly those the
                    // changes named, and handing every switch's whole intent over afterwards sends nothing.
                    detect(replan, prevDigests, nextDigests, changed, renderChangedNs);
                    long sentBefore = total(fleet.counters(), 1);
                    p.provision(targets, current, sw -> DeviceIntent.render(current, sw));
                    if (!p.awaitIdle(600_000)) {
                        throw new IllegalStateException("verification push did not finish in 600 s");
                    }
                    verifyOps = (int) (total(fleet.counters(), 1) - sentBefore);
                }
                int repushed = 0;
                for (Map.Entry<String, long[]> f : after.entrySet()) {
                    if (f.getValue()[0] > before.get(f.getKey())[0]) {
                        repushed++;
                    }
                }
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("change", (removing ? "-" : "+") + l.id());
                s.put("replan_ms", ms(a, b));
                if (whole) {
                    s.put("detect_ms", ms(b, c));
                    s.put("render_changed_ms", renderChangedNs[0] / 1_000_000);
                } else {
                    s.put("diff_ms", diffNs / 1_000_000);
                    s.put("diff_cpu_ms", round(diffCpuNs / 1e6));
                    s.put("apply_cpu_ms", round(handoverCpuNs / 1e6));
                    s.put("switches_in_changes", changesGiven);
                    s.put("verify_ops_sent", verifyOps);
                }
                s.put("switches_changed", changed.size());
                s.put("handover_ms", ms(c, h));
                s.put("in_sync_ms", ms(c, e));
                s.put("in_sync_cpu_ms", (cpu1 - cpu0) / 1_000_000);
                s.put("window_cpu_ms", (cpu1 - windowCpu0) / 1_000_000);
                s.put("switches_repushed", repushed);
                s.put("ops_sent", total(after, 1) - total(before, 1));
                s.put("kb_sent", Math.round((total(after, 2) - total(before, 2)) / 1e3));
                s.put("in_sync", count(p, DeviceState.IN_SYNC));
                steps.add(s);
                prev = replan;
                prevDigests = nextDigests;
                if (!json) {
                    System.err.println("change " + (step + 1) + "/" + changes + ": " + s);
                }
            }
            r.put("changes", steps.size());
            r.put("replan_switches_changed_max", max(steps, "switches_changed"));
            r.put("replan_switches_repushed_max", max(steps, "switches_repushed"));
            r.put("replan_ops_sent_max", max(steps, "ops_sent"));
            r.put("replan_kb_sent_max", max(steps, "kb_sent"));
            r.put("replan_in_sync_p50_ms", percentile(steps, "in_sync_ms", 50));
            r.put("replan_in_sync_p99_ms", percentile(steps, "in_sync_ms", 99));
            r.put("replan_handover_p50_ms", percentile(steps, "handover_ms", 50));
            r.put("replan_in_sync_cpu_p50_ms", percentile(steps, "in_sync_cpu_ms", 50));
            r.put("replan_window_cpu_p50_ms", percentile(steps, "window_cpu_ms", 50));
            r.put("replan_plan_p50_ms", percentile(steps, "replan_ms", 50));
            if (whole) {
                r.put("replan_render_changed_p50_ms", percentile(steps, "render_changed_ms", 50));
                r.put("replan_detect_p50_ms", percentile(steps, "detect_ms", 50));
            } else {
                r.put("replan_diff_p50_ms", percentile(steps, "diff_ms", 50));
                r.put("replan_diff_cpu_p50_ms", percentile(steps, "diff_cpu_ms", 50));
                r.put("replan_apply_cpu_p50_ms", percentile(steps, "apply_cpu_ms", 50));
                r.put("replan_changes_exact", steps.stream()
                        .allMatch(x -> x.get("switches_in_changes").equals(x.get("switches_changed"))
                        && ((Number) x.get("verify_ops_sent")).intValue() == 0));
            }
            r.put("replan_in_sync_all", steps.stream().allMatch(x -> (int) x.get("in_sync") == digests.size()));
            r.put("steps", steps);
            heapWith = Math.max(heapWith, 0);
            long heapBeforeClose = usedHeapAfterGc();
            p.close();
            long heapAfterClose = usedHeapAfterGc();
            r.put("provisioner_heap_mb", round((heapBeforeClose - heapAfterClose) / 1048576.0));
            r.put("heap_used_after_full_push_mb", round(heapWith / 1048576.0));
            r.put("max_heap_mb", Runtime.getRuntime().maxMemory() / 1048576);
            r.put("loadavg", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            r.put("cpus", Runtime.getRuntime().availableProcessors());
        } finally {
            p.close();
            fleet.close();
        }
        return r;
    }

    /** Renders and digests every switch of the plan: the ones whose digest differs from before are the changed ones. */
    private static void detect(FabricPlan plan, Map<String, String> prevDigests, Map<String, String> nextDigests,
                               java.util.Set<String> changed, long[] renderChangedNs) {
        for (String sw : plan.switches()) {
            long r0 = System.nanoTime();
            ObjectNode intent = DeviceIntent.render(plan, sw);
            long r1 = System.nanoTime();
            String d = CanonicalJson.digest(intent);
            nextDigests.put(sw, d);
            if (!d.equals(prevDigests.get(sw))) {
                changed.add(sw);
                renderChangedNs[0] += r1 - r0;
            }
        }
    }

    /** Renders every switch once (trees dropped as it goes) and returns the digest of each intent. */
    private static Map<String, String> digests(FabricPlan plan, long[] bytes,
                                               java.util.function.BiConsumer<String, ObjectNode> each) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String sw : plan.switches()) {
            ObjectNode intent = DeviceIntent.render(plan, sw);
            byte[] json = CanonicalJson.bytes(intent);
            bytes[0] += json.length;
            out.put(sw, CanonicalJson.digest(json));
            if (each != null) {
                each.accept(sw, intent);
            }
        }
        return out;
    }

    /** n leaf-spine links spread evenly over the fabric's list of them. */
    private static List<Link> leafSpineLinks(Fabric f, int n) {
        List<Link> all = new ArrayList<>();
        for (Link l : f.links()) {
            String a = f.node(l.a().node()).role().jsonName();
            String b = f.node(l.b().node()).role().jsonName();
            if ((a.equals("leaf") && b.equals("spine")) || (a.equals("spine") && b.equals("leaf"))) {
                all.add(l);
            }
        }
        if (all.isEmpty()) {
            throw new IllegalStateException("no leaf-spine link");
        }
        List<Link> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(all.get((int) ((long) i * all.size() / n)));
        }
        return out;
    }

    private static Fabric without(Fabric fabric, Link removed) throws Exception {
        ObjectNode tree = FabricJson.toTree(fabric);
        ArrayNode links = (ArrayNode) tree.get("links");
        for (int i = links.size() - 1; i >= 0; i--) {
            if (links.get(i).get("id").asText().equals(removed.id())) {
                links.remove(i);
            }
        }
        return FabricJson.fromTree(tree);
    }

    private static long max(List<Map<String, Object>> steps, String key) {
        return steps.stream().mapToLong(s -> ((Number) s.get(key)).longValue()).max().orElse(0);
    }

    /** Nearest-rank percentile. */
    private static long percentile(List<Map<String, Object>> steps, String key, int pct) {
        long[] v = steps.stream().mapToLong(s -> ((Number) s.get(key)).longValue()).sorted().toArray();
        if (v.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(pct / 100.0 * v.length);
        return v[Math.max(0, rank - 1)];
    }

    private static long total(Map<String, long[]> counters, int column) {
        long n = 0;
        for (long[] c : counters.values()) {
            n += c[column];
        }
        return n;
    }

    /** CPU time of this JVM so far (the in-process fakes' work included). */
    private static long processCpuNs() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static int count(Provisioner p, DeviceState s) {
        int n = 0;
        for (DeviceStatus d : p.devices()) {
            if (d.state() == s) {
                n++;
            }
        }
        return n;
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    private static long ms(long fromNs, long toNs) {
        return (toNs - fromNs) / 1_000_000;
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
