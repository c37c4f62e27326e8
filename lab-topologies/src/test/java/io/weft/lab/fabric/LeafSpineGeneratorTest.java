package io.weft.lab.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Role;
import org.junit.jupiter.api.Test;

class LeafSpineGeneratorTest {

    @Test
    void countsFollowTheFormulas() {
        // L=4, S=3, H=5, P=2: nodes L+S+L·H, links L·S·P + L·H, leaf radix S·P+H, spine radix L·P.
        Fabric f = LeafSpineGenerator.generate(new LeafSpineGenerator.Params(null, 4, 3, 5, 2, 100, 400, 100, 500));
        FabricStats s = FabricStats.of(f);
        assertThat(io.weft.fabric.FabricValidator.validate(f)).isEmpty();
        assertThat(s.count(Role.LEAF)).isEqualTo(4);
        assertThat(s.count(Role.SPINE)).isEqualTo(3);
        assertThat(s.count(Role.NIC)).isEqualTo(20);
        assertThat(f.links()).hasSize(4 * 3 * 2 + 4 * 5);
        for (var leaf : f.nodesWithRole(Role.LEAF)) {
            assertThat(f.linksOf(leaf.id())).hasSize(3 * 2 + 5);
        }
        for (var spine : f.nodesWithRole(Role.SPINE)) {
            assertThat(f.linksOf(spine.id())).hasSize(4 * 2);
        }
        assertThat(s.diameter()).isEqualTo(2);
        assertThat(f.id()).isEqualTo("ls-4x3");
    }

    @Test
    void namesPortsAndCapacitiesAreReadable() {
        Fabric f = LeafSpineGenerator.generate(new LeafSpineGenerator.Params("lab", 2, 2, 1, 2, 100, 400, 100, 500));
        Link first = f.links().get(0);
        assertThat(first.id()).isEqualTo("leaf1-spine1-1");
        assertThat(first.a().toString()).isEqualTo("leaf1:eth1");
        assertThat(first.b().toString()).isEqualTo("spine1:eth1");
        assertThat(f.link("leaf1-spine1-2").a().port()).isEqualTo("eth2");
        Link nic = f.link("leaf2-nic1-up");
        assertThat(nic.a().toString()).isEqualTo("leaf2-nic1:eth1");
        assertThat(nic.b().toString()).isEqualTo("leaf2:eth5");
        assertThat(nic.capacityGbps()).isEqualTo(100);
        assertThat(f.link("leaf2-spine2-2").capacityGbps()).isEqualTo(400);
    }

    @Test
    void isDeterministic() {
        var p = LeafSpineGenerator.Params.of(3, 2, 2);
        assertThat(io.weft.fabric.FabricJson.write(LeafSpineGenerator.generate(p)))
                .isEqualTo(io.weft.fabric.FabricJson.write(LeafSpineGenerator.generate(p)));
    }

    @Test
    void rejectsBadParametersNamingTheField() {
        assertThatThrownBy(() -> LeafSpineGenerator.Params.of(0, 2, 2))
                .hasMessage("leaves: must be >= 1 (got 0)");
        assertThatThrownBy(() -> new LeafSpineGenerator.Params(null, 2, 2, 2, 1, 0, 400, 1, 1))
                .hasMessageStartingWith("nicGbps: must be a positive number");
        assertThatThrownBy(() -> new LeafSpineGenerator.Params("a b", 2, 2, 2, 1, 1, 400, 1, 1))
                .hasMessageStartingWith("id: must be");
        assertThatThrownBy(() -> new LeafSpineGenerator.Params(null, 2, 2, 2, 1, 1, 400, -1, 1))
                .hasMessage("nicLatencyNs: must be >= 0 (got -1)");
    }
}
