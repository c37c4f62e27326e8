package io.weft.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.plan.intent.DeviceIntent;

/**
 * Rough timings of planning and path encoding on a k=32-sized 3-tier Clos (not a test: speed
 * belongs in benchmarks). Run from the module dir after {@code test-compile}:
 * {@code java -cp target/classes:target/test-classes:$(cat cp.txt) io.weft.plan.PlanBenchMain}.
 */
public final class PlanBenchMain {
    /** CPU time, not wall time: the build machine is shared, wall clocks mostly measure the neighbours. */
    private static final java.lang.management.ThreadMXBean CPU =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private PlanBenchMain() {
    }

    public static void main(String[] args) throws Exception {
        Fabric fabric = TestFabrics.clos3(32, 16, 16, 16);
        long t0 = CPU.getCurrentThreadCpuTime();
        FabricPlan plan = Planner.plan(fabric, null);
        long t1 = CPU.getCurrentThreadCpuTime();
        System.out.printf("fat-tree k=32 (%d switches, %d links): plan %.1f ms cpu (cold JVM)%n",
                plan.switches().size(), fabric.links().size(), (t1 - t0) / 1e6);
        FabricPlan again = Planner.plan(fabric, plan);
        System.out.printf("re-plan with previous: %.1f ms cpu%n", (CPU.getCurrentThreadCpuTime() - t1) / 1e6);
        List<String> nics = plan.nics();
        Random rnd = new Random(1);
        List<List<Arc>> paths = new ArrayList<>();
        for (int i = 0; i < 65_536; i++) {
            String src = nics.get(rnd.nextInt(nics.size()));
            String dst = nics.get(rnd.nextInt(nics.size()));
            if (src.equals(dst)) {
                continue;
            }
            List<List<Arc>> c = Paths.candidates(again, src, dst, 0, 1 + rnd.nextInt(8));
            paths.add(c.get(c.size() - 1));
        }
        for (int round = 0; round < Integer.getInteger("rounds", 3); round++) {
            long s = System.nanoTime();
            long cpu = CPU.getCurrentThreadCpuTime();
            int ev = 0;
            for (List<Arc> p : paths) {
                if (PathEncoder.encode(again, p, "default").ev() != null) {
                    ev++;
                }
            }
            long e = System.nanoTime();
            long cpuUsed = CPU.getCurrentThreadCpuTime() - cpu;
            System.out.printf("encode+prove %d paths: wall %.1f ms, cpu %.1f ms (%.2f us/path cpu), %d with EV%n",
                    paths.size(), (e - s) / 1e6, cpuUsed / 1e6, cpuUsed / 1e3 / paths.size(), ev);
        }
        long s = CPU.getCurrentThreadCpuTime();
        int ops = 0;
        for (String sw : List.of(again.switches().get(0), again.switches().get(600), again.switches().get(1100))) {
            ops += DeviceIntent.render(again, sw).get("replace").size();
        }
        System.out.printf("render 3 switches: %.1f ms cpu (%d ops)%n", (CPU.getCurrentThreadCpuTime() - s) / 1e6, ops);
    }
}
