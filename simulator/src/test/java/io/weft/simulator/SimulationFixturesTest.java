package io.weft.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import io.weft.plan.FabricPlan;
import org.junit.jupiter.api.Test;

/**
 * Completion times worked out by hand on a 2-leaf, 2-spine fabric with 400G links everywhere.
 * 1 GB = 8 Gbit, so at 400 Gbit/s 50 GB take exactly 1 s.
 */
class SimulationFixturesTest {
    private static final double GB = 1e9;
    private final FabricPlan plan = TestFabrics.leafSpine(2, 2, 2);

    @Test
    void twoFlowsIntoOneNicShareItThenTheLongerOneSpeedsUp() throws Exception {
        // Both end at leaf2-nic1 (one 400G link): 200G each. a (25 GB = 200 Gbit) is done at 1.0 s;
        // b (50 GB) has 200 Gbit left and 400G to itself: 0.5 s more, done at 1.5 s.
        Simulation sim = new Simulation(plan, new EcmpHasher(1));
        sim.addFlow(flow("a", "leaf1-nic1", "leaf2-nic1", Routing.ecmp(49152), 25 * GB, 0));
        sim.addFlow(flow("b", "leaf1-nic2", "leaf2-nic1", Routing.ecmp(49153), 50 * GB, 0));
        sim.runUntil(0.5);
        assertThat(sim.rateGbps("a")).isCloseTo(200, within(1e-9));
        assertThat(sim.rateGbps("b")).isCloseTo(200, within(1e-9));
        sim.run();
        assertThat(sim.result("a").finishS()).isCloseTo(1.0, within(1e-9));
        assertThat(sim.result("b").finishS()).isCloseTo(1.5, within(1e-9));
        assertThat(sim.result("b").state()).isEqualTo(FlowResult.State.DONE);
    }

    @Test
    void aLateArrivalSlowsTheFirstFlowUntilItLeaves() throws Exception {
        // a: 50 GB alone at 400G from 0. b (12.5 GB = 100 Gbit) arrives at 0.5 s: a has 200 Gbit left,
        // both at 200G: b is done at 1.0 s, a then has 100 Gbit left at 400G: done at 1.25 s.
        Simulation sim = new Simulation(plan, new EcmpHasher(1));
        sim.addFlow(flow("a", "leaf1-nic1", "leaf2-nic1", Routing.ecmp(49152), 50 * GB, 0));
        sim.addFlow(flow("b", "leaf1-nic2", "leaf2-nic1", Routing.ecmp(49153), 12.5 * GB, 0.5));
        sim.run();
        assertThat(sim.result("b").finishS()).isCloseTo(1.0, within(1e-9));
        assertThat(sim.result("b").fctS()).isCloseTo(0.5, within(1e-9));
        assertThat(sim.result("a").finishS()).isCloseTo(1.25, within(1e-9));
        assertThat(sim.recomputations()).isEqualTo(4); // start, arrival, b done, a done
    }

    @Test
    void aSteeredFlowStallsWhileItsLinkIsDownAndResumesAfter() throws Exception {
        // 50 GB over spine1 at 400G: 100 Gbit sent by 0.25 s, when leaf1-spine1 fails; stalled until
        // 0.75 s; the other 300 Gbit take 0.75 s: done at 1.5 s.
        Simulation sim = new Simulation(plan, new EcmpHasher(1));
        var path = TestFabrics.path(plan, "leaf1-nic1", "leaf1", "spine1", "leaf2", "leaf2-nic1");
        sim.addFlow(flow("a", "leaf1-nic1", "leaf2-nic1",
                Routing.srv6(TestFabrics.encode(plan, path).carriers()), 50 * GB, 0));
        sim.schedule(LinkEvent.fail(0.25, "leaf1-spine1"));
        sim.schedule(LinkEvent.restore(0.75, "leaf1-spine1"));
        sim.runUntil(0.5);
        assertThat(sim.result("a").state()).isEqualTo(FlowResult.State.STALLED);
        assertThat(sim.result("a").remainingBytes()).isCloseTo(37.5 * GB, within(1.0));
        sim.run();
        assertThat(sim.result("a").finishS()).isCloseTo(1.5, within(1e-9));
    }

