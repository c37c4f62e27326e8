package io.weft.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.lab.fabric.FatTreeGenerator;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoder;
import io.weft.plan.PathEncoding;
import io.weft.plan.PlanException;
import io.weft.plan.Planner;

/** Planned generated fabrics and path helpers for the tests. */
final class TestFabrics {
    private TestFabrics() {
    }

    /** Leaf-spine, 400G everywhere; NICs are leafL-nicN. */
    static FabricPlan leafSpine(int leaves, int spines, int nicsPerLeaf) {
        return plan(LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(leaves, spines, nicsPerLeaf)));
    }

    static FabricPlan fatTree(int k) {
        return plan(FatTreeGenerator.generate(FatTreeGenerator.kary(k)));
    }

    static FabricPlan plan(Fabric f) {
        try {
            return Planner.plan(f, null);
        } catch (PlanException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The path through these nodes, taking the first link (file order) between each pair. */
    static List<Arc> path(FabricPlan plan, String... nodes) {
        List<Arc> out = new ArrayList<>();
        for (int i = 0; i + 1 < nodes.length; i++) {
            String to = nodes[i + 1];
            Arc arc = plan.fabric().arcsFrom(nodes[i]).stream().filter(a -> a.to().equals(to)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no link " + to));
            out.add(arc);
        }
        return out;
    }

    static PathEncoding encode(FabricPlan plan, List<Arc> path) {
        try {
            return PathEncoder.encode(plan, path, "default");
        } catch (PlanException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A uniformly random shortest NIC-to-NIC path leaving by a random port of {@code src} (a
     * multi-plane NIC has one per plane) and arriving by the destination's leaf on that plane.
     */
    static List<Arc> randomShortestPath(FabricPlan plan, String src, String dst, Random r) {
        List<Arc> out = new ArrayList<>();
        // Any port of the source (a multi-plane NIC has one per plane), to the destination's leaf there.
        List<Arc> ports = new ArrayList<>();
        for (Arc a : plan.fabric().arcsFrom(src)) {
            if (plan.fabric().node(a.to()).role().isSwitch()) {
                ports.add(a);
            }
        }
        Arc first = ports.get(r.nextInt(ports.size()));
        out.add(first);
        String at = first.to();
        String dstSwitch = plan.deliverySwitch(dst, at);
        while (!at.equals(dstSwitch)) {
            List<Arc> hops = plan.nextHops(at, dstSwitch);
            Arc next = hops.get(r.nextInt(hops.size()));
            out.add(next);
            at = next.to();
        }
        out.add(new Arc(plan.nicLink(at, dst), at));
        return out;
    }
}
