package io.weft.lab.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weft.fabric.Fabric;
import io.weft.fabric.Node;
import io.weft.fabric.Role;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FatTreeGeneratorTest {

    @ParameterizedTest
    @ValueSource(ints = {2, 4, 6, 8})
    void karyFatTreeFollowsTheFormulas(int k) {
        Fabric f = FatTreeGenerator.generate(FatTreeGenerator.kary(k));
        FabricStats s = FabricStats.of(f);
        assertThat(io.weft.fabric.FabricValidator.validate(f)).isEmpty();
        int h = k / 2;
        assertThat(s.count(Role.LEAF)).isEqualTo(k * h);
        assertThat(s.count(Role.SPINE)).isEqualTo(k * h);
        assertThat(s.count(Role.SUPERSPINE)).isEqualTo(h * h);
        assertThat(s.count(Role.NIC)).isEqualTo(k * k * k / 4);
        // links: NIC links k³/4, leaf-spine k·h·h, spine-superspine k·h·h.
        assertThat(f.links()).hasSize(k * k * k / 4 + 2 * k * h * h);
        // Every switch uses exactly k ports (superspines: one per pod).
        assertThat(s.minRadix()).isEqualTo(k);
        assertThat(s.maxRadix()).isEqualTo(k);
        // Convention: switch hops leaf -> spine -> superspine -> spine -> leaf = 4 (1 pod: 2).
        assertThat(s.diameter()).isEqualTo(4);
    }

    @Test
    void generalFormWiresSpineJToPlaneJSuperspines() {
        // 3 pods, 2 leaves, 2 spines, 6 superspines -> 3 superspines per plane.
        Fabric f = FatTreeGenerator.generate(new FatTreeGenerator.Params(null, 3, 2, 2, 6, 1,
                100, 400, 400, 100, 500, 1000));
        Node spine = f.node("p3-spine2");
        assertThat(spine.pod()).isEqualTo(2);
        assertThat(spine.plane()).isEqualTo(1);
        assertThat(f.linksOf("p3-spine2")).extracting(l -> l.otherEnd("p3-spine2").node())
                .containsExactly("p3-leaf1", "p3-leaf2", "ss4", "ss5", "ss6");
        assertThat(f.node("ss4").plane()).isEqualTo(1);
        assertThat(f.node("p3-leaf2-nic1").pod()).isEqualTo(2);
        assertThat(FabricStats.switchDiameter(f)).isEqualTo(4);
        assertThat(f.linksOf("ss1")).hasSize(3);
    }

    @Test
    void rejectsBadParameters() {
        assertThatThrownBy(() -> FatTreeGenerator.kary(5)).hasMessage("k: must be an even number >= 2 (got 5)");
        assertThatThrownBy(() -> new FatTreeGenerator.Params(null, 2, 2, 2, 3, 1, 1, 1, 1, 1, 1, 1))
                .hasMessageStartingWith("superspines: must be a multiple of spinesPerPod");
    }
}