    @Test
    void throttlingAndBackgroundLoadShrinkWhatTheFlowGets() throws Exception {
        // 50 GB over spine2. At 0.5 s (200 Gbit sent) leaf2-spine2 is throttled to 25 % (100G): the other
        // 200 Gbit take 2 s, done at 2.5 s. A second flow over spine1 sees 300G of background on
        // spine1->leaf2 from 0: it gets 100G, so 12.5 GB take exactly 1 s.
        Simulation sim = new Simulation(plan, new EcmpHasher(1));
        var viaSpine2 = TestFabrics.path(plan, "leaf1-nic1", "leaf1", "spine2", "leaf2", "leaf2-nic1");
        var viaSpine1 = TestFabrics.path(plan, "leaf1-nic2", "leaf1", "spine1", "leaf2", "leaf2-nic2");
        sim.addFlow(flow("a", "leaf1-nic1", "leaf2-nic1",
                Routing.srv6(TestFabrics.encode(plan, viaSpine2).carriers()), 50 * GB, 0));
        Integer ev = TestFabrics.encode(plan, viaSpine1).ev();
        assertThat(ev).isNotNull();
        sim.addFlow(flow("b", "leaf1-nic2", "leaf2-nic2", Routing.ev(ev), 12.5 * GB, 0));
        sim.schedule(LinkEvent.throttle(0.5, "leaf2-spine2", 0.25));
        sim.schedule(LinkEvent.background(0, "leaf2-spine1", "spine1", 300));
        sim.run();
        assertThat(sim.result("b").finishS()).isCloseTo(1.0, within(1e-9));
        assertThat(sim.result("a").finishS()).isCloseTo(2.5, within(1e-9));
    }

    @Test
    void anEcmpFlowHashesAroundAFailedUplink() throws Exception {
        Simulation sim = new Simulation(plan, new EcmpHasher(3));
        sim.addFlow(FlowSpec.persistent("a", "leaf1-nic1", "leaf2-nic1", Routing.ecmp(49152)));
        sim.runUntil(0.1);
        String spine = sim.result("a").route().get(1).to();
        String uplink = "leaf1-" + spine;
        sim.schedule(LinkEvent.fail(0.2, uplink));
        sim.runUntil(0.3);
        FlowResult r = sim.result("a");
        assertThat(r.state()).isEqualTo(FlowResult.State.ACTIVE);
        assertThat(r.route().get(1).to()).isNotEqualTo(spine);
        assertThat(r.rateGbps()).isCloseTo(400, within(1e-9));
    }

    @Test
    void rerouteMovesAStalledFlowOntoAWorkingPath() throws Exception {
        Simulation sim = new Simulation(plan, new EcmpHasher(1));
        var viaSpine1 = TestFabrics.path(plan, "leaf1-nic1", "leaf1", "spine1", "leaf2", "leaf2-nic1");
        var viaSpine2 = TestFabrics.path(plan, "leaf1-nic1", "leaf1", "spine2", "leaf2", "leaf2-nic1");
        sim.addFlow(flow("a", "leaf1-nic1", "leaf2-nic1",
                Routing.srv6(TestFabrics.encode(plan, viaSpine1).carriers()), 50 * GB, 0));
        sim.schedule(LinkEvent.fail(0, "leaf2-spine1"));
        sim.runUntil(0.5);
        assertThat(sim.result("a").state()).isEqualTo(FlowResult.State.STALLED);
        sim.reroute("a", Routing.srv6(TestFabrics.encode(plan, viaSpine2).carriers()));
        sim.run();
        assertThat(sim.result("a").finishS()).isCloseTo(1.5, within(1e-9));
        assertThat(sim.result("a").route()).isEqualTo(viaSpine2);
    }

    @Test
    void badFlowsAreRefusedNamingTheField() {
        Simulation sim = new Simulation(plan, new EcmpHasher(1));
        assertThatThrownBy(() -> sim.addFlow(flow("x", "leaf1-nic9", "leaf2-nic1", Routing.ecmp(1), GB, 0)))
                .hasMessageStartingWith("src: \"leaf1-nic9\" is not a NIC");
        assertThatThrownBy(() -> sim.addFlow(flow("x", "leaf1-nic1", "leaf2-nic1",
                Routing.srv6(List.of("fcbb:bb00:63::")), GB, 0)))
                .hasMessageStartingWith("carriers: flow \"x\" does not walk");
        assertThatThrownBy(() -> sim.schedule(LinkEvent.fail(1, "nope"))).hasMessageStartingWith("link: no link");
    }

    private static FlowSpec flow(String id, String src, String dst, Routing r, double bytes, double startS) {
        return new FlowSpec(id, src, dst, "default", r, bytes, startS, Double.POSITIVE_INFINITY);
    }
}
