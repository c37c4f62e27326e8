package io.weft.simulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.weft.fabric.Arc;
import io.weft.lab.fabric.DragonflyGenerator;
import io.weft.lab.fabric.SlimFlyGenerator;
import io.weft.plan.FabricPlan;
import org.junit.jupiter.api.Test;

/** UGAL-L against minimal ECMP on a small Dragonfly: adversarial and uniform traffic, determinism, valid walks. */
class UgalLTest {
    private static final FabricPlan DRAGONFLY = TestFabrics.plan(
            DragonflyGenerator.generate(DragonflyGenerator.Params.of(2, 4, 2)));

    /** What one run gives: the most flows on one arc, the slowest rate, and how many flows left the minimal path. */
    record Outcome(int maxFlows, double slowestGbps, int nonMinimal, List<int[]> routes) {
    }

    /**
     * Every NIC of group g sends to the NIC in the same place of group g+1 (of 9 groups): most minimal
     * routes share the one global link between the two groups (the rest take two global hops).
     */
    private static List<String[]> adversarial(FabricPlan plan) {
        List<String[]> pairs = new ArrayList<>();
        for (String nic : plan.nics()) {
            int g = Integer.parseInt(nic.substring(1, nic.indexOf('-')));
            int groups = 9;
            pairs.add(new String[] {nic, "g" + (g % groups + 1) + nic.substring(nic.indexOf('-'))});
        }
        return pairs;
    }

    /** A random permutation of the NICs (uniform random traffic, one flow per NIC each way). */
    private static List<String[]> uniform(FabricPlan plan, long seed) {
        List<String> dst = new ArrayList<>(plan.nics());
        java.util.Collections.shuffle(dst, new Random(seed));
        List<String[]> pairs = new ArrayList<>();
        for (int i = 0; i < dst.size(); i++) {
            if (!plan.nics().get(i).equals(dst.get(i))) {
                pairs.add(new String[] {plan.nics().get(i), dst.get(i)});
            }
        }
        return pairs;
    }

    private static Outcome run(FabricPlan plan, List<String[]> pairs, boolean ugal, long seed, List<String> failed)
            throws Exception {
        Simulation sim = new Simulation(plan, new EcmpHasher(seed));
        Simulation minimal = new Simulation(plan, new EcmpHasher(seed));
        for (String l : failed) {
            sim.schedule(LinkEvent.fail(0, l));
            minimal.schedule(LinkEvent.fail(0, l));
        }
        Random r = new Random(seed);
        for (int i = 0; i < pairs.size(); i++) {
            int port = 0xC000 + r.nextInt(0x4000);
            sim.addFlow(new FlowSpec("f" + i, pairs.get(i)[0], pairs.get(i)[1], "default",
                    ugal ? Routing.ugalL(port) : Routing.ecmp(port), Double.POSITIVE_INFINITY, 0, 400));
            minimal.addFlow(new FlowSpec("f" + i, pairs.get(i)[0], pairs.get(i)[1], "default", Routing.ecmp(port),
                    Double.POSITIVE_INFINITY, 0, 400));
        }
        sim.runUntil(0);
        minimal.runUntil(0);
        int[] flowsOn = new int[sim.arcs().size()];
        double slowest = Double.POSITIVE_INFINITY;
        int nonMinimal = 0;
        List<int[]> routes = new ArrayList<>();
        for (int i = 0; i < pairs.size(); i++) {
            int[] route = sim.routeArcs("f" + i);
            assertNotNull(route, "flow f" + i + " has a route");
            routes.add(route);
            for (int a : route) {
                flowsOn[a]++;
            }
            slowest = Math.min(slowest, sim.rateGbps("f" + i));
            nonMinimal += java.util.Arrays.equals(route, minimal.routeArcs("f" + i)) ? 0 : 1;
        }
        return new Outcome(java.util.Arrays.stream(flowsOn).max().orElse(0), slowest, nonMinimal, routes);
    }

