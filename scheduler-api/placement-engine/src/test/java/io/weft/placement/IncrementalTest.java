package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import org.junit.jupiter.api.Test;

/** add / release / re-place on a live engine: only the flows that must move do, and the result says which. */
class IncrementalTest {
    private final Fabric fabric = Fixtures.leafSpine(4, 4, 4);
    private final List<String> nics = Fixtures.nics(fabric);

    private static Map<String, List<String>> paths(PlacementEngine e) {
        Map<String, List<String>> m = new HashMap<>();
        for (String j : e.jobIds()) {
            for (PlacedFlow pf : e.placedFlows(j)) {
                m.put(pf.flow().id(), pf.path().stream().map(a -> a.key()).collect(Collectors.toList()));
            }
        }
        return m;
    }

    private static String fabricLinkOf(PlacedFlow pf) {
        return pf.path().get(1).link().id(); // leaf -> spine
    }

    @Test
    void aFailedLinkMovesExactlyTheFlowsOnIt() throws Exception {
        PlacementEngine e = Fixtures.engine(fabric);
        e.add(Patterns.expand(JobSpec.of("a", "all-to-all", nics.subList(0, 16), 10).withConcurrentPeers(4),
                e.index(), 1000));
        e.add(Patterns.expand(JobSpec.of("b", "ring", nics.subList(0, 16), 50), e.index(), 1000));
        Map<String, List<String>> before = paths(e);
        PlacedFlow victim = e.placedFlows("b").stream().filter(pf -> pf.path().size() > 2).findFirst().orElseThrow();
        String link = fabricLinkOf(victim);
        PlacementResult r = e.updateLinkStates(Map.of(link, LinkState.DOWN));
        assertThat(r.unplaced()).isEmpty();
        assertThat(r.moved()).contains(victim.flow().id());
        Map<String, List<String>> after = paths(e);
        for (var en : before.entrySet()) {
            boolean onLink = en.getValue().stream().anyMatch(k -> k.startsWith(link + ">"));
            if (onLink) {
                assertThat(r.moved()).contains(en.getKey());
            }
            assertThat(after.get(en.getKey()).stream().anyMatch(k -> k.startsWith(link + ">"))).isFalse();
        }
        // Every flow that moved was either on the failed link or was moved by the objective; the result lists it.
        for (var en : before.entrySet()) {
            if (!after.get(en.getKey()).equals(en.getValue())) {
                assertThat(r.moved()).contains(en.getKey());
            }
        }
        assertThat(r.quality().placedFlows()).isEqualTo(before.size());
        PlacementPropertyTest.assertQualityMatchesArcs(e);
    }

    @Test
    void drainedLinksAreNeverUsed() throws Exception {
        Map<String, LinkState> states = Map.of("leaf1-spine1", LinkState.DRAINED, "leaf2-spine2", LinkState.DOWN);
        PlacementEngine e = Fixtures.engine(fabric, states);
        PlacementResult r = e.add(Patterns.expand(JobSpec.of("a", "all-to-all", nics, 5), e.index(), 1 << 16));
        assertThat(r.unplaced()).isEmpty();
        for (PlacedFlow pf : r.placed()) {
            assertThat(pf.path()).noneMatch(a -> states.containsKey(a.link().id()));
        }
    }

    @Test
    void flowsWithoutSurvivingPathAreReportedAndComeBackWhenRepaired() throws Exception {
        PlacementEngine e = Fixtures.engine(fabric);
        String nic = nics.get(0);
        e.add(Patterns.expand(JobSpec.of("a", "ring", nics.subList(0, 8), 100), e.index(), 1000));
        PlacementResult down = e.updateLinkStates(Map.of(nic + "-up", LinkState.DOWN));
        assertThat(down.unplaced()).extracting(u -> u.flow().id()).containsExactlyInAnyOrder("a/0", "a/7");
        assertThat(down.unplaced()).allMatch(u -> u.reason().contains(nic));
        assertThat(e.unplacedFlows("a")).hasSize(2);
        assertThat(e.quality().placedFlows()).isEqualTo(6);
        PlacementResult up = e.updateLinkStates(Map.of());
        assertThat(up.unplaced()).isEmpty();
        assertThat(up.placed()).extracting(pf -> pf.flow().id()).containsExactlyInAnyOrder("a/0", "a/7");
        assertThat(e.quality().placedFlows()).isEqualTo(8);
    }
}
