package io.weft.lab.netns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.lab.fabric.FatTreeGenerator;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import org.junit.jupiter.api.Test;

/** What the lab tells the kernel, rendered from the plan without running anything. */
class LabScriptTest {
    private static final String NEXT_CSID = " flavors next-csid lblen 32 nflen 16";

    private static FabricPlan plan2x2() throws Exception {
        return Planner.plan(FabricJson.read(Path.of("../../contracts/examples/leaf-spine-2x2.json")), null);
    }

    private static LabScript script(FabricPlan plan, String tag) {
        return new LabScript(plan, new LabLayout(plan.fabric(), tag));
    }

    @Test
    void leafGetsUnDecapUnderlayAndTenantVrf() throws Exception {
        List<String> leaf1 = script(plan2x2(), "t").nodeLines().get("leaf1");
        // leaf1's links in file order: spine1 (p0), spine2 (p1), nic1 (p2), nic2 (p3).
        assertThat(leaf1).contains(
                "addr add fe80::1/64 dev p0 nodad",
                "route add fcbb:bb00:1::/48 encap seg6local action End" + NEXT_CSID + " dev sid0",
                "route add fcbb:bb00:1:e000::/64 encap seg6local action End.DT6 table 100 dev sid0",
                "route add fcbb:bb00:e000::/48 encap seg6local action End.DT6 table 100 dev sid0",
                "route add fcbb:bb00:11::/48 via fe80::2 dev p0",
                "route add fcbb:bb00:12::/48 via fe80::2 dev p1",
                "route add fcbb:bb00:2::/48 nexthop via fe80::2 dev p0 nexthop via fe80::2 dev p1",
                "route add 2001:db8:0:1::1/128 via fe80::1 dev p2 table 100",
                "route add 2001:db8:0:1::2/128 via fe80::1 dev p3 table 100",
                "rule add iif p2 lookup 100 pref 1000",
                "rule add iif p3 lookup 100 pref 1000");
        assertThat(leaf1).filteredOn(l -> l.contains("End.X")).isEmpty();
    }

    @Test
    void everyTenantGetsItsDecapTableAndRule() throws Exception {
        String text = java.nio.file.Files.readString(Path.of("../../contracts/examples/leaf-spine-2x2.json"))
                .replace("\"tenants\": [\"default\"]", "\"tenants\": [\"default\", \"blue\"]");
        FabricPlan plan = Planner.plan(FabricJson.parse(text), null);
        assertThat(plan.vrfTable("blue")).isEqualTo(101);
        List<String> leaf2 = script(plan, "t").nodeLines().get("leaf2");
        assertThat(leaf2).contains(
                "route add fcbb:bb00:2:e001::/64 encap seg6local action End.DT6 table 101 dev sid0",
                "route add fcbb:bb00:e001::/48 encap seg6local action End.DT6 table 101 dev sid0",
                "route add 2001:db8:0:2::1/128 via fe80::1 dev p2 table 101",
                "rule add iif p2 lookup 101 pref 1001");
    }

    @Test
    void sidsHangOnAnAnchorDeviceAndComeBackWithReplaceAfterAPortWasDown() throws Exception {
        LabScript s = script(plan2x2(), "t");
        List<String> leaf1 = s.nodeLines().get("leaf1");
        assertThat(leaf1).contains("link add sid0 type veth peer name sid1", "link set sid0 up");
        assertThat(leaf1.indexOf("link add sid0 type veth peer name sid1"))
                .isLessThan(leaf1.indexOf("route add fcbb:bb00:1::/48 encap seg6local action End" + NEXT_CSID
                        + " dev sid0"));
        List<String> again = s.reapplyLines("leaf1");
        assertThat(again).contains("addr replace fe80::1/64 dev p0 nodad",
                "route replace fcbb:bb00:2::/48 nexthop via fe80::2 dev p0 nexthop via fe80::2 dev p1",
                "route replace 2001:db8:0:1::1/128 via fe80::1 dev p2 table 100");
        // Rules and the anchor survive a port going down; adding them again would fail or duplicate.
        assertThat(again).noneMatch(l -> l.startsWith("rule") || l.startsWith("link add") || l.contains(" add "));
    }

    @Test
    void evStage1OnALeafIsATablePerSpineSelectedByTheMarkOfEv1ModTwo() throws Exception {
        LabScript s = script(plan2x2(), "t");
        List<String> leaf1 = s.nodeLines().get("leaf1");
        assertThat(leaf1).contains(
                "route add fd00:ef7:2::/64 via fe80::2 dev p0 table 2000",
                "route add fd00:ef7:2::/64 via fe80::2 dev p1 table 2001",
                "route add 2001:db8:0:2::1/128 via fe80::2 dev p1 table 2001",
                "rule add fwmark 0x10000 lookup 2000 pref 900",
                "rule add fwmark 0x10001 lookup 2001 pref 900",
                "route add 2001:db8:0:2::1/128 table 100 nexthop via fe80::2 dev p0 nexthop via fe80::2 dev p1");
        String nft = s.nftScript("leaf1");
        // Hop limit 64 = stage 1, EV1 = the high byte; 0xc1 = 193 is odd, so spine2 (member 1).
        assertThat(nft).contains("ip6 hoplimit 64 meta mark set udp sport & 0xff00 map { 0 : 0x10000, 256 : 0x10001,",
                "49408 : 0x10001").doesNotContain("hoplimit 63");
    }

