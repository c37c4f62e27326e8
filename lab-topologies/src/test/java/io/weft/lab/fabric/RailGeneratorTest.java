package io.weft.lab.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weft.fabric.Fabric;
import io.weft.fabric.Node;
import io.weft.fabric.Role;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RailGeneratorTest {

    @ParameterizedTest
    @CsvSource({"8,4,4,2,1", "16,8,8,4,1", "8,2,4,2,2", "6,4,2,3,4"})
    void railFabricFollowsTheFormulas(int servers, int rails, int perGroup, int spines, int planes) {
        Fabric f = RailGenerator.generate(new RailGenerator.Params(null, servers, rails, perGroup, spines, planes,
                400, 800, 100, 500));
        int groups = servers / perGroup;
        FabricStats s = FabricStats.of(f);
        assertThat(io.weft.fabric.FabricValidator.validate(f)).isEmpty();
        assertThat(s.count(Role.NIC)).isEqualTo(servers * rails);
        assertThat(s.count(Role.LEAF)).isEqualTo(planes * groups * rails);
        assertThat(s.count(Role.SPINE)).isEqualTo(planes * spines);
        assertThat(f.links()).hasSize(planes * (groups * rails * spines + servers * rails));
        for (Node leaf : f.nodesWithRole(Role.LEAF)) {
            assertThat(f.linksOf(leaf.id())).hasSize(spines + perGroup);
        }
        for (Node nic : f.nodesWithRole(Role.NIC)) {
            assertThat(f.linksOf(nic.id())).hasSize(planes);
        }
        // leaf -> spine -> leaf inside a plane; planes are separate switch graphs.
        assertThat(s.diameter()).isEqualTo(planes == 1 && groups * rails > 1 ? 2 : planes == 1 ? 0 : -1);
    }

    @Test
    void nicRGoesToTheRailRLeafOfItsGroup() {
        Fabric f = RailGenerator.generate(new RailGenerator.Params(null, 8, 4, 4, 2, 1, 400, 800, 100, 500));
        Node nic = f.node("srv6-nic3");
        assertThat(nic.server()).isEqualTo("srv6");
        assertThat(nic.rail()).isEqualTo(2);
        assertThat(nic.group()).isEqualTo(1);
        assertThat(f.link("srv6-nic3-up").otherEnd("srv6-nic3").node()).isEqualTo("g2-rail3");
        assertThat(f.node("g2-rail3").rail()).isEqualTo(2);
    }

    @Test
    void multiPlaneNicsHaveOnePortPerPlane() {
        Fabric f = RailGenerator.generate(new RailGenerator.Params(null, 4, 2, 2, 1, 2, 400, 800, 100, 500));
        assertThat(f.linksOf("srv1-nic2")).extracting(l -> l.otherEnd("srv1-nic2").node())
                .containsExactly("pl1-g1-rail2", "pl2-g1-rail2");
        assertThat(f.node("pl2-g1-rail2").plane()).isEqualTo(1);
        assertThat(f.linksOf("pl2-spine1")).allMatch(l -> l.otherEnd("pl2-spine1").node().startsWith("pl2-"));
    }

    @Test
    void convenienceParamsAreOnePlane() {
        Fabric f = RailGenerator.generate(RailGenerator.Params.of(4, 2, 2, 1));
        assertThat(f.id()).isEqualTo("rail-4x2");
        assertThat(f.nodesWithRole(Role.LEAF)).extracting(Node::id).containsExactly("g1-rail1", "g1-rail2",
                "g2-rail1", "g2-rail2");
    }

    @Test
    void rejectsServersNotFillingGroups() {
        assertThatThrownBy(() -> new RailGenerator.Params(null, 10, 4, 4, 2, 1, 1, 1, 1, 1))
                .hasMessage("servers: must be a multiple of serversPerGroup (4), got 10");
    }
}
