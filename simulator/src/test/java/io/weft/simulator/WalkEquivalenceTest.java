package io.weft.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;

import io.weft.fabric.Arc;
import io.weft.lab.fabric.DragonflyGenerator;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.lab.fabric.RailGenerator;
import io.weft.lab.fabric.SlimFlyGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoding;
import io.weft.plan.walk.ForwardingWalk;
import org.junit.jupiter.api.Test;

/** A steered flow's simulated route is the path its encoding was made for, as the core's walk proves it. */
class WalkEquivalenceTest {
    @Test
    void fatTreeRoutesEqualTheEncodedPathsForCarriersAndEvs() throws Exception {
        check(TestFabrics.fatTree(4), 400);
    }

    @Test
    void parallelLinksNeedUaAndStillRouteExactly() throws Exception {
        check(TestFabrics.plan(LeafSpineGenerator.generate(
                new LeafSpineGenerator.Params(null, 3, 2, 2, 2, 400, 400, 100, 500))), 200);
    }

    @Test
    void lowDiameterAndMultiPlaneFabricsRouteExactly() throws Exception {
        check(TestFabrics.plan(DragonflyGenerator.generate(DragonflyGenerator.Params.of(2, 4, 2))), 200);
        check(TestFabrics.plan(SlimFlyGenerator.generate(SlimFlyGenerator.Params.of(5))), 200);
        int otherPlane = check(TestFabrics.plan(RailGenerator.generate(
                new RailGenerator.Params(null, 16, 4, 8, 2, 2, 400, 400, 100, 500))), 200);
        assertThat(otherPlane).as("EV flows on the second plane").isGreaterThan(20);
    }

    /** Returns how many EV flows left by a port other than the source's home (another plane). */
    private static int check(FabricPlan plan, int flows) throws Exception {
        Simulation sim = new Simulation(plan, new EcmpHasher(1));
        List<String> nics = plan.nics();
        Random r = new Random(17);
        int evs = 0;
        int otherPlane = 0;
        for (int i = 0; i < flows; i++) {
            String src = nics.get(r.nextInt(nics.size()));
            String dst = nics.get(r.nextInt(nics.size()));
            if (src.equals(dst)) {
                continue;
            }
            List<Arc> path = TestFabrics.randomShortestPath(plan, src, dst, r);
            PathEncoding enc = TestFabrics.encode(plan, path);
            sim.addFlow(FlowSpec.persistent("s" + i, src, dst, Routing.srv6(enc.carriers())));
            sim.runUntil(sim.now());
            assertThat(sim.result("s" + i).route()).as("srv6 flow %d", i).isEqualTo(path)
                    .isEqualTo(ForwardingWalk.walkCarriers(plan, src, dst, enc.carriers(), "default"));
            if (enc.ev() != null) {
                evs++;
                String port = path.get(0).link().id();
                sim.addFlow(FlowSpec.persistent("e" + i, src, dst, Routing.ev(enc.ev(), port)));
                sim.runUntil(sim.now());
                assertThat(sim.result("e" + i).route()).as("ev flow %d", i).isEqualTo(path)
                        .isEqualTo(ForwardingWalk.walkEv(plan, src, dst, enc.ev(), "default", port));
                if (!path.get(0).equals(plan.attachment(src))) {
                    otherPlane++;
                }
            }
        }
        assertThat(evs).as("paths EV routing reaches").isGreaterThan(flows / 4);
        return otherPlane;
    }
}
