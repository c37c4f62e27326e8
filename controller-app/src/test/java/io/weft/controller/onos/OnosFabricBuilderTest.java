package io.weft.controller.onos;

import static org.assertj.core.api.Assertions.assertThat;

import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricValidator;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.fabric.Role;
import org.junit.jupiter.api.Test;
import org.onosproject.net.DeviceId;

class OnosFabricBuilderTest {
    private final TestFabric t = new TestFabric();

    @Test
    void buildsSwitchesNicsAndFullDuplexLinks() {
        BuiltFabric built = t.builder().build();
        Fabric f = built.fabric();

        assertThat(built.problems()).isEmpty();
        assertThat(f.id()).isEqualTo("lab");
        assertThat(f.srv6Block()).isEqualTo("fcbb:bb00::/32");
        assertThat(f.nodes()).extracting(Node::id)
                .containsExactly("leaf1", "leaf2", "spine1", "spine2", "nic1", "nic2");
        assertThat(f.node("spine1").role()).isEqualTo(Role.SPINE);
        assertThat(f.node("spine1").srv6NodeId()).isEqualTo(17);
        assertThat(f.node("nic1").role()).isEqualTo(Role.NIC);
        assertThat(f.node("nic1").server()).isEqualTo("srv1");
        // 8 unidirectional ONOS links become 4 fabric links, plus one per NIC
        assertThat(f.links()).extracting(Link::id).containsExactly(
                "leaf1.eth1-spine1.eth1", "leaf1.eth2-spine2.eth1", "leaf2.eth1-spine1.eth2",
                "leaf2.eth2-spine2.eth2", "nic1.eth0-leaf1.eth3", "nic2.eth0-leaf2.eth3");
        Link l = f.link("leaf2.eth1-spine1.eth2");
        assertThat(l.a().node()).isEqualTo("leaf2");
        assertThat(l.a().port()).isEqualTo("eth1");
        assertThat(l.b().node()).isEqualTo("spine1");
        assertThat(l.b().port()).isEqualTo("eth2");
        assertThat(l.capacityGbps()).isEqualTo(400.0);
        assertThat(l.latencyNs()).isEqualTo(500L);
        assertThat(built.linkStates()).hasSize(6).containsValue(LinkState.UP).doesNotContainValue(LinkState.DOWN);
        assertThat(built.nodeIds()).containsEntry(DeviceId.deviceId("device:spine2"), "spine2");
    }

    @Test
    void builtFabricPassesTheCoreValidator() {
        assertThat(FabricValidator.validate(t.builder().build().fabric())).isEmpty();
    }

    @Test
    void devicesWithoutWeftConfigAndTheirLinksAreNotInTheFabric() {
        t.devices.addDevice("device:mgmt1");
        t.devices.addPort("device:mgmt1", 1, "eth1", 1000);
        t.links.addDuplex("device:mgmt1/1", "device:spine1/9");

        Fabric f = t.builder().build().fabric();

        assertThat(f.node("mgmt1")).isNull();
        assertThat(f.nodes()).hasSize(6);
        assertThat(f.links()).hasSize(6);
    }

    @Test
    void invalidDeviceConfigLeavesTheDeviceOutAndSaysWhy() {
        t.configs.putDevice("device:spine2", Fixtures.inline("{'role':'spine','srv6NodeId':0}"));

        BuiltFabric built = t.builder().build();

        assertThat(built.fabric().node("spine2")).isNull();
        assertThat(built.fabric().links()).extracting(Link::id).noneMatch(id -> id.contains("spine2"));
        assertThat(built.problems()).containsExactly(
                "device:spine2: left out, netcfg weft: srv6NodeId: must be an integer in 1..57343");
    }

    @Test
    void oneMissingDirectionKeepsTheLinkButMarksItDown() {
        t.links.remove("device:spine1/1", "device:leaf1/1");

        BuiltFabric built = t.builder().build();

        assertThat(built.fabric().link("leaf1.eth1-spine1.eth1")).isNotNull();
        assertThat(built.linkStates()).containsEntry("leaf1.eth1-spine1.eth1", LinkState.DOWN)
                .containsEntry("leaf1.eth2-spine2.eth1", LinkState.UP);
    }

