package io.weft.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.weft.fabric.Arc;
import io.weft.plan.FabricPlan;
import org.junit.jupiter.api.Test;

class EcmpHashTest {
    private final FabricPlan fatTree = TestFabrics.fatTree(4);

    @Test
    void theSameSeedGivesTheSameRoutesAndAnotherSeedOtherOnes() throws Exception {
        List<String> nics = fatTree.nics();
        Simulation a = simulation(11);
        Simulation b = simulation(11);
        Simulation c = simulation(12);
        Random r = new Random(5);
        int differ = 0;
        for (int i = 0; i < 300; i++) {
            String src = nics.get(r.nextInt(nics.size()));
            String dst = nics.get(r.nextInt(nics.size()));
            if (src.equals(dst)) {
                continue;
            }
            Routing routing = Routing.ecmp(49152 + r.nextInt(16384));
            for (Simulation s : List.of(a, b, c)) {
                s.addFlow(FlowSpec.persistent("f" + i, src, dst, routing));
                s.runUntil(s.now());
            }
            assertThat(a.routeArcs("f" + i)).as("flow %d", i).containsExactly(b.routeArcs("f" + i));
            differ += java.util.Arrays.equals(a.routeArcs("f" + i), c.routeArcs("f" + i)) ? 0 : 1;
        }
        assertThat(differ).as("routes changed by another fabric seed").isGreaterThan(50);
    }

    @Test
    void routesAreShortestPathsBetweenTheRightNics() throws Exception {
        Simulation s = simulation(3);
        List<String> nics = fatTree.nics();
        for (int i = 0; i < nics.size(); i++) {
            String src = nics.get(i);
            String dst = nics.get((i + 7) % nics.size());
            s.addFlow(FlowSpec.persistent("f" + i, src, dst, Routing.ecmp(50000 + i)));
        }
        s.runUntil(0);
        for (int i = 0; i < nics.size(); i++) {
            List<Arc> route = s.result("f" + i).route();
            String src = nics.get(i);
            String dst = nics.get((i + 7) % nics.size());
            assertThat(route.get(0).from()).isEqualTo(src);
            assertThat(route.get(route.size() - 1).to()).isEqualTo(dst);
            String srcLeaf = fatTree.attachment(src).to();
            String dstLeaf = fatTree.attachment(dst).to();
            assertThat(route).hasSize(fatTree.distance(srcLeaf, dstLeaf) + 2);
            for (int k = 1; k < route.size(); k++) {
                assertThat(route.get(k).from()).isEqualTo(route.get(k - 1).to());
            }
        }
    }

    @Test
    void afterADownlinkFailsEcmpAvoidsTheSpineThatCanNoLongerReachTheLeaf() throws Exception {
        // p2-spine1's only way down to p2-leaf1 fails. A converged underlay stops sending p2-leaf1's
        // traffic into plane 1 at all (it would need a detour), so every flow crosses p2-spine2.
        String down = fatTree.fabric().links().stream()
                .filter(l -> l.touches("p2-spine1") && l.touches("p2-leaf1")).findFirst().orElseThrow().id();
        Simulation s = simulation(5);
        s.schedule(LinkEvent.fail(0, down));
        for (int i = 0; i < 64; i++) {
            s.addFlow(FlowSpec.persistent("f" + i, "p1-leaf1-nic1", "p2-leaf1-nic1", Routing.ecmp(0xC000 + i)));
        }
        s.runUntil(0);
        for (int i = 0; i < 64; i++) {
            FlowResult r = s.result("f" + i);
            assertThat(r.state()).isEqualTo(FlowResult.State.ACTIVE);
            assertThat(r.route()).hasSize(6).noneMatch(a -> a.to().equals("p2-spine1"));
        }
    }

    @Test
    void sourcePortsSpreadEvenlyOverTheNextHops() throws Exception {
        // One NIC, 8,000 RoCEv2 flows with random source ports to a NIC on another leaf of a 4-spine fabric:
        // each spine should get 2,000 +- a few standard deviations (sd ~ 39); chi-square with 3 degrees of
        // freedom stays under 16.3 (p = 0.001) for a uniform hash.
        FabricPlan plan = TestFabrics.leafSpine(2, 4, 1);
        Simulation s = new Simulation(plan, new EcmpHasher(99));
        Random r = new Random(1);
        for (int i = 0; i < 8000; i++) {
            s.addFlow(FlowSpec.persistent("f" + i, "leaf1-nic1", "leaf2-nic1", Routing.ecmp(1 + r.nextInt(65535))));
        }
        s.runUntil(0);
        Map<String, Integer> perSpine = new HashMap<>();
        for (int i = 0; i < 8000; i++) {
            perSpine.merge(s.result("f" + i).route().get(1).to(), 1, Integer::sum);
        }
        assertThat(perSpine).hasSize(4);
        double chi2 = 0;
        for (int n : perSpine.values()) {
            assertThat(n).isBetween(1800, 2200);
            chi2 += (n - 2000.0) * (n - 2000.0) / 2000.0;
        }
        assertThat(chi2).isLessThan(16.3);
    }