    @Test
    void evStage2OnAFatTreeSpineIndexesItsSuperspines() throws Exception {
        FabricPlan plan = Planner.plan(FatTreeGenerator.generate(FatTreeGenerator.kary(4)), null);
        String nft = script(plan, "t").nftScript("p1-spine1");
        assertThat(nft).contains("ip6 hoplimit 63 meta mark set udp sport & 0x00ff map { 0 : 0x20000, 1 : 0x20001,")
                .doesNotContain("hoplimit 64");
        assertThat(script(plan, "t").nodeLines().get("p1-spine1"))
                .contains("rule add fwmark 0x20000 lookup 2256 pref 900",
                        "rule add fwmark 0x20001 lookup 2257 pref 900");
        assertThat(EvScript.modulus(java.util.Map.of("a", List.of(new String[2], new String[2]),
                "b", List.of(new String[3], new String[3], new String[3])))).isEqualTo(6);
    }

    @Test
    void spineHasNoDecapNoVrfAndReachesBothLeaves() throws Exception {
        List<String> spine1 = script(plan2x2(), "t").nodeLines().get("spine1");
        assertThat(spine1).contains(
                "route add fcbb:bb00:11::/48 encap seg6local action End" + NEXT_CSID + " dev sid0",
                "route add fcbb:bb00:1::/48 via fe80::1 dev p0",
                "route add fcbb:bb00:2::/48 via fe80::1 dev p1",
                "route add fcbb:bb00:12::/48 nexthop via fe80::1 dev p0 nexthop via fe80::1 dev p1");
        // No decap, no NIC-port rules, no EV tables (a 2-tier spine's way down is unique);
        // its ports look up the tenant table for EV (plain) traffic, which carries no VRF tag.
        assertThat(spine1).noneMatch(l -> l.contains("End.DT6") || l.contains("fwmark") || l.contains("pref 1000"));
        assertThat(spine1).contains("rule add iif p0 lookup 100 pref 1100", "rule add iif p1 lookup 100 pref 1100",
                "route add 2001:db8:0:1::1/128 table 100 via fe80::1 dev p0");
        assertThat(script(plan2x2(), "t").nftScript("spine1")).isNull();
    }

    @Test
    void nicGetsItsPlannedAddressAndDefaultRouteViaItsLeaf() throws Exception {
        LabScript s = script(plan2x2(), "t");
        assertThat(s.nodeLines().get("nic1")).containsExactly(
                "link set lo up",
                "link set p0 up",
                "addr add fe80::1/64 dev p0 nodad",
                "addr add 2001:db8:0:1::1/128 dev p0 nodad",
                "route add default via fe80::2 dev p0");
        assertThat(s.sysctls("nic1")).noneMatch(x -> x.contains("forwarding"));
        assertThat(s.sysctls("leaf1"))
                .contains("net.ipv6.conf.all.forwarding=1", "net.ipv6.conf.default.seg6_enabled=1");
    }

    @Test
    void vethPairsAreCreatedInTheirNamespaces() throws Exception {
        LabScript s = script(plan2x2(), "t");
        assertThat(s.namespaceLines()).hasSize(8).contains("netns add wl-t-leaf1", "netns add wl-t-nic4");
        assertThat(s.vethLines()).hasSize(8).first()
                .isEqualTo("link add p0 netns wl-t-leaf1 type veth peer name p0 netns wl-t-spine1");
        assertThat(s.vethLines()).contains("link add p0 netns wl-t-nic1 type veth peer name p2 netns wl-t-leaf1");
    }

    @Test
    void uaIsAnEndXAtTheLocalSidBlockOverItsExactLink() throws Exception {
        Fabric f = LeafSpineGenerator.generate(new LeafSpineGenerator.Params("ls-par", 2, 1, 1, 2, 400, 400, 100, 500));
        FabricPlan plan = Planner.plan(f, null);
        Map<String, Integer> ua = plan.uaFunctions("leaf1");
        assertThat(ua).containsOnlyKeys("leaf1-spine1-1", "leaf1-spine1-2");
        List<String> leaf1 = script(plan, "t").nodeLines().get("leaf1");
        for (Map.Entry<String, Integer> e : ua.entrySet()) {
            String dev = e.getKey().endsWith("-1") ? "p0" : "p1";
            assertThat(leaf1).contains("route add fcbb:bb00:" + Integer.toHexString(e.getValue())
                    + "::/48 encap seg6local action End.X nh6 fe80::2 oif " + dev + NEXT_CSID + " dev " + dev);
        }
        // The plan's locator+function /64 would win the longest-prefix match and shift only the uN.
        assertThat(leaf1).noneMatch(l -> l.contains("End.X") && l.contains("/64"));
    }

    @Test
    void interfaceNamesFitLinuxLimitAndNamespacesCarryTheTag() {
        Fabric f = FatTreeGenerator.generate(FatTreeGenerator.kary(8));
        LabLayout layout = new LabLayout(f, "abc");
        for (var l : f.links()) {
            assertThat(layout.iface(l.id(), l.a().node())).hasSizeLessThanOrEqualTo(15);
            assertThat(layout.iface(l.id(), l.b().node())).hasSizeLessThanOrEqualTo(15);
        }
        assertThat(layout.namespaces().values()).allMatch(ns -> ns.startsWith("wl-abc-"));
        assertThat(layout.portMap()).hasSize(2 * f.links().size());
    }

    @Test
    void tagsThatCouldCollideAreRejected() {
        for (String bad : List.of("", "a-b", "Lab", "toolongtag", "a b")) {
            assertThatThrownBy(() -> LabLayout.checkTag(bad)).hasMessageStartingWith("tag: ");
        }
        LabLayout.checkTag("ft4");
    }

    @Test
    void layoutRejectsNodeIdsUnfitForNamespaceNames() {
        Fabric f = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(1, 1, 1));
        assertThatThrownBy(() -> new LabLayout(f, "t").iface("leaf1-spine1", "nic9"))
                .hasMessageContaining("nic9");
        assertThatThrownBy(() -> new LabLayout(f, "t").namespace("nope")).hasMessageContaining("nope");
    }
}
