package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.weft.contracts.LinkState;
import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.lab.fabric.RailGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.plan.walk.ForwardingWalk;
import org.junit.jupiter.api.Test;

/**
 * Multi-plane NICs: on the evaluation's two-plane rail fabric (32 servers x 4 rails, 8 per group,
 * 4 spines per plane; every NIC has one port per plane and the planes do not interconnect) the
 * engine starts paths at every working port of the source and ends them at the destination's port
 * in the same plane. Line-rate flows on 400G links put at least one flow on a link, so max load 1 is
 * the integral bound (and the splittable LP's too: each leaf's eight NICs send about eight flows out
 * over its 2 x 4 uplinks); one plane alone gives 2.
 */
class MultiPlaneTest {
    static Fabric twoPlaneRail() {
        return RailGenerator.generate(new RailGenerator.Params("rail-32x4-2pl", 32, 4, 8, 4, 2, 400, 400, 100, 500));
    }

    /** Ring over every NIC in a seeded random rank order (one ring per rail), as the evaluation runs it. */
    static Job ring(DenseFabric ix, long seed) throws PlacementException {
        List<String> nics = Fixtures.nics(ix.fabric());
        Collections.shuffle(nics, new Random(seed));
        return Patterns.expand(JobSpec.of("ring", "ring", nics, 400), ix, 1 << 20);
    }

