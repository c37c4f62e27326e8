package io.weft.controller.onos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.fabric.FabricValidator;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bundled example fabrics (contracts/examples, lab-topologies/examples) shown to
 * OnosFabricBuilder the way ONOS would see them: the fabric it builds must be the file's fabric (same
 * nodes and attributes, same cabling, capacities and latencies), and plan to the same uN ids and
 * EV tables.
 */
class ExampleFabricsTest {
    private static final Path ROOT = Paths.get("..");

    @ParameterizedTest
    @ValueSource(strings = {
        "contracts/examples/leaf-spine-2x2.json", "contracts/examples/clos3-tiny.json",
        "contracts/examples/dragonfly-tiny.json", "lab-topologies/examples/fat-tree-k8.json",
        "lab-topologies/examples/slimfly-q5.json", "lab-topologies/examples/dragonfly-2-4-2.json"})
    void onosViewOfAnExampleFabricIsThatFabric(String file) throws Exception {
        Fabric original = FabricJson.read(ROOT.resolve(file));
        OnosView view = OnosView.of(original);

        BuiltFabric built = new OnosFabricBuilder(view.devices, view.links, view.configs, TestFabric.APP_ID).build();
        Fabric f = built.fabric();

        assertThat(built.problems()).isEmpty();
        assertThat(FabricValidator.validate(f)).isEmpty();
        assertThat(f.id()).isEqualTo(original.id());
        assertThat(sortedNodes(f)).isEqualTo(sortedNodes(original));
        assertThat(cabling(f)).isEqualTo(cabling(original));
        assertThat(built.linkStates().values()).containsOnly(LinkState.UP);

        FabricPlan fromFile = Planner.plan(original, null);
        FabricPlan fromOnos = Planner.plan(f, null);
        for (String sw : fromFile.switches()) {
            if (original.node(sw).srv6NodeId() != null) {
                assertThat(fromOnos.nodeId(sw)).as("uN id of " + sw).isEqualTo(fromFile.nodeId(sw));
            }
            for (int stage = 1; stage <= 2; stage++) {
                assertThat(keys(fromOnos, sw, stage)).as("EV stage " + stage + " members of " + sw)
                        .hasSameSizeAs(keys(fromFile, sw, stage));
            }
        }
        assertThat(fromOnos.nics()).containsExactlyInAnyOrderElementsOf(fromFile.nics());
    }

    private static List<Node> sortedNodes(Fabric f) {
        List<Node> nodes = new ArrayList<>(f.nodes());
        nodes.sort(Comparator.comparing(Node::id));
        return nodes;
    }

    /** Link ids differ (ONOS has no names for links); what must match is who is cabled to whom. */
    private static Set<String> cabling(Fabric f) {
        Set<String> out = new TreeSet<>();
        for (Link l : f.links()) {
            String a = l.a().toString();
            String b = l.b().toString();
            boolean nicLink = !f.node(l.a().node()).role().isSwitch() || !f.node(l.b().node()).role().isSwitch();
            out.add(String.format(Locale.ROOT, "%s|%s %.1fG %s", a.compareTo(b) < 0 ? a : b, a.compareTo(b) < 0 ? b : a,
                    l.capacityGbps(), nicLink ? "-" : l.latencyNs() + "ns"));
        }
        return out;
    }

    private static List<String> keys(FabricPlan plan, String sw, int stage) {
        List<String> out = new ArrayList<>();
        plan.evTable(sw, stage).forEach(a -> out.add(a.to()));
        return out;
    }
}
