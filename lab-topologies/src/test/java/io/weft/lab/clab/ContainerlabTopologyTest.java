package io.weft.lab.clab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Endpoint;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;
import io.weft.lab.fabric.FabricGenerators;
import org.junit.jupiter.api.Test;

class ContainerlabTopologyTest {

    @Test
    void smallLeafSpineMatchesTheGoldenFile() throws Exception {
        Fabric f = FabricGenerators.generate("leaf-spine", Map.of("leaves", "2", "spines", "2", "nicsPerLeaf", "1"));
        assertThat(FabricJson.write(f)).isEqualTo(Files.readString(Path.of("src/test/resources/golden/ls-2x2.json")));
        String yaml = ContainerlabTopology.render(f, ContainerlabTopology.DEFAULT_SWITCH_IMAGE,
                ContainerlabTopology.DEFAULT_NIC_IMAGE);
        assertThat(yaml).isEqualTo(Files.readString(Path.of("src/test/resources/golden/ls-2x2.clab.yml")));
    }

    @Test
    void everyLinkBecomesOneEndpointPairWithTheFabricPortNames() {
        Fabric f = FabricGenerators.generate("dragonfly", Map.of("p", "1", "a", "2", "h", "1"));
        String yaml = ContainerlabTopology.render(f, "sw", "nic");
        for (Link l : f.links()) {
            assertThat(yaml).contains("- endpoints: [\"" + l.a() + "\", \"" + l.b() + "\"]");
        }
        assertThat(yaml.lines().filter(s -> s.startsWith("    - endpoints:")).count()).isEqualTo(f.links().size());
        assertThat(yaml).contains("name: df-1-2-1\n").contains("        weft-group: \"2\"\n");
    }

    @Test
    void portsThatCannotBeLinuxInterfacesAreReported() {
        Fabric f = FabricGenerators.generate("leaf-spine", Map.of("leaves", "1", "spines", "1", "nicsPerLeaf", "0"));
        List<Link> links = new ArrayList<>(f.links());
        links.add(new Link("x", new Endpoint("leaf1", "eth0"), new Endpoint("spine1", "Ethernet1/1"), 1, 0));
        assertThat(ContainerlabTopology.problems(f.with(f.nodes(), links))).containsExactly(
                "link x: port eth0 on leaf1 is containerlab's management interface; number data ports from eth1",
                "link x: port \"Ethernet1/1\" on spine1 is not a Linux interface name (1-15 letters, digits, '.', "
                        + "'_' or '-')");
        assertThat(ContainerlabTopology.problems(f)).isEmpty();
    }

    @Test
    void quotesWhatYamlWouldReadAsSomethingElse() {
        assertThat(ContainerlabTopology.scalar("leaf1")).isEqualTo("leaf1");
        assertThat(ContainerlabTopology.scalar("no")).isEqualTo("\"no\"");
        assertThat(ContainerlabTopology.scalar("123")).isEqualTo("\"123\"");
        assertThat(ContainerlabTopology.scalar("a:b")).isEqualTo("\"a:b\"");
    }
}