    @Test
    void pinningOneSwitchSeedChangesOnlyThatSwitchsChoices() {
        byte[] tuple = FiveTuple.rocev2("fd00:ef7::1", "fd00:ef7::2", 49152).bytes();
        EcmpHasher h = new EcmpHasher(1).withSeed("leaf1", 12345);
        assertThat(h.seed("leaf1")).isEqualTo(12345);
        assertThat(h.seed("leaf2")).isEqualTo(new EcmpHasher(1).seed("leaf2"));
        assertThat(h.pick("leaf1", tuple, 8)).isEqualTo(EcmpHasher.pick(12345, tuple, 8));
        int changed = 0;
        for (int seed = 0; seed < 64; seed++) {
            changed += EcmpHasher.pick(seed, tuple, 8) == EcmpHasher.pick(0, tuple, 8) ? 0 : 1;
        }
        assertThat(changed).as("other seeds pick other members").isGreaterThan(40);
    }

    @Test
    void theTupleIsHashedInHeaderByteOrder() {
        byte[] b = new FiveTuple("2001:db8::1", "2001:db8::2", 17, 0xC001, 4791).bytes();
        assertThat(b).hasSize(37);
        assertThat(b[0]).isEqualTo((byte) 0x20);
        assertThat(b[1]).isEqualTo((byte) 0x01);
        assertThat(b[15]).isEqualTo((byte) 1);
        assertThat(b[31]).isEqualTo((byte) 2);
        assertThat(b[32]).isEqualTo((byte) 17);
        assertThat(new byte[] {b[33], b[34], b[35], b[36]})
                .containsExactly((byte) 0xC0, (byte) 0x01, (byte) 0x12, (byte) 0xB7);
    }

    private Simulation simulation(long seed) {
        return new Simulation(fatTree, new EcmpHasher(seed));
    }

    @Test
    void aNicWithOnePortPerPlaneHashesItsFlowsOverThePlanesAndStaysInOne() throws Exception {
        // Two servers, one rail, two planes: each plane is g1-rail1 - spine1 - g2-rail1 on its own.
        FabricPlan twoPlanes = io.weft.plan.Planner.plan(io.weft.lab.fabric.RailGenerator.generate(
                new io.weft.lab.fabric.RailGenerator.Params(null, 2, 1, 1, 1, 2, 400, 400, 100, 500)), null);
        Simulation s = new Simulation(twoPlanes, new EcmpHasher(1));
        for (int i = 0; i < 64; i++) {
            s.addFlow(FlowSpec.persistent("f" + i, "srv1-nic1", "srv2-nic1", Routing.ecmp(49152 + i)));
        }
        s.runUntil(0);
        Map<String, Integer> byPlane = new HashMap<>();
        for (int i = 0; i < 64; i++) {
            List<Arc> route = s.result("f" + i).route();
            assertThat(route).hasSize(4);
            String plane = route.get(1).from().substring(0, 4); // pl1- or pl2-
            assertThat(route.subList(1, 4)).allMatch(a -> a.from().startsWith(plane));
            assertThat(route.get(3).to()).isEqualTo("srv2-nic1");
            byPlane.merge(plane, 1, Integer::sum);
        }
        assertThat(byPlane).containsOnlyKeys("pl1-", "pl2-");
        assertThat(byPlane.values()).allMatch(n -> n >= 16);
        // Plane 1's spine link down: every flow hashes over the NIC's other port.
        Simulation down = new Simulation(twoPlanes, new EcmpHasher(1));
        down.schedule(LinkEvent.fail(0, "pl1-g1-rail1-spine1"));
        for (int i = 0; i < 16; i++) {
            down.addFlow(FlowSpec.persistent("f" + i, "srv1-nic1", "srv2-nic1", Routing.ecmp(49152 + i)));
        }
        down.runUntil(0);
        for (int i = 0; i < 16; i++) {
            assertThat(down.result("f" + i).route()).as("flow %d", i).isNotNull();
        }
    }
}
