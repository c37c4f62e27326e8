package io.weft.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.weft.fabric.Endpoint;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.fabric.Role;
import org.junit.jupiter.api.Test;

class PlannerTest {

    @Test
    void allocatesLeavesFirstThenSpinesWithLocatorsAndDecap() throws Exception {
        FabricPlan plan = Planner.plan(TestFabrics.leafSpine(2, 2, 1, 1), null);
        assertThat(plan.nodeIds()).containsExactlyInAnyOrderEntriesOf(
                Map.of("leaf1", 1, "leaf2", 2, "spine1", 3, "spine2", 4));
        assertThat(plan.block()).isEqualTo("fcbb:bb00::/32");
        assertThat(plan.locator("spine2")).isEqualTo("fcbb:bb00:4::/48");
        assertThat(plan.decapFunction("leaf2", "default")).isEqualTo(0xE000);
        assertThat(plan.functionSid("leaf2", 0xE000)).isEqualTo("fcbb:bb00:2:e000::/64");
        assertThat(plan.vrfTable("default")).isEqualTo(100);
        assertThat(plan.nicPrefix("leaf1")).isEqualTo("fd00:ef7:1::/64");
        assertThat(plan.nicPrefix("spine1")).isNull();
        assertThat(plan.nicAddress("h2-1")).isEqualTo("fd00:ef7:2::1");
        assertThat(plan.loopback("spine1")).isEqualTo("fd00:ef8::3");
        assertThat(plan.attachment("h1-1").to()).isEqualTo("leaf1");
        assertThat(plan.uaFunction("leaf1", "leaf1-spine1")).isNull();
        assertThatThrownBy(() -> plan.decapFunction("spine1", "default"))
                .hasMessageContaining("spine1 ".trim()).hasMessageContaining("no NICs");
    }

    @Test
    void parallelLinksGetUaFunctionsAndEvTablesListEveryMemberInPublishedOrder() throws Exception {
        FabricPlan plan = Planner.plan(TestFabrics.leafSpine(2, 2, 1, 2), null);
        assertThat(plan.uaFunctions("leaf1")).containsExactlyInAnyOrderEntriesOf(Map.of(
                "leaf1-spine1", 0xE100, "leaf1-spine1.2", 0xE101, "leaf1-spine2", 0xE102, "leaf1-spine2.2", 0xE103));
        assertThat(plan.uaFunction("spine1", "leaf2-spine1.2")).isEqualTo(0xE103);
        assertThat(keys(plan.evTable("leaf1", 1))).containsExactly(
                "leaf1-spine1>spine1", "leaf1-spine1.2>spine1", "leaf1-spine2>spine2", "leaf1-spine2.2>spine2");
        assertThat(plan.evTable("leaf1", 2)).isEmpty();
        assertThat(plan.evTable("spine1", 1)).isEmpty();
    }

    @Test
    void threeTierSpinesIndexSuperspinesAtStageTwoAndRoutersUseAllRouterLinks() throws Exception {
        FabricPlan clos = Planner.plan(TestFabrics.clos3(2, 2, 2, 2), null);
        assertThat(keys(clos.evTable("p1s2", 2))).containsExactly("p1s2-ss2-1>ss2-1", "p1s2-ss2-2>ss2-2");
        FabricPlan df = Planner.plan(TestFabrics.dragonfly(1, 2, 1), null);
        assertThat(keys(df.evTable("g0r0", 1))).containsExactly("g0r0-g0r1>g0r1", "g0r0-g1r1>g1r1");
        assertThat(df.evTable("g0r0", 2)).isEqualTo(df.evTable("g0r0", 1));
    }

