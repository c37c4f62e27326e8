package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.weft.fabric.Fabric;
import io.weft.fabric.Role;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * All traffic from group A to group B: minimal routing squeezes it through the one A-B global link;
 * Valiant paths through the other groups reach the bound min(NIC injection of A, (g-1) x global link
 * capacity), i.e. throughput = total demand / max load equals that bound.
 */
class DragonflyAdversarialTest {

    @ParameterizedTest(name = "Dragonfly(p={0}, a={1}, h={2})")
    @CsvSource({"2,4,2", "4,4,2", "1,4,2", "2,2,2"})
    void groupToGroupReachesTheThroughputBound(int p, int a, int h) throws Exception {
        Fabric f = Fixtures.dragonfly(p, a, h);
        DenseFabric ix = DenseFabric.of(f);
        List<String> srcNics = new ArrayList<>();
        List<String> dstNics = new ArrayList<>();
        for (var n : f.nodesWithRole(Role.NIC)) {
            int g = f.node(ix.nodeId(ix.attach[ix.node(n.id())])).group();
            if (g == 0) {
                srcNics.add(n.id());
            } else if (g == 1) {
                dstNics.add(n.id());
            }
        }
        int groups = a * h + 1;
        double nicGbps = f.link(srcNics.get(0) + "-up").capacityGbps();
        double globalGbps = f.links().stream().filter(l -> f.node(l.a().node()).group() != null
                && f.node(l.b().node()).group() != null
                && !f.node(l.a().node()).group().equals(f.node(l.b().node()).group()))
                .findFirst().orElseThrow().capacityGbps();
        List<JobSpec.FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < srcNics.size(); i++) {
            flows.add(new JobSpec.FlowSpec(srcNics.get(i), dstNics.get(i), nicGbps));
        }
        PlacementEngine e = Fixtures.engine(f);
        PlacementResult r = e.add(Patterns.expand(new JobSpec("adv", null, "explicit", null, nicGbps, 1, 0, null,
                flows), ix, 1 << 20));
        assertThat(r.unplaced()).isEmpty();
        double total = nicGbps * flows.size();
        double bound = Math.min(total, (groups - 1) * globalGbps);
        double throughput = total / r.quality().maxLoad();
        assertThat(throughput).isGreaterThanOrEqualTo(bound * (1 - 1e-9));
        long nonMinimal = r.placed().stream().filter(pf -> globalHops(f, pf) > 1).count();
        assertThat(nonMinimal).as("flows on Valiant paths").isGreaterThan(0);
        for (PlacedFlow pf : r.placed()) {
            Fixtures.assertValidWalk(ix, pf);
            assertThat(globalHops(f, pf)).isLessThanOrEqualTo(2);
        }
    }

    private static long globalHops(Fabric f, PlacedFlow pf) {
        return pf.path().stream().filter(arc -> {
            var x = f.node(arc.from());
            var y = f.node(arc.to());
            return x.role() == Role.ROUTER && y.role() == Role.ROUTER && !x.group().equals(y.group());
        }).count();
    }
}
