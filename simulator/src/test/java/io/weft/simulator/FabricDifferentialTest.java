package io.weft.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.weft.fabric.Link;
import io.weft.plan.FabricPlan;
import org.junit.jupiter.api.Test;

/**
 * The whole pipeline on a real fabric: ECMP-hashed and SRv6-steered flows on a k=8 fat-tree with
 * about 2 % of the switch links failed, one throttled, some background load; the simulation's
 * rates must equal the reference water-filling over the same routes and remaining capacities,
 * stalled flows must be exactly those whose route crosses a failed link, and no arc may carry
 * more than it can.
 */
class FabricDifferentialTest {
    @Test
    void ratesOnAFatTreeWithFailuresEqualTheReference() throws Exception {
        FabricPlan plan = TestFabrics.fatTree(8);
        Simulation sim = new Simulation(plan, new EcmpHasher(21));
        Random r = new Random(8);
        List<String> nics = plan.nics();
        for (int i = 0; i < 300; i++) {
            String src = nics.get(r.nextInt(nics.size()));
            String dst = nics.get(r.nextInt(nics.size()));
            if (src.equals(dst)) {
                continue;
            }
            Routing routing = i % 2 == 0 ? Routing.ecmp(0xC000 + r.nextInt(0x4000))
                    : Routing.srv6(TestFabrics.encode(plan, TestFabrics.randomShortestPath(plan, src, dst, r))
                            .carriers());
            sim.addFlow(FlowSpec.persistent("f" + i, src, dst, routing));
        }
        List<Link> switchLinks = new ArrayList<>();
        for (Link l : plan.fabric().links()) {
            if (plan.fabric().node(l.a().node()).role().isSwitch()
                    && plan.fabric().node(l.b().node()).role().isSwitch()) {
                switchLinks.add(l);
            }
        }
        java.util.Collections.shuffle(switchLinks, r);
        int failed = (int) Math.round(switchLinks.size() * 0.02);
        for (int i = 0; i < failed; i++) {
            sim.schedule(LinkEvent.fail(0, switchLinks.get(i).id()));
        }
        sim.schedule(LinkEvent.throttle(0, switchLinks.get(failed).id(), 0.3));
        sim.schedule(LinkEvent.background(0, switchLinks.get(failed + 1).id(), null, 250));
        sim.runUntil(0);

        double[] cap = sim.arcCapacitiesGbps();
        List<int[]> routes = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        int stalled = 0;
        for (FlowResult f : sim.results()) {
            int[] route = sim.routeArcs(f.id());
            boolean crossesFailure = route == null;
            if (route != null) {
                for (int a : route) {
                    crossesFailure |= sim.arcFailed(a);
                }
            }
            assertThat(f.state()).as(f.id())
                    .isEqualTo(crossesFailure ? FlowResult.State.STALLED : FlowResult.State.ACTIVE);
            if (crossesFailure) {
                stalled++;
                assertThat(f.rateGbps()).isZero();
            } else {
                routes.add(route);
                ids.add(f.id());
            }
        }
        assertThat(stalled).as("steered flows over failed links stall").isPositive();
        double[] demand = new double[routes.size()];
        java.util.Arrays.fill(demand, Double.POSITIVE_INFINITY);
        double[] want = ReferenceWaterFilling.rates(cap, routes, demand);
        for (int i = 0; i < ids.size(); i++) {
            assertThat(sim.rateGbps(ids.get(i))).as(ids.get(i)).isCloseTo(want[i], within(1e-6));
        }
        double[] load = sim.arcLoadsGbps();
        for (int a = 0; a < load.length; a++) {
            assertThat(load[a]).isLessThanOrEqualTo(cap[a] + 1e-6);
        }
    }
}
