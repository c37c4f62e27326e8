package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** A job is admitted only when every rule holds; the error names the field as the job file spells it. */
class JobAdmissionTest {
    private final DenseFabric ix = DenseFabric.of(Fixtures.leafSpine(2, 2, 2));

    private void check(Job job, Set<String> jobs, Set<String> flows) throws PlacementException {
        JobAdmission.check(job, ix, PlacementConfig.DEFAULTS, jobs::contains, flows::contains);
    }

    private static Job job(String name, Flow... flows) {
        return new Job(name, "default", List.of(flows));
    }

    private static Flow flow(String id, String src, String dst, double gbps) {
        return new Flow(id, "j", src, dst, gbps, 0);
    }

    @Test
    void aValidJobPasses() {
        assertThatCode(() -> check(job("j", flow("j/0", "leaf1-nic1", "leaf2-nic1", 100)), Set.of(), Set.of()))
                .doesNotThrowAnyException();
    }

    @Test
    void namesAndIdsMustBeNew() {
        Job j = job("j", flow("j/0", "leaf1-nic1", "leaf2-nic1", 100));
        assertThatThrownBy(() -> check(j, Set.of("j"), Set.of())).extracting("field").isEqualTo("name");
        assertThatThrownBy(() -> check(j, Set.of(), Set.of("j/0"))).extracting("field").isEqualTo("flows[0].id");
        assertThatThrownBy(() -> check(job(" "), Set.of(), Set.of())).extracting("field").isEqualTo("name");
    }

    @Test
    void endsMustBeDistinctNics() {
        assertThatThrownBy(() -> check(job("j", flow("a", "leaf1-nic1", "leaf2-nic1", 1),
                flow("b", "leaf1", "leaf2-nic1", 1)), Set.of(), Set.of()))
                .extracting("field", "message")
                .containsExactly("flows[1].src", "flows[1].src: \"leaf1\" is a leaf, not a NIC");
        assertThatThrownBy(() -> check(job("j", flow("a", "leaf1-nic1", "nope", 1)), Set.of(), Set.of()))
                .extracting("field").isEqualTo("flows[0].dst");
        assertThatThrownBy(() -> check(job("j", flow("a", "leaf1-nic1", "leaf1-nic1", 1)), Set.of(), Set.of()))
                .extracting("field").isEqualTo("flows[0].dst");
    }

    @Test
    void demandsMustBePositiveAndFinite() {
        for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> check(job("j", flow("a", "leaf1-nic1", "leaf2-nic1", bad)), Set.of(), Set.of()))
                    .extracting("field").isEqualTo("flows[0].demandGbps");
        }
    }

    @Test
    void atMostOneEntropyValuePerSliceOfAPair() throws Exception {
        List<Flow> flows = new ArrayList<>();
        for (int i = 0; i < PlacementConfig.DEFAULTS.maxEvsPerPair(); i++) {
            flows.add(flow("j/" + i, "leaf1-nic1", "leaf2-nic1", 1));
        }
        check(new Job("j", "default", flows), Set.of(), Set.of());
        flows.add(flow("j/x", "leaf1-nic1", "leaf2-nic1", 1));
        assertThatThrownBy(() -> check(new Job("j", "default", flows), Set.of(), Set.of()))
                .extracting("field").isEqualTo("qpSlices");
    }

    @Test
    void tooManyFlowsAreRejectedBeforeLookingAtThem() {
        Job j = job("j", flow("a", "leaf1-nic1", "leaf2-nic1", 1), flow("b", "x", "y", -1));
        assertThatThrownBy(() -> JobAdmission.check(j, ix, PlacementConfig.DEFAULTS.withMaxFlowsPerJob(1),
                n -> false, n -> false)).extracting("field").isEqualTo("flows");
    }
}
