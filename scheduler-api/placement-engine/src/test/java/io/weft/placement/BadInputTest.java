package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import io.weft.fabric.Fabric;
import org.junit.jupiter.api.Test;

/** Bad jobs fail with a typed error naming the culprit, and reserve nothing. */
class BadInputTest {
    private final Fabric fabric = Fixtures.leafSpine(2, 2, 2);
    private final List<String> nics = Fixtures.nics(fabric);

    private PlacementException add(PlacementEngine e, Job job) {
        long[] before = e.arcLoadsKbps();
        var jobsBefore = List.copyOf(e.jobIds());
        try {
            e.add(job);
        } catch (PlacementException ex) {
            assertThat(e.arcLoadsKbps()).isEqualTo(before);
            assertThat(e.jobIds()).containsExactlyElementsOf(jobsBefore);
            return ex;
        }
        throw new AssertionError("no error for " + job);
    }

    private Job job(String id, Flow... flows) {
        return new Job(id, "default", List.of(flows));
    }

    @Test
    void unknownNic() {
        PlacementEngine e = Fixtures.engine(fabric);
        PlacementException ex = add(e, job("j", new Flow("j/0", "j", nics.get(0), "ghost", 10, 0)));
        assertThat(ex.field()).isEqualTo("flows[0].dst");
        assertThat(ex.getMessage()).contains("ghost");
    }

    @Test
    void switchIsNotANic() {
        PlacementException ex = add(Fixtures.engine(fabric),
                job("j", new Flow("j/0", "j", "leaf1", nics.get(0), 10, 0)));
        assertThat(ex.field()).isEqualTo("flows[0].src");
    }

    @Test
    void sourceEqualsDestination() {
        PlacementException ex = add(Fixtures.engine(fabric),
                job("j", new Flow("j/0", "j", nics.get(1), nics.get(1), 10, 0)));
        assertThat(ex.field()).isEqualTo("flows[0].dst");
    }

    @Test
    void demandMustBePositive() {
        PlacementEngine e = Fixtures.engine(fabric);
        assertThat(add(e, job("j", new Flow("j/0", "j", nics.get(0), nics.get(1), 0, 0))).field())
                .isEqualTo("flows[0].demandGbps");
        assertThat(add(e, job("j", new Flow("j/0", "j", nics.get(0), nics.get(1), -1, 0))).field())
                .isEqualTo("flows[0].demandGbps");
        assertThat(add(e, job("j", new Flow("j/0", "j", nics.get(0), nics.get(1), Double.NaN, 0))).field())
                .isEqualTo("flows[0].demandGbps");
    }

    @Test
    void moreSlicesThanEntropyValues() throws Exception {
        PlacementEngine e = new PlacementEngine(DenseFabric.of(fabric), Fixtures.FAKE,
                new PlacementConfig(1, 0, 1000, 4, 4, 1, true));
        Job ok = Patterns.expand(JobSpec.of("ok", "pipeline", nics.subList(0, 2), 100).withSlices(4), e.index(), 1000);
        assertThat(e.add(ok).placed()).hasSize(4);
        Job tooMany = Patterns.expand(JobSpec.of("x", "pipeline", nics.subList(0, 2), 100)
                .withSlices(5), e.index(), 1000);
        assertThat(add(e, tooMany).field()).isEqualTo("qpSlices");
    }

    @Test
    void jobLargerThanTheLimit() throws Exception {
        PlacementEngine e = new PlacementEngine(DenseFabric.of(fabric), Fixtures.FAKE,
                PlacementConfig.DEFAULTS.withMaxFlowsPerJob(3));
        List<Flow> flows = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            flows.add(new Flow("j/" + i, "j", nics.get(i), nics.get((i + 1) % 4), 1, 0));
        }
        assertThat(add(e, new Job("j", "default", flows)).field()).isEqualTo("flows");
        assertThatThrownBy(() -> Patterns.expand(JobSpec.of("x", "ring", nics, 1), e.index(), 3))
                .isInstanceOf(PlacementException.class).extracting("field").isEqualTo("endpoints");
    }

    @Test
    void duplicateJobAndUnknownRelease() throws Exception {
        PlacementEngine e = Fixtures.engine(fabric);
        e.add(Patterns.expand(JobSpec.of("j", "ring", nics.subList(0, 2), 1), e.index(), 10));
        assertThat(add(e, Patterns.expand(JobSpec.of("j", "ring", nics.subList(2, 4), 1), e.index(), 10)).field())
                .isEqualTo("name");
        assertThatThrownBy(() -> e.release("nope")).extracting("field").isEqualTo("jobId");
        assertThatThrownBy(() -> e.replaceFlows(List.of("nope/0"))).extracting("field").isEqualTo("flowIds");
    }
}
