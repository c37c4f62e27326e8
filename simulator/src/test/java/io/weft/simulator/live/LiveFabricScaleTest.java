package io.weft.simulator.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import io.weft.fabric.Arc;
import io.weft.fabric.Role;
import io.weft.lab.fabric.FatTreeGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoder;
import io.weft.plan.Planner;
import io.weft.simulator.Routing;
import org.junit.jupiter.api.Test;

/**
 * Live mode on a k=8 fat-tree (128 NICs, 80 switches, 640 switch ports): 512 flows (four
 * permutations, random shortest paths as SRv6 carriers) must tick well inside the 100 ms interval
 * and a move must recompute every rate quickly. CPU times are printed; the bound asserted is loose
 * (a quarter of the interval) because the machine is shared.
 */
class LiveFabricScaleTest {
    @Test
    void aK8FatTreeStaysFluid() throws Exception {
        FabricPlan plan = Planner.plan(FatTreeGenerator.generate(FatTreeGenerator.kary(8)), null);
        List<String> nics = new ArrayList<>();
        plan.fabric().nodesWithRole(Role.NIC).forEach(n -> nics.add(n.id()));
        LiveFabric fabric = new LiveFabric(plan);
        Random r = new Random(8);
        for (int i = 0; i < nics.size(); i++) {
            List<ProfileEntry> entries = new ArrayList<>();
            for (int p = 1; p <= 4; p++) {
                String dst = nics.get((i + p * nics.size() / 5 + 1) % nics.size());
                entries.add(entry(plan, "f" + i + "-" + p, nics.get(i), dst, r));
            }
            fabric.applyProfile(nics.get(i), entries);
        }
        assertThat(fabric.flows()).hasSize(512);

        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] cpu = new long[200];
        long t = 1_700_000_000_000_000_000L;
        int records = 0;
        for (int i = 0; i < cpu.length; i++) {
            long c0 = mx.getCurrentThreadCpuTime();
            records = fabric.tick(t + i * 100_000_000L).size();
            cpu[i] = mx.getCurrentThreadCpuTime() - c0;
        }
        long[] warm = Arrays.copyOfRange(cpu, 50, cpu.length);
        Arrays.sort(warm);

        long m0 = mx.getCurrentThreadCpuTime();
        String moved = nics.get(0);
        fabric.applyProfile(moved, List.of(entry(plan, "f0-1", moved, nics.get(27), r),
                entry(plan, "f0-2", moved, nics.get(53), r), entry(plan, "f0-3", moved, nics.get(79), r),
                entry(plan, "f0-4", moved, nics.get(105), r)));
        long moveNs = mx.getCurrentThreadCpuTime() - m0;

        System.out.printf(Locale.ROOT, "live k=8 fat-tree: %d flows, %d switch records per tick; tick CPU p50 %.2f ms,"
                        + " p99 %.2f ms, max %.2f ms; one NIC's profile (4 flows moved) %.1f ms; load %s%n",
                fabric.flows().size(), records, warm[warm.length / 2] / 1e6, warm[(int) (warm.length * 0.99)] / 1e6,
                warm[warm.length - 1] / 1e6, moveNs / 1e6, loadAverage());
        assertThat(records).isEqualTo(80);
        assertThat(warm[warm.length / 2]).as("median tick CPU, ns").isLessThan(25_000_000L);
    }

    private static ProfileEntry entry(FabricPlan plan, String id, String src, String dst, Random r) throws Exception {
        List<Arc> path = new ArrayList<>();
        Arc first = plan.attachment(src);
        path.add(first);
        String at = first.to();
        String dstSwitch = plan.attachment(dst).to();
        while (!at.equals(dstSwitch)) {
            List<Arc> hops = plan.nextHops(at, dstSwitch);
            Arc next = hops.get(r.nextInt(hops.size()));
            path.add(next);
            at = next.to();
        }
        path.add(new Arc(plan.attachment(dst).link(), at));
        return new ProfileEntry(id, "j", dst, "GOOD", 100,
                Routing.srv6(PathEncoder.encode(plan, path, "default").carriers()));
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
