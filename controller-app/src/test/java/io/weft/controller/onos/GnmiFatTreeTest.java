package io.weft.controller.onos;

import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_RESYNC_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_TIMEOUT_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.PUBLISH_RETRY_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.REPLAN_DEBOUNCE_MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.plan.FabricPlan;
import io.weft.plan.intent.DeviceIntent;
import io.weft.southbound.gnmi.DeviceState;
import io.weft.southbound.gnmi.DeviceStatus;
import io.weft.southbound.gnmi.FakeSwitch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.onosproject.cfg.ComponentConfigAdapter;
import org.onosproject.event.EventListener;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.link.LinkEvent;
import org.onosproject.net.link.LinkListener;

/**
 * The k=8 fat-tree of lab-topologies/examples (80 switches) as ONOS would show it, every switch a
 * gNMI server on loopback: the app brings all of them in sync, and after one link goes away it
 * re-pushes exactly the switches whose device intent changed, nothing to the others. Prints the
 * times (they depend on the machine's load; nothing is asserted about them).
 */
class GnmiFatTreeTest {
    private final Map<String, FakeSwitch> fakes = new TreeMap<>();
    private final PlanProvisioner planner = new PlanProvisioner();
    private final GnmiDeviceProvisioner gnmi = new GnmiDeviceProvisioner();
    private final RecordingPublisher published = new RecordingPublisher();

    @AfterEach
    void stop() {
        planner.deactivate();
        gnmi.deactivate();
        fakes.values().forEach(FakeSwitch::close);
    }

    @Test
    void allInSyncThenOneLinkDownRepushesExactlyTheChangedSwitches() throws Exception {
        Fabric fabric = FabricJson.read(Paths.get("..").resolve("lab-topologies/examples/fat-tree-k8.json"));
        OnosView view = OnosView.of(fabric);
        List<DeviceId> ids = new ArrayList<>();
        view.devices.getDevices().forEach(d -> ids.add(d.id()));
        for (DeviceId id : ids) {
            String node = id.toString().substring("device:".length());
            FakeSwitch f = FakeSwitch.tcp(node).start();
            fakes.put(node, f);
            ObjectNode cfg = view.configs.getConfig(id, WeftDeviceConfig.class).node().deepCopy();
            cfg.putObject("gnmi").put("address", "127.0.0.1").put("port", f.port());
            view.configs.putDevice(id.toString(), cfg);
        }
        FakeMastershipService mastership = new FakeMastershipService();
        ids.forEach(id -> mastership.master(id.toString(), FakeMastershipService.LOCAL));
        MainComponent main = new MainComponent();
        main.coreService = new FakeCoreService();
        main.configRegistry = view.configs;
        main.activate();
        gnmi.componentConfigService = new ComponentConfigAdapter();
        gnmi.activate(new ContextWith(GNMI_TIMEOUT_MS, 10_000, GNMI_RESYNC_MS, 600_000));
        planner.mainComponent = main;
        planner.deviceService = view.devices;
        planner.linkService = view.links;
        planner.configService = view.configs;
        planner.mastershipService = mastership;
        planner.componentConfigService = new ComponentConfigAdapter();
        planner.switchProvisioning = gnmi;
        planner.publisher = published;

        long t0 = System.nanoTime();
        planner.activate(new ContextWith(REPLAN_DEBOUNCE_MS, 0, PUBLISH_RETRY_MS, 0));
        planner.awaitIdle();
        awaitAllInSync(fakes.size(), 120_000);
        long fullMs = (System.nanoTime() - t0) / 1_000_000;
        FabricPlan before = planner.current().plan();
        Map<String, Integer> setsBefore = new TreeMap<>();
        fakes.forEach((sw, f) -> setsBefore.put(sw, f.sets.size()));
        assertThat(setsBefore.values()).as("one Set per switch for the full push").containsOnly(1);

        // One leaf-spine link of a pod goes away (both directions).
        Link gone = null;
        for (Link l : view.links.getLinks()) {
            if (l.src().deviceId().toString().contains("leaf") && l.dst().deviceId().toString().contains("spine")) {
                gone = l;
                break;
            }
        }
        assertThat(gone).as("a leaf-spine link in the k=8 fat-tree").isNotNull();
        Link a = view.links.remove(gone.src().toString(), gone.dst().toString());
        Link b = view.links.remove(gone.dst().toString(), gone.src().toString());
        long t1 = System.nanoTime();
        deliver(view.links.listeners, new LinkEvent(LinkEvent.Type.LINK_REMOVED, a));
        deliver(view.links.listeners, new LinkEvent(LinkEvent.Type.LINK_REMOVED, b));
        planner.awaitIdle();
        FabricPlan after = planner.current().plan();
        assertThat(after).isNotSameAs(before);
        TreeSet<String> changed = new TreeSet<>();
        for (String sw : fakes.keySet()) {
            if (!DeviceIntent.render(before, sw).equals(DeviceIntent.render(after, sw))) {
                changed.add(sw);
            }
        }
        TreeSet<String> repushed = new TreeSet<>();
        long end = System.currentTimeMillis() + 120_000;
        while (System.currentTimeMillis() < end) {
            repushed.clear();
            fakes.forEach((sw, f) -> {
                if (f.sets.size() > setsBefore.get(sw)) {
                    repushed.add(sw);
                }
            });
            if (repushed.size() >= changed.size() && allInSync()) {
                break;
            }
            Thread.sleep(10);
        }
        long replanMs = (System.nanoTime() - t1) / 1_000_000;
        awaitAllInSync(fakes.size(), 10_000);

        assertThat(changed).as("switches whose intent changed").isNotEmpty().hasSizeLessThan(fakes.size());
        assertThat(repushed).as("switches that got a Set").isEqualTo(changed);
        for (String sw : changed) {
            assertThat(fakes.get(sw).store).as(sw).hasSize(DeviceIntent.render(after, sw).get("replace").size());
        }
        System.out.printf("gnmi k=8 via the ONOS app: %d switches in sync %d ms after activation; one link down: "
                + "%d switches re-pushed, all in sync %d ms after the link events (load %s)%n", fakes.size(), fullMs,
                changed.size(), replanMs, loadAverage());
    }

    private boolean allInSync() {
        List<DeviceStatus> d = gnmi.devices();
        return d.size() == fakes.size() && d.stream().allMatch(s -> s.state() == DeviceState.IN_SYNC);
    }

    private void awaitAllInSync(int n, long timeoutMs) throws Exception {
        long end = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < end) {
            if (allInSync()) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("not all " + n + " switches in sync: " + gnmi.devices());
    }

    private static void deliver(List<LinkListener> listeners, LinkEvent event) {
        for (EventListener<LinkEvent> l : listeners) {
            if (l.isRelevant(event)) {
                l.event(event);
            }
        }
    }

    private static String loadAverage() {
        try {
            return new String(java.nio.file.Files.readAllBytes(Paths.get("/proc/loadavg"))).trim();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
