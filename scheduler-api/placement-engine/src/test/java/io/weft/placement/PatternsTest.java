package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Collectors;

import io.weft.fabric.Fabric;
import org.junit.jupiter.api.Test;

class PatternsTest {
    private final Fabric fabric = Fixtures.leafSpine(4, 2, 2);
    private final DenseFabric ix = DenseFabric.of(fabric);
    private final List<String> nics = Fixtures.nics(fabric);

    private static List<String> pairs(Job job) {
        return job.flows().stream().map(f -> f.srcNic() + ">" + f.dstNic()).collect(Collectors.toList());
    }

    @Test
    void ringConnectsEachRankToTheNext() throws Exception {
        Job j = Patterns.expand(JobSpec.of("r", "ring", nics.subList(0, 3), 100), ix, 1000);
        assertThat(pairs(j)).containsExactly(nics.get(0) + ">" + nics.get(1), nics.get(1) + ">" + nics.get(2),
                nics.get(2) + ">" + nics.get(0));
        assertThat(j.flows()).extracting(Flow::id).containsExactly("r/0", "r/1", "r/2");
    }

    @Test
    void autoRingOrderGroupsRanksByLeaf() throws Exception {
        // NICs 0,1 on leaf1, 2,3 on leaf2: interleaved order crosses the fabric on every hop.
        List<String> interleaved = List.of(nics.get(0), nics.get(2), nics.get(1), nics.get(3));
        Job given = Patterns.expand(JobSpec.of("g", "ring", interleaved, 100), ix, 1000);
        Job auto = Patterns.expand(JobSpec.of("a", "ring", interleaved, 100).withOrder("auto"), ix, 1000);
        assertThat(crossings(given)).isEqualTo(4);
        assertThat(crossings(auto)).isEqualTo(2);
    }

    private long crossings(Job j) {
        return j.flows().stream().filter(f -> ix.attach[ix.node(f.srcNic())] != ix.attach[ix.node(f.dstNic())])
                .count();
    }

    @Test
    void butterflyPairsRanksDifferingInOneBitPerRound() throws Exception {
        Job j = Patterns.expand(JobSpec.of("t", "tree", nics.subList(0, 4), 100), ix, 1000);
        // Rounds: bit 1 (0<->1, 2<->3), bit 2 (0<->2, 1<->3); both directions.
        assertThat(j.flows()).hasSize(8);
        assertThat(pairs(j)).contains(nics.get(0) + ">" + nics.get(1), nics.get(1) + ">" + nics.get(0),
                nics.get(0) + ">" + nics.get(2), nics.get(3) + ">" + nics.get(1));
        assertThat(pairs(j)).doesNotContain(nics.get(0) + ">" + nics.get(3));
    }

    @Test
    void allToAllWithConcurrentPeersUsesShifts() throws Exception {
        Job all = Patterns.expand(JobSpec.of("a", "all-to-all", nics.subList(0, 5), 100), ix, 1000);
        assertThat(all.flows()).hasSize(20);
        Job two = Patterns.expand(JobSpec.of("b", "all-to-all", nics.subList(0, 5), 100).withConcurrentPeers(2),
                ix, 1000);
        assertThat(two.flows()).hasSize(10);
        assertThat(pairs(two)).contains(nics.get(4) + ">" + nics.get(0), nics.get(4) + ">" + nics.get(1));
    }

    @Test
    void pipelineLinksConsecutiveStages() throws Exception {
        Job j = Patterns.expand(JobSpec.of("p", "pipeline", nics.subList(0, 4), 100), ix, 1000);
        assertThat(pairs(j)).containsExactly(nics.get(0) + ">" + nics.get(1), nics.get(1) + ">" + nics.get(2),
                nics.get(2) + ">" + nics.get(3));
    }

    @Test
    void slicesSplitDemandEvenly() throws Exception {
        Job j = Patterns.expand(JobSpec.of("s", "pipeline", nics.subList(0, 2), 100).withSlices(4), ix, 1000);
        assertThat(j.flows()).hasSize(4);
        assertThat(j.flows()).extracting(Flow::demandGbps).containsOnly(25.0);
        assertThat(j.flows()).extracting(Flow::slice).containsExactly(0, 1, 2, 3);
        assertThat(j.flows()).extracting(Flow::id).containsExactly("s/0.0", "s/0.1", "s/0.2", "s/0.3");
    }

    @Test
    void explicitFlowsDefaultToTheJobDemand() throws Exception {
        JobSpec spec = new JobSpec("e", null, "explicit", null, 50, 1, 0, null, List.of(
                new JobSpec.FlowSpec(nics.get(0), nics.get(5), 0), new JobSpec.FlowSpec(nics.get(1), nics.get(6), 7)));
        Job j = Patterns.expand(spec, ix, 1000);
        assertThat(j.flows()).extracting(Flow::demandGbps).containsExactly(50.0, 7.0);
        assertThat(j.tenant()).isEqualTo("default");
    }

    @Test
    void badInputNamesTheField() {
        assertThatThrownBy(() -> Patterns.expand(JobSpec.of("x", "ring", List.of(nics.get(0), "nope"), 100), ix, 10))
                .isInstanceOf(PlacementException.class).extracting("field").isEqualTo("endpoints[1]");
        assertThatThrownBy(() -> Patterns.expand(JobSpec.of("x", "ring", List.of(nics.get(0), "leaf1"), 100), ix, 10))
                .extracting("field").isEqualTo("endpoints[1]");
        assertThatThrownBy(() -> Patterns.expand(JobSpec.of("x", "ring", nics.subList(0, 2), 0), ix, 10))
                .extracting("field").isEqualTo("demandGbps");
        assertThatThrownBy(() -> Patterns.expand(JobSpec.of("x", "ring", nics.subList(0, 2), -5), ix, 10))
                .extracting("field").isEqualTo("demandGbps");
        assertThatThrownBy(() -> Patterns.expand(JobSpec.of("x", "mesh", nics.subList(0, 2), 1), ix, 10))
                .extracting("field").isEqualTo("pattern");
        assertThatThrownBy(() -> Patterns.expand(JobSpec.of("x", "ring", nics.subList(0, 2), 1).withSlices(0), ix, 10))
                .extracting("field").isEqualTo("qpSlices");
        assertThatThrownBy(() -> Patterns.expand(JobSpec.of("x", "all-to-all", nics, 1), ix, 10))
                .extracting("field").isEqualTo("endpoints");
        assertThatThrownBy(() -> Patterns.expand(new JobSpec("x", null, "explicit", null, 1, 1, 0, null,
                List.of(new JobSpec.FlowSpec(nics.get(0), nics.get(0), 1))), ix, 10))
                .extracting("field").isEqualTo("flows[0].dst");
        assertThatThrownBy(() -> Patterns.expand(new JobSpec("x", "blue", "ring", nics.subList(0, 2), 1, 1, 0, null,
                null), ix, 10)).extracting("field").isEqualTo("tenant");
    }
}