    @Test
    void replanningAfterAddingTwoLeavesAndRemovingASpineKeepsEverySurvivorsValues() throws Exception {
        Fabric before = TestFabrics.leafSpine(4, 3, 2, 2);
        FabricPlan first = Planner.plan(before, null);

        List<Node> nodes = before.nodes().stream().filter(n -> !n.id().equals("spine2")).collect(Collectors.toList());
        List<Link> links = before.links().stream().filter(l -> !l.touches("spine2")).collect(Collectors.toList());
        for (String leaf : List.of("leaf5", "leaf6")) {
            nodes.add(Node.builder(leaf, Role.LEAF).build());
            for (int k = 1; k <= 2; k++) {
                String nic = "n" + leaf + "-" + k;
                nodes.add(Node.builder(nic, Role.NIC).build());
                links.add(new Link(nic + "-" + leaf, new Endpoint(nic, "eth0"), new Endpoint(leaf, "eth" + k), 400, 0));
            }
            for (String spine : List.of("spine1", "spine3")) {
                for (int p = 1; p <= 2; p++) {
                    links.add(new Link(leaf + "-" + spine + "." + p, new Endpoint(leaf, "up" + spine + p),
                            new Endpoint(spine, "d" + leaf + p), 400, 0));
                }
            }
        }
        // New nodes come first in the file: file order must not matter for survivors.
        List<Node> reordered = new ArrayList<>(nodes.subList(nodes.size() - 6, nodes.size()));
        reordered.addAll(nodes.subList(0, nodes.size() - 6));
        Fabric after = before.with(reordered, links);
        FabricPlan second = Planner.plan(after, first);

        for (String sw : second.switches()) {
            if (first.nodeIds().containsKey(sw)) {
                assertThat(second.nodeId(sw)).as(sw).isEqualTo(first.nodeId(sw));
                assertThat(second.locator(sw)).as(sw).isEqualTo(first.locator(sw));
                assertThat(second.loopback(sw)).as(sw).isEqualTo(first.loopback(sw));
                assertThat(second.nicPrefix(sw)).as(sw).isEqualTo(first.nicPrefix(sw));
                for (Map.Entry<String, Integer> ua : second.uaFunctions(sw).entrySet()) {
                    Integer old = first.uaFunction(sw, ua.getKey());
                    if (old != null) {
                        assertThat(ua.getValue()).as(sw + " uA " + ua.getKey()).isEqualTo(old);
                    }
                }
                if (!second.nicsOf(sw).isEmpty()) {
                    assertThat(second.decapFunction(sw, "default")).isEqualTo(first.decapFunction(sw, "default"));
                }
            }
        }
        for (String nic : first.nics()) {
            assertThat(second.nicAddress(nic)).as(nic).isEqualTo(first.nicAddress(nic));
        }
        // New leaves take the lowest free ids; no two switches share one.
        assertThat(second.nodeIds().values()).doesNotHaveDuplicates();
        assertThat(second.nodeId("leaf5")).isEqualTo(6);
        assertThat(second.nodeId("leaf6")).isEqualTo(8);
        assertThat(second.nicAddress("nleaf5-1")).isEqualTo("fd00:ef7:6::1");
        // The re-plan of an unchanged fabric is the same plan.
        assertThat(SnapshotJson.planTree(Planner.plan(after, second))).isEqualTo(SnapshotJson.planTree(second));
    }

    @Test
    void explicitIdsWinOverAllocationAndOverThePreviousPlan() throws Exception {
        Fabric plain = TestFabrics.leafSpine(2, 2, 1, 1);
        FabricPlan first = Planner.plan(plain, null);
        assertThat(first.nodeId("leaf2")).isEqualTo(2);
        Fabric explicit = withNodeId(withNodeId(plain, "spine1", 0x12), "leaf1", 2);
        FabricPlan second = Planner.plan(explicit, first);
        assertThat(second.nodeId("spine1")).isEqualTo(0x12);
        assertThat(second.nodeId("leaf1")).isEqualTo(2);
        // leaf2 lost its id to an explicit claim and gets the lowest free one; spine2 keeps its own.
        assertThat(second.nodeId("leaf2")).isEqualTo(1);
        assertThat(second.nodeId("spine2")).isEqualTo(4);
        assertThat(second.locator("spine1")).isEqualTo("fcbb:bb00:12::/48");
    }

    @Test
    void explicitIdCollisionNamesBothNodes() {
        Fabric f = withNodeId(withNodeId(TestFabrics.leafSpine(2, 2, 1, 1), "leaf1", 7), "spine2", 7);
        assertThatThrownBy(() -> Planner.plan(f, null))
                .isInstanceOf(PlanException.class)
                .hasMessage("srv6NodeId 7 is claimed by both leaf1 and spine2");
    }