    @Test
    void inactiveDirectionMarksTheLinkDown() {
        t.links.remove("device:leaf2/2", "device:spine2/2");
        t.links.add("device:leaf2/2", "device:spine2/2", org.onosproject.net.Link.State.INACTIVE, null);

        assertThat(t.builder().build().linkStates()).containsEntry("leaf2.eth2-spine2.eth2", LinkState.DOWN);
    }

    @Test
    void capacityIsTheSlowerPortAndLatencyTheSlowerDirection() {
        t.devices.addPort("device:spine2", 1, "eth1", 100_000); // replaces the 400G port
        t.links.remove("device:leaf1/2", "device:spine2/1");
        t.links.remove("device:spine2/1", "device:leaf1/2");
        t.links.add("device:leaf1/2", "device:spine2/1", org.onosproject.net.Link.State.ACTIVE, "700");
        t.links.add("device:spine2/1", "device:leaf1/2", org.onosproject.net.Link.State.ACTIVE, "900");

        Link l = t.builder().build().fabric().link("leaf1.eth2-spine2.eth1");

        assertThat(l.capacityGbps()).isEqualTo(100.0);
        assertThat(l.latencyNs()).isEqualTo(900L);
    }

    @Test
    void unknownPortSpeedFallsBackToTheConfiguredDefault() {
        t.devices.addPort("device:leaf1", 1, "eth1", 0);
        t.devices.addPort("device:spine1", 1, "eth1", 0);
        t.configs.putApp(TestFabric.APP_ID, Fixtures.inline("{'defaultCapacityGbps':800,'defaultLatencyNs':250}"));

        Link l = t.builder().build().fabric().link("leaf1.eth1-spine1.eth1");

        assertThat(l.capacityGbps()).isEqualTo(800.0);
        assertThat(l.latencyNs()).isEqualTo(250L);
    }

    @Test
    void withoutNamesNodeIdsComeFromDeviceIdsAndPortNamesFromNumbers() {
        FakeDeviceService devices = new FakeDeviceService();
        FakeLinkService links = new FakeLinkService();
        FakeConfigService configs = new FakeConfigService();
        devices.addDevice("of:0000000000000001");
        devices.addDevice("of:0000000000000002");
        links.addDuplex("of:0000000000000001/7", "of:0000000000000002/8");
        configs.putDevice("of:0000000000000001", Fixtures.inline("{'role':'leaf'}"));
        configs.putDevice("of:0000000000000002", Fixtures.inline("{'role':'spine'}"));

        BuiltFabric built = new OnosFabricBuilder(devices, links, configs, TestFabric.APP_ID).build();

        assertThat(built.fabric().id()).isEqualTo("onos");
        assertThat(built.fabric().nodes()).extracting(Node::id)
                .containsExactly("of-0000000000000001", "of-0000000000000002");
        assertThat(built.fabric().node("of-0000000000000001").name()).isEqualTo("of:0000000000000001");
        assertThat(built.fabric().links()).extracting(Link::id)
                .containsExactly("of-0000000000000001.7-of-0000000000000002.8");
        assertThat(FabricValidator.validate(built.fabric())).isEmpty();
    }

    @Test
    void nicOnANonWeftDeviceIsLeftOutWithAReason() {
        t.configs.putApp(TestFabric.APP_ID, Fixtures.inline(
                "{'nics':[{'id':'nic9','attach':'device:leaf9/3'}]}"));

        BuiltFabric built = t.builder().build();

        assertThat(built.fabric().node("nic9")).isNull();
        assertThat(built.problems()).singleElement().asString()
                .startsWith("nic nic9: left out, device:leaf9 is not a Weft device");
    }

    @Test
    void invalidAppConfigIsReportedAndDefaultsKeepTheSwitches() {
        t.configs.putApp(TestFabric.APP_ID, Fixtures.inline("{'block':'nope'}"));

        BuiltFabric built = t.builder().build();

        assertThat(built.fabric().id()).isEqualTo("onos");
        assertThat(built.fabric().nodesWithRole(Role.LEAF)).hasSize(2);
        assertThat(built.problems()).containsExactly(
                "app config weft: block: must be an IPv6 /32 prefix such as fcbb:bb00::/32");
    }

