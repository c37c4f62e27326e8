package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import org.junit.jupiter.api.Test;

/**
 * Seeded random fabrics, link failures and jobs: every path is a valid walk over up links, the
 * per-arc reservations equal the sum of the flows on them, release restores the exact previous
 * state, and the same input gives the same placement.
 */
class PlacementPropertyTest {
    private static final String[] PATTERNS = {"ring", "tree", "all-to-all", "pipeline"};

    static Fabric randomFabric(Random rnd) {
        switch (rnd.nextInt(4)) {
            case 0:
                return Fixtures.leafSpine(2 + rnd.nextInt(6), 1 + rnd.nextInt(4), 1 + rnd.nextInt(4));
            case 1:
                return Fixtures.fatTree(4 + 2 * rnd.nextInt(2));
            case 2:
                return Fixtures.dragonfly(1 + rnd.nextInt(2), 2 + rnd.nextInt(2), 1 + rnd.nextInt(2));
            default:
                return io.weft.lab.fabric.SlimFlyGenerator.generate(io.weft.lab.fabric.SlimFlyGenerator.Params.of(5));
        }
    }

    static Map<String, LinkState> randomFailures(Fabric f, Random rnd, double fraction) {
        Map<String, LinkState> m = new LinkedHashMap<>();
        for (Link l : f.links()) {
            if (rnd.nextDouble() < fraction) {
                m.put(l.id(), rnd.nextBoolean() ? LinkState.DOWN : LinkState.DRAINED);
            }
        }
        return m;
    }

    static JobSpec randomJob(String name, List<String> nics, Random rnd) {
        List<String> eps = new ArrayList<>(nics);
        Collections.shuffle(eps, rnd);
        eps = eps.subList(0, Math.min(eps.size(), 2 + rnd.nextInt(Math.min(12, eps.size() - 1))));
        double demand = 10 + rnd.nextInt(40) * 10;
        return JobSpec.of(name, PATTERNS[rnd.nextInt(PATTERNS.length)], eps, demand)
                .withSlices(1 + rnd.nextInt(3)).withOrder(rnd.nextBoolean() ? "auto" : "given");
    }

    /** Reservations recomputed from the placed flows, in kbit/s per arc. */
    static long[] expectedLoads(PlacementEngine e) {
        long[] exp = new long[e.index().arcCount()];
        for (String job : e.jobIds()) {
            for (PlacedFlow pf : e.placedFlows(job)) {
                for (int a : e.pathArcs(pf.flow().id())) {
                    exp[a] += Math.max(1, Math.round(pf.flow().demandGbps() * 1e6));
                }
            }
        }
        return exp;
    }

    /** The engine's incrementally kept max load and collision count equal a recount from the arcs. */
    static void assertQualityMatchesArcs(PlacementEngine e) {
        DenseFabric ix = e.index();
        double[] load = e.arcLoadsGbps();
        int[] el = e.arcElephants();
        double max = 0;
        int coll = 0;
        for (int a = 0; a < load.length; a++) {
            max = Math.max(max, load[a] / ix.capacityGbps(a));
            boolean fabricArc = ix.role(ix.from(a)).isSwitch() && ix.role(ix.to(a)).isSwitch();
            if (fabricArc && el[a] > e.config().elephantTolerance()) {
                coll++;
            }
        }
        assertThat(e.quality().maxLoad()).isCloseTo(max, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(e.quality().collisions()).isEqualTo(coll);
    }

    @Test
    void randomFabricsAndJobsKeepTheInvariants() throws Exception {
        Random rnd = new Random(2026);
        for (int trial = 0; trial < 60; trial++) {
            Fabric f = randomFabric(rnd);
            Map<String, LinkState> states = randomFailures(f, rnd, trial % 3 == 0 ? 0.0 : 0.08);
            PlacementEngine e = Fixtures.engine(f, states);
            List<String> nics = Fixtures.nics(f);
            int jobs = 1 + rnd.nextInt(3);
            for (int j = 0; j < jobs; j++) {
                Job job = Patterns.expand(randomJob("j" + j, nics, rnd), e.index(), 1 << 20);
                long[] before = e.arcLoadsKbps();
                int[] elephantsBefore = e.arcElephants();
                PlacementResult r = e.add(job);
                assertThat(r.placed().size() + r.unplaced().size()).isEqualTo(job.flows().size());
                for (PlacedFlow pf : r.placed()) {
                    Fixtures.assertValidWalk(e.index(), pf);
                }
                for (Unplaced u : r.unplaced()) {
                    assertThat(u.reason()).isNotBlank();
                }
                assertThat(e.arcLoadsKbps()).as("trial %d job %d", trial, j).isEqualTo(expectedLoads(e));
                assertQualityMatchesArcs(e);
                if (rnd.nextInt(3) == 0 && r.moved().isEmpty()) {
                    e.release(job.id());
                    assertThat(e.arcLoadsKbps()).isEqualTo(before);
                    assertThat(e.arcElephants()).isEqualTo(elephantsBefore);
                    assertQualityMatchesArcs(e);
                }
            }
        }
    }

    @Test
    void sameInputGivesSamePaths() throws Exception {
        Fabric f = Fixtures.fatTree(6);
        List<String> nics = Fixtures.nics(f);
        List<List<String>> runs = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            PlacementEngine e = Fixtures.engine(f);
            Random rnd = new Random(5);
            List<String> paths = new ArrayList<>();
            for (int j = 0; j < 3; j++) {
                for (PlacedFlow pf : e.add(Patterns.expand(randomJob("j" + j, nics, rnd), e.index(), 1 << 20))
                        .placed()) {
                    paths.add(pf.flow().id() + "=" + pf.nodes());
                }
            }
            runs.add(paths);
        }
        assertThat(runs.get(0)).isEqualTo(runs.get(1));
    }

    @Test
    void releaseOfAJobWithOthersPlacedRestoresTheirState() throws Exception {
        Fabric f = Fixtures.leafSpine(8, 4, 4);
        List<String> nics = Fixtures.nics(f);
        PlacementEngine e = Fixtures.engine(f);
        e.add(Patterns.expand(JobSpec.of("a", "ring", nics.subList(0, 16), 100), e.index(), 1000));
        long[] before = e.arcLoadsKbps();
        List<String> pathsBefore = new ArrayList<>();
        e.placedFlows("a").forEach(pf -> pathsBefore.add(pf.nodes().toString()));
        PlacementResult r = e.add(Patterns.expand(JobSpec.of("b", "all-to-all", nics.subList(16, 32), 37.5),
                e.index(), 1000));
        assertThat(r.moved()).isEmpty();
        e.release("b");
        assertThat(e.arcLoadsKbps()).isEqualTo(before);
        List<String> pathsAfter = new ArrayList<>();
        e.placedFlows("a").forEach(pf -> pathsAfter.add(pf.nodes().toString()));
        assertThat(pathsAfter).isEqualTo(pathsBefore);
    }
}