    @Test
    void explicitIdInTheLocalFunctionRangeIsRejectedNamingNodeAndRange() {
        Fabric f = withNodeId(TestFabrics.leafSpine(2, 2, 1, 1), "spine1", 0xE000);
        assertThatThrownBy(() -> Planner.plan(f, null))
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("node spine1")
                .hasMessageContaining("0xe000")
                .hasMessageContaining("local functions");
        Fabric zero = withNodeId(TestFabrics.leafSpine(2, 2, 1, 1), "leaf2", 0);
        assertThatThrownBy(() -> Planner.plan(zero, null)).hasMessageContaining("node leaf2");
    }

    @Test
    void explicitAddressesWinAndDuplicatesAreRejected() throws Exception {
        Fabric f = withAddress(withAddress(TestFabrics.leafSpine(2, 2, 2, 1), "h1-2", "fd00:ef7:1::1"),
                "spine1", "2001:db8::53");
        FabricPlan plan = Planner.plan(f, null);
        assertThat(plan.nicAddress("h1-2")).isEqualTo("fd00:ef7:1::1");
        assertThat(plan.nicAddress("h1-1")).isEqualTo("fd00:ef7:1::2");
        assertThat(plan.loopback("spine1")).isEqualTo("2001:db8::53");
        Fabric dup = withAddress(f, "h2-1", "FD00:EF7:1:0::1");
        assertThatThrownBy(() -> Planner.plan(dup, null))
                .hasMessage("address fd00:ef7:1::1 is claimed by both h1-2 and h2-1");
    }

    @Test
    void tenantsKeepTheirIndexWhenOthersAreRemoved() throws Exception {
        Fabric two = TestFabrics.named("t", "custom").tenants("red", "blue")
                .node("leaf1", Role.LEAF).node("n1", Role.NIC).link("n1", "leaf1").build();
        FabricPlan first = Planner.plan(two, null);
        assertThat(first.decapFunction("leaf1", "blue")).isEqualTo(0xE001);
        Fabric onlyBlue = TestFabrics.named("t", "custom").tenants("green", "blue")
                .node("leaf1", Role.LEAF).node("n1", Role.NIC).link("n1", "leaf1").build();
        FabricPlan second = Planner.plan(onlyBlue, first);
        assertThat(second.vrfTable("blue")).isEqualTo(101);
        assertThat(second.vrfTable("green")).isEqualTo(100);
        assertThat(second.vrfName("green")).isEqualTo("Vrf-green");
        Fabric longName = TestFabrics.named("t", "custom").tenants("default", "research-cluster-7")
                .node("leaf1", Role.LEAF).node("n1", Role.NIC).link("n1", "leaf1").build();
        assertThat(Planner.plan(longName, null).vrfName("research-cluster-7")).isEqualTo("Vrf101");
    }

    @Test
    void rejectsStructuralProblemsWithOneLineNamingTheCulprit() {
        Fabric dangling = TestFabrics.named("x", "custom").node("leaf1", Role.LEAF).node("n1", Role.NIC)
                .link("n1", "leaf9").build();
        assertThatThrownBy(() -> Planner.plan(dangling, null)).hasMessage("link n1-leaf9: unknown node leaf9");
        Fabric lonely = TestFabrics.named("x", "custom").node("leaf1", Role.LEAF).node("n1", Role.NIC).build();
        assertThatThrownBy(() -> Planner.plan(lonely, null))
                .hasMessage("node n1: NIC is not linked to any switch");
        Fabric badBlock = new Fabric("x", null, null, "fcbb:bb00::/48", null, List.of(), List.of(), null);
        assertThatThrownBy(() -> Planner.plan(badBlock, null)).hasMessageStartingWith("srv6.block: ");
    }

    static List<String> keys(List<io.weft.fabric.Arc> arcs) {
        return arcs.stream().map(io.weft.fabric.Arc::key).collect(Collectors.toList());
    }

    static Fabric withNodeId(Fabric f, String nodeId, int id) {
        return f.with(f.nodes().stream().map(n -> n.id().equals(nodeId) ? n.toBuilder().srv6NodeId(id).build() : n)
                .collect(Collectors.toList()), f.links());
    }

    static Fabric withAddress(Fabric f, String nodeId, String address) {
        return f.with(f.nodes().stream().map(n -> n.id().equals(nodeId) ? n.toBuilder().address(address).build() : n)
                .collect(Collectors.toList()), f.links());
    }
}