    /** Rank i sends to rank i + n/2 of a seeded random order: a derangement over every NIC. */
    static Job permutation(DenseFabric ix, long seed) throws PlacementException {
        List<String> nics = Fixtures.nics(ix.fabric());
        Collections.shuffle(nics, new Random(seed));
        List<JobSpec.FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < nics.size(); i++) {
            flows.add(new JobSpec.FlowSpec(nics.get(i), nics.get((i + nics.size() / 2) % nics.size()), 0));
        }
        return Patterns.expand(new JobSpec("perm", "default", "explicit", List.of(), 400, 1, 0, "given", flows), ix,
                1 << 20);
    }

    static int plane(Arc nicArc) {
        String id = nicArc.link().id();
        return id.charAt(id.length() - 1) - '0';
    }

    private static void assertBothPlanesAtTheBound(DenseFabric ix, PlacementResult r) {
        assertThat(r.unplaced()).isEmpty();
        assertThat(r.quality().maxLoad()).isEqualTo(1.0);
        int[] perPlane = new int[3];
        for (PlacedFlow pf : r.placed()) {
            Fixtures.assertValidWalk(ix, pf);
            int src = plane(pf.path().get(0));
            // Source port, every switch and the destination port in one plane.
            assertThat(plane(pf.path().get(pf.path().size() - 1))).as(pf.flow().id()).isEqualTo(src);
            for (int i = 1; i < pf.path().size(); i++) {
                assertThat(pf.path().get(i).from()).as(pf.flow().id()).startsWith("pl" + src + "-");
            }
            perPlane[src]++;
        }
        assertThat(perPlane[1]).isPositive();
        assertThat(perPlane[2]).isPositive();
    }

    @Test
    void ringAndPermutationUseBothPlanesAndReachLoadOne() throws Exception {
        Fabric f = twoPlaneRail();
        for (long seed : new long[] {5, 11, 23}) {
            PlacementEngine ringEngine = Fixtures.engine(f);
            assertBothPlanesAtTheBound(ringEngine.index(), ringEngine.add(ring(ringEngine.index(), seed)));
            PlacementEngine permEngine = Fixtures.engine(f);
            assertBothPlanesAtTheBound(permEngine.index(), permEngine.add(permutation(permEngine.index(), seed)));
        }
    }

    @Test
    void theExactAssignmentSpreadsEveryLeafOverBothPlanesAtCeilOfDegreeOverUplinks() throws Exception {
        DenseFabric ix = DenseFabric.of(twoPlaneRail());
        List<String> nics = Fixtures.nics(ix.fabric());
        Random rnd = new Random(7);
        // Permutations (degree <= 8 per group-rail: 1 per uplink of 2 planes x 4 spines), then k flows
        // per NIC (degree 8k: k per uplink), each time straight from the edge colouring.
        for (int perNic = 1; perNic <= 3; perNic++) {
            for (int trial = 0; trial < 10; trial++) {
                List<String> dst = new ArrayList<>(nics);
                IntList src = new IntList();
                IntList to = new IntList();
                for (int k = 0; k < perNic; k++) {
                    Collections.shuffle(dst, rnd);
                    for (int i = 0; i < nics.size(); i++) {
                        if (!nics.get(i).equals(dst.get(i))) {
                            src.add(ix.node(nics.get(i)));
                            to.add(ix.node(dst.get(i)));
                        }
                    }
                }
                double[] demand = new double[src.size()];
                java.util.Arrays.fill(demand, 400);
                int[][] paths = ClosExact.assign(ix, src.toArray(), to.toArray(), demand);
                assertThat(paths).as("per NIC %d, trial %d", perNic, trial).isNotNull();
                int[] uses = new int[ix.arcCount()];
                int[] perPlane = new int[3];
                for (int i = 0; i < paths.length; i++) {
                    int at = src.get(i);
                    for (int arc : paths[i]) {
                        assertThat(ix.from(arc)).isEqualTo(at);
                        at = ix.to(arc);
                        if (ix.role(ix.from(arc)).isSwitch() && ix.role(ix.to(arc)).isSwitch()) {
                            uses[arc]++;
                        }
                    }
                    assertThat(at).isEqualTo(to.get(i));
                    perPlane[plane(ix.arc(paths[i][0]))]++;
                }
                assertThat(java.util.Arrays.stream(uses).max().getAsInt()).isLessThanOrEqualTo(perNic);
                assertThat(perPlane[1]).isPositive();
                assertThat(perPlane[2]).isPositive();
            }
        }
    }

    @Test
    void aJobOnHomePortsOnlyKeepsToThemAndGetsAnEvForEveryFlow() throws Exception {
        Fabric f = twoPlaneRail();
        FabricPlan plan = Planner.plan(f, null);
        PlacementEngine e = new PlacementEngine(DenseFabric.of(f), new PlanFlowEncoder(plan), PlacementConfig.DEFAULTS);
        PlacementResult r = e.add(permutation(e.index(), 11).withHomePortsOnly(true));
        assertThat(r.unplaced()).isEmpty();
        for (PlacedFlow pf : r.placed()) {
            assertThat(plane(pf.path().get(0))).as(pf.flow().id()).isEqualTo(1);
            assertThat(pf.encoding().ev()).as(pf.flow().id()).isNotNull();
        }
        // One plane's bound (2 flows per uplink somewhere), and a later job may still use both planes.
        assertThat(r.quality().maxLoad()).isEqualTo(2.0);
        PlacementResult next = e.add(ringOf(e.index(), 5, "ring2"));
        assertThat(next.placed().stream().filter(pf -> plane(pf.path().get(0)) == 2)).isNotEmpty();
    }

    static Job ringOf(DenseFabric ix, long seed, String name) throws PlacementException {
        List<String> nics = Fixtures.nics(ix.fabric());
        Collections.shuffle(nics, new Random(seed));
        return Patterns.expand(JobSpec.of(name, "ring", nics, 400), ix, 1 << 20);
    }

    @Test
    void theGreedyAloneAlsoUsesBothPlanes() throws Exception {
        // Without the exact assignment the heuristic must still find the second plane by itself.
        Fabric f = twoPlaneRail();
        PlacementEngine e = new PlacementEngine(DenseFabric.of(f), Fixtures.FAKE,
                PlacementConfig.DEFAULTS.withExactClos(false));
        PlacementResult r = e.add(permutation(e.index(), 5));
        assertThat(r.unplaced()).isEmpty();
        assertThat(r.quality().maxLoad()).isLessThanOrEqualTo(2.0);
        assertThat(r.placed().stream().filter(pf -> plane(pf.path().get(0)) == 2)).isNotEmpty();
    }

    @Test
    void aFailedPlaneOneUplinkMovesItsFlowsToPlaneTwo() throws Exception {
        Fabric f = twoPlaneRail();
        PlacementEngine e = Fixtures.engine(f);
        PlacementResult first = e.add(ring(e.index(), 5));
        PlacedFlow victim = first.placed().stream().filter(pf -> plane(pf.path().get(0)) == 1).findFirst()
                .orElseThrow();
        String nicLink = victim.path().get(0).link().id();
        // A NIC's plane-1 port fails, and so does a plane-1 leaf's uplink some other flow crosses.
        PlacedFlow crossing = first.placed().stream().filter(pf -> pf.path().size() == 4
                && plane(pf.path().get(0)) == 1 && !pf.flow().id().equals(victim.flow().id())).findFirst()
                .orElseThrow();
        String leafUplink = crossing.path().get(1).link().id();
        PlacementResult r = e.updateLinkStates(Map.of(nicLink, LinkState.DOWN, leafUplink, LinkState.DOWN));
        assertThat(r.unplaced()).isEmpty();
        assertThat(r.moved()).contains(victim.flow().id(), crossing.flow().id());
        PlacedFlow now = e.placed(victim.flow().id());
        assertThat(plane(now.path().get(0))).isEqualTo(2);
        assertThat(plane(now.path().get(now.path().size() - 1))).isEqualTo(2);
        for (String id : List.of(victim.flow().id(), crossing.flow().id())) {
            Fixtures.assertValidWalk(e.index(), e.placed(id));
        }
        // Only the affected flows moved (other flows stay put), so they may share an uplink of a
        // full plane-2 leaf; never more than that.
        assertThat(r.quality().maxLoad()).isLessThanOrEqualTo(2.0);
        // Exactly the flows on the two links moved (the NIC link carries one flow out and one in).
        List<String> onThem = first.placed().stream().filter(pf -> pf.path().stream()
                .anyMatch(a -> a.link().id().equals(nicLink) || a.link().id().equals(leafUplink)))
                .map(pf -> pf.flow().id()).toList();
        assertThat(r.placed()).extracting(pf -> pf.flow().id()).containsExactlyInAnyOrderElementsOf(onThem);
    }

    @Test
    void everyPathFromEitherPortIsProvenByTheForwardingWalk() throws Exception {
        Fabric f = twoPlaneRail();
        FabricPlan plan = Planner.plan(f, null);
        PlacementEngine e = new PlacementEngine(DenseFabric.of(f), new PlanFlowEncoder(plan), PlacementConfig.DEFAULTS);
        PlacementResult r = e.add(permutation(e.index(), 11));
        assertThat(r.unplaced()).isEmpty();
        int second = 0;
        int secondWithEv = 0;
        for (PlacedFlow pf : r.placed()) {
            List<Arc> walked = ForwardingWalk.walkCarriers(plan, pf.flow().srcNic(), pf.flow().dstNic(),
                    pf.encoding().carriers(), "default");
            assertThat(walked).as(pf.flow().id()).isEqualTo(pf.path());
            String port = pf.path().get(0).link().id();
            if (plane(pf.path().get(0)) == 2) {
                second++;
                // EV routing reaches the second plane too: the EV sent out that port walks the path,
                // with EV1 from the second port's window (no plane-1 path shares the source port).
                assertThat(pf.encoding().ev()).as(pf.flow().id()).isNotNull();
                assertThat(pf.encoding().ev() >>> 8).isBetween(0x80, 0xBF);
                secondWithEv++;
            }
            if (pf.encoding().ev() != null) {
                assertThat(ForwardingWalk.walkEv(plan, pf.flow().srcNic(), pf.flow().dstNic(), pf.encoding().ev(),
                        "default", port)).isEqualTo(pf.path());
            }
        }
        assertThat(second).isPositive();
        assertThat(secondWithEv).isEqualTo(second);
    }
}