    @Test
    void adversarialTrafficOnADragonflyGoesNonMinimalAndBeatsMinimalEcmp() throws Exception {
        // Eight NICs per router: 32 flows per group pair, enough load for the local outputs to see it.
        FabricPlan dragonfly = TestFabrics.plan(DragonflyGenerator.generate(DragonflyGenerator.Params.of(8, 4, 2)));
        List<String[]> pairs = adversarial(dragonfly);
        for (long seed = 1; seed <= 5; seed++) {
            Outcome ecmp = run(dragonfly, pairs, false, seed, List.of());
            Outcome ugal = run(dragonfly, pairs, true, seed, List.of());
            // Minimal: the 8 flows of a group share its one global link to the next group.
            assertTrue(ugal.maxFlows() < ecmp.maxFlows(), "seed " + seed + ": UGAL-L's busiest arc carries "
                    + ugal.maxFlows() + " flows, minimal ECMP's " + ecmp.maxFlows());
            assertTrue(ugal.slowestGbps() > ecmp.slowestGbps(), "seed " + seed + ": slowest "
                    + ugal.slowestGbps() + " vs " + ecmp.slowestGbps());
            assertTrue(ugal.nonMinimal() > pairs.size() / 5, "seed " + seed + ": " + ugal.nonMinimal()
                    + " adversarial flows take a Valiant route");
        }
    }

    @Test
    void uniformTrafficStaysMostlyMinimal() throws Exception {
        for (long seed = 1; seed <= 5; seed++) {
            List<String[]> pairs = uniform(DRAGONFLY, seed);
            Outcome ugal = run(DRAGONFLY, pairs, true, seed, List.of());
            // About a quarter leave it here (a random permutation is not free of hot spots either).
            assertTrue(ugal.nonMinimal() < pairs.size() / 3, "seed " + seed + ": " + ugal.nonMinimal() + " of "
                    + pairs.size() + " uniform flows left the minimal route");
        }
    }

    @Test
    void theSameSeedGivesTheSameRoutesAndAnotherSeedOthers() throws Exception {
        List<String[]> pairs = adversarial(DRAGONFLY);
        Outcome a = run(DRAGONFLY, pairs, true, 7, List.of());
        Outcome b = run(DRAGONFLY, pairs, true, 7, List.of());
        Outcome c = run(DRAGONFLY, pairs, true, 8, List.of());
        boolean differs = false;
        for (int i = 0; i < pairs.size(); i++) {
            assertArrayEquals(a.routes().get(i), b.routes().get(i));
            differs |= !java.util.Arrays.equals(a.routes().get(i), c.routes().get(i));
        }
        assertTrue(differs, "another seed picks other intermediates");
    }

    @Test
    void routesAreWalksOverWorkingFabricLinksWithFailures() throws Exception {
        FabricPlan slimFly = TestFabrics.plan(SlimFlyGenerator.generate(SlimFlyGenerator.Params.of(5)));
        for (FabricPlan plan : List.of(DRAGONFLY, slimFly)) {
            List<String> switchLinks = new ArrayList<>();
            for (io.weft.fabric.Link l : plan.fabric().links()) {
                if (plan.fabric().node(l.a().node()).role().isSwitch()
                        && plan.fabric().node(l.b().node()).role().isSwitch()) {
                    switchLinks.add(l.id());
                }
            }
            java.util.Collections.shuffle(switchLinks, new Random(3));
            List<String> failed = switchLinks.subList(0, switchLinks.size() / 20);
            List<String[]> pairs = plan == DRAGONFLY ? adversarial(plan) : uniform(plan, 4);
            Outcome ugal = run(plan, pairs, true, 5, failed);
            ArcTable arcs = new ArcTable(plan.fabric());
            for (int i = 0; i < pairs.size(); i++) {
                int[] route = ugal.routes().get(i);
                Arc first = arcs.arc(route[0]);
                Arc last = arcs.arc(route[route.length - 1]);
                assertEquals(pairs.get(i)[0], first.from());
                assertEquals(pairs.get(i)[1], last.to());
                java.util.Set<Integer> seen = new java.util.HashSet<>();
                for (int k = 0; k < route.length; k++) {
                    Arc arc = arcs.arc(route[k]);
                    assertFalse(failed.contains(arc.link().id()), "flow f" + i + " crosses failed " + arc.link().id());
                    assertTrue(seen.add(route[k]), "flow f" + i + " crosses one link direction twice");
                    if (k > 0) {
                        assertEquals(arcs.arc(route[k - 1]).to(), arc.from(), "flow f" + i + " hop " + k);
                    }
                }
            }
        }
    }
}