    @Test
    void duplicateNamesKeepTheFirstDeviceInIdOrder() {
        t.configs.putDevice("device:spine2", Fixtures.inline("{'role':'spine','name':'spine1'}"));

        BuiltFabric built = t.builder().build();

        assertThat(built.nodeIds()).containsEntry(DeviceId.deviceId("device:spine1"), "spine1")
                .doesNotContainKey(DeviceId.deviceId("device:spine2"));
        assertThat(built.problems()).containsExactly(
                "device:spine2: left out, fabric node id spine1 is already taken");
    }

    @Test
    void sameInputsGiveTheSameFabric() {
        assertThat(io.weft.fabric.FabricJson.write(t.builder().build().fabric()))
                .isEqualTo(io.weft.fabric.FabricJson.write(t.builder().build().fabric()));
    }

    @Test
    void nicOnASpineIsLeftOutBecauseNicsAttachToLeaves() {
        t.configs.putApp(TestFabric.APP_ID, Fixtures.inline("{'nics':[{'id':'nic7','attach':'device:spine1/7'}]}"));

        BuiltFabric built = t.builder().build();

        assertThat(built.fabric().node("nic7")).isNull();
        assertThat(built.problems()).containsExactly(
                "nic nic7: left out, spine1 is a spine (NICs attach to a leaf or a router)");
        assertThat(FabricValidator.validate(built.fabric())).isEmpty();
    }

    @Test
    void aPortCabledTwiceKeepsTheFirstLinkSoTheFabricStillValidates() {
        // discovery also reports leaf1 port 1 to spine2 port 9 (e.g. through a passive tap)
        t.links.addDuplex("device:leaf1/1", "device:spine2/9");
        // and a NIC is configured on a leaf port that already goes to a spine
        t.configs.putApp(TestFabric.APP_ID, Fixtures.inline("{'nics':[{'id':'nic1','attach':'device:leaf1/2'}]}"));

        BuiltFabric built = t.builder().build();

        assertThat(built.fabric().link("leaf1.eth1-spine1.eth1")).isNotNull();
        assertThat(built.problems()).containsExactly(
                "link leaf1.eth1-spine2.9: left out, port leaf1:eth1 already carries leaf1.eth1-spine1.eth1",
                "link nic1.eth0-leaf1.eth2: left out, port leaf1:eth2 already carries leaf1.eth2-spine2.eth1");
        assertThat(built.fabric().node("nic1")).isNull();
        assertThat(FabricValidator.validate(built.fabric())).isEmpty();
    }

    @Test
    void aSwitchThatLostAllItsLinksStaysAndTheFabricStillValidates() {
        String[][] spine2Links = {{"device:leaf1/2", "device:spine2/1"}, {"device:leaf2/2", "device:spine2/2"}};
        for (String[] l : spine2Links) {
            t.links.remove(l[0], l[1]);
            t.links.remove(l[1], l[0]);
        }

        BuiltFabric built = t.builder().build();

        assertThat(built.fabric().node("spine2")).isNotNull();
        assertThat(built.fabric().linksOf("spine2")).isEmpty();
        assertThat(FabricValidator.validate(built.fabric())).isEmpty();
    }

    @Test
    void nicLinkIsDownWhenItsLeafIsUnavailableOrItsPortDisabled() {
        t.devices.unavailable.add(DeviceId.deviceId("device:leaf1"));
        t.devices.addPort("device:leaf2", 3, "eth3", TestFabric.SPEED_400G_MBPS, false);

        BuiltFabric built = t.builder().build();

        assertThat(built.linkStates()).containsEntry("nic1.eth0-leaf1.eth3", LinkState.DOWN)
                .containsEntry("nic2.eth0-leaf2.eth3", LinkState.DOWN)
                .containsEntry("leaf2.eth1-spine1.eth2", LinkState.UP);
    }
}
