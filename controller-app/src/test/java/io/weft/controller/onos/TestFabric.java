package io.weft.controller.onos;

import org.onosproject.TestApplicationId;
import org.onosproject.core.ApplicationId;

/**
 * A 2-leaf, 2-spine fabric as ONOS would see it: four devices, 400G ports named eth1.., both
 * directions of every leaf-spine link, a weft netcfg per device, and one NIC behind each leaf.
 * <pre>
 *   spine1 (device:spine1)      spine2 (device:spine2)
 *    1|    \2                  1/    |2
 *   leaf1 (device:leaf1)        leaf2 (device:leaf2)       leafN port 1 -> spine1, 2 -> spine2, 3 -> NIC
 * </pre>
 */
final class TestFabric {
    static final ApplicationId APP_ID = new TestApplicationId(MainComponent.APP_NAME);
    static final long SPEED_400G_MBPS = 400_000;

    final FakeDeviceService devices = new FakeDeviceService();
    final FakeLinkService links = new FakeLinkService();
    final FakeConfigService configs = new FakeConfigService();

    TestFabric() {
        for (String leaf : new String[] {"leaf1", "leaf2"}) {
            devices.addDevice("device:" + leaf);
            devices.addPort("device:" + leaf, 1, "eth1", SPEED_400G_MBPS);
            devices.addPort("device:" + leaf, 2, "eth2", SPEED_400G_MBPS);
            devices.addPort("device:" + leaf, 3, "eth3", SPEED_400G_MBPS);
        }
        for (String spine : new String[] {"spine1", "spine2"}) {
            devices.addDevice("device:" + spine);
            devices.addPort("device:" + spine, 1, "eth1", SPEED_400G_MBPS);
            devices.addPort("device:" + spine, 2, "eth2", SPEED_400G_MBPS);
        }
        links.addDuplex("device:leaf1/1", "device:spine1/1");
        links.addDuplex("device:leaf1/2", "device:spine2/1");
        links.addDuplex("device:leaf2/1", "device:spine1/2");
        links.addDuplex("device:leaf2/2", "device:spine2/2");
        configs.putDevice("device:leaf1", Fixtures.inline("{'role':'leaf','name':'leaf1'}"));
        configs.putDevice("device:leaf2", Fixtures.inline("{'role':'leaf','name':'leaf2'}"));
        configs.putDevice("device:spine1", Fixtures.inline("{'role':'spine','name':'spine1','srv6NodeId':17}"));
        configs.putDevice("device:spine2", Fixtures.inline("{'role':'spine','name':'spine2','srv6NodeId':18}"));
        configs.putApp(APP_ID, Fixtures.inline("{'fabricId':'lab','nics':["
                + "{'id':'nic1','attach':'device:leaf1/3','server':'srv1'},"
                + "{'id':'nic2','attach':'device:leaf2/3','server':'srv2'}]}"));
    }

    OnosFabricBuilder builder() {
        return new OnosFabricBuilder(devices, links, configs, APP_ID);
    }
}
