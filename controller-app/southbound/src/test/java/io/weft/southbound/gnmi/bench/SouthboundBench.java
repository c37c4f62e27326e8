package io.weft.southbound.gnmi.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;
import io.weft.lab.fabric.FatTreeGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.plan.intent.DeviceIntent;
import io.weft.southbound.gnmi.CanonicalJson;
import io.weft.southbound.gnmi.DeviceState;
import io.weft.southbound.gnmi.DeviceStatus;
import io.weft.southbound.gnmi.FakeSwitch;
import io.weft.southbound.gnmi.GnmiTarget;
import io.weft.southbound.gnmi.Provisioner;
import io.weft.southbound.gnmi.ProvisionerConfig;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code ./weft bench southbound [--json] [--k N]}: the provisioner against one in-process gNMI
 * server per switch of a k-ary fat-tree (k=16: 320 switches). Measures the full push (every op of
 * every switch rendered on demand, sent and confirmed by Get), then one leaf-spine link removed from
 * the fabric: re-plan, render, and the time from handing the changed intents over until every
 * switch is confirmed in sync, with the number of switches and ops re-pushed. Heap: what the
 * provisioner holds after the push (channels, sessions, digests of the confirmed config), measured
 * as the heap released when it is closed. The fakes keep every value as bytes in the same JVM.
 */
public final class SouthboundBench {
    private SouthboundBench() {
    }

    public static void main(String[] args) throws Exception {
        boolean json = false;
        int k = 16;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--json" -> json = true;
                case "--k" -> k = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: SouthboundBench [--json] [--k N]");
                    System.exit(2);
                }
            }
        }
        Map<String, Object> r = run(k);
        if (json) {
            System.out.println(FabricJson.mapper().writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT).writeValueAsString(r));
        } else {
            r.forEach((key, v) -> System.out.printf("%-34s %s%n", key, v));
        }
        System.exit(0);
    }

    public static Map<String, Object> run(int k) throws Exception {
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

        Map<String, FakeSwitch> fakes = new LinkedHashMap<>();
        Map<String, GnmiTarget> targets = new LinkedHashMap<>();
        for (String sw : digests.keySet()) {
            fakes.put(sw, new FakeSwitch("bench-" + sw).start());
            targets.put(sw, GnmiTarget.plaintext(sw, "bench-" + sw, 9339));
        }
        Provisioner p = new Provisioner(ProvisionerConfig.defaults(),
                t -> InProcessChannelBuilder.forName(t.address()).build(), System.err::println);
        try {
            // Full push: each switch rendered on demand and handed to the workers at once (pipelined).
            long t3 = System.nanoTime();
            p.provision(targets, sw -> DeviceIntent.render(plan, sw));
            if (!p.awaitIdle(300_000)) {
                throw new IllegalStateException("full push did not finish in 300 s");
            }
            long t4 = System.nanoTime();
            r.put("full_push_ms", ms(t3, t4));
            r.put("full_push_in_sync", count(p, DeviceState.IN_SYNC));
            r.put("full_push_ops", fakes.values().stream().mapToInt(FakeSwitch::totalOps).sum());
            r.put("full_push_mb_sent", round(setBytes(fakes.values(), null) / 1e6));
            long heapWith = usedHeapAfterGc();

            // One leaf-spine link leaves the fabric: re-plan against the previous plan; the switches whose
            // intent changed are rendered up front so that the clock below times the southbound alone.
            Link removed = firstLeafSpineLink(fabric);
            ObjectNode tree = FabricJson.toTree(fabric);
            ArrayNode links = (ArrayNode) tree.get("links");
            for (int i = links.size() - 1; i >= 0; i--) {
                if (links.get(i).get("id").asText().equals(removed.id())) {
                    links.remove(i);
                }
            }
            Fabric edited = FabricJson.fromTree(tree);
            Map<String, Integer> setsBefore = new LinkedHashMap<>();
            fakes.forEach((sw, f) -> setsBefore.put(sw, f.sets.size()));
            int opsBefore = fakes.values().stream().mapToInt(FakeSwitch::totalOps).sum();
            long t5 = System.nanoTime();
            FabricPlan replan = Planner.plan(edited, plan);
            long t6 = System.nanoTime();
            Map<String, ObjectNode> changed = new LinkedHashMap<>();
            digests(replan, new long[1], (sw, intent) -> {
                if (!CanonicalJson.digest(intent).equals(digests.get(sw))) {
                    changed.put(sw, intent);
                }
            });
            long t7 = System.nanoTime();
            p.provision(targets, changed::get);
            if (!p.awaitIdle(60_000)) {
                throw new IllegalStateException("re-plan push did not finish in 60 s");
            }
            long t8 = System.nanoTime();
            int repushed = 0;
            for (Map.Entry<String, FakeSwitch> e : fakes.entrySet()) {
                if (e.getValue().sets.size() > setsBefore.get(e.getKey())) {
                    repushed++;
                }
            }
            r.put("link_removed", removed.id());
            r.put("replan_ms", ms(t5, t6));
            r.put("replan_render_ms", ms(t6, t7));
            r.put("replan_switches_changed", changed.size());
            r.put("replan_in_sync_ms", ms(t7, t8));
            r.put("replan_switches_repushed", repushed);
            r.put("replan_ops_sent", fakes.values().stream().mapToInt(FakeSwitch::totalOps).sum() - opsBefore);
            r.put("replan_mb_sent", round(setBytes(fakes.values(), setsBefore) / 1e6));
            r.put("replan_in_sync", count(p, DeviceState.IN_SYNC));
            changed.clear();
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
            fakes.values().forEach(FakeSwitch::close);
        }
        return r;
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

    private static Link firstLeafSpineLink(Fabric f) {
        for (Link l : f.links()) {
            String a = f.node(l.a().node()).role().jsonName();
            String b = f.node(l.b().node()).role().jsonName();
            if ((a.equals("leaf") && b.equals("spine")) || (a.equals("spine") && b.equals("leaf"))) {
                return l;
            }
        }
        throw new IllegalStateException("no leaf-spine link");
    }

    /** Bytes of the SetRequests the fakes received (after the given per-switch counts, if any). */
    private static long setBytes(java.util.Collection<FakeSwitch> fakes, Map<String, Integer> after) {
        long n = 0;
        for (FakeSwitch f : fakes) {
            int from = after == null ? 0 : after.get(f.name.substring("bench-".length()));
            for (int i = from; i < f.sets.size(); i++) {
                n += f.sets.get(i).getSerializedSize();
            }
        }
        return n;
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
