package io.weft.controller.onos;

import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_RESYNC_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_TIMEOUT_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.PUBLISH_RETRY_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.REPLAN_DEBOUNCE_MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.plan.intent.DeviceIntent;
import io.weft.southbound.gnmi.DeviceState;
import io.weft.southbound.gnmi.DeviceStatus;
import io.weft.southbound.gnmi.FakeSwitch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.onosproject.cfg.ComponentConfigAdapter;
import org.onosproject.net.DeviceId;

/**
 * The app's gNMI provisioning end to end, minus ONOS: the plan owner ({@link PlanProvisioner} on
 * ONOS's service adapters) hands its plan to {@link GnmiDeviceProvisioner}, whose embedded client
 * (the relocated copy the bundle carries) talks over loopback TCP to gNMI servers playing the
 * switches (the southbound's FakeSwitch, relocated onto the same gRPC copy). Switch states then
 * reach the published snapshot and the {@code weft-devices} output.
 */
class GnmiProvisioningTest {
    private final TestFabric t = new TestFabric();
    private final FakeMastershipService mastership = new FakeMastershipService();
    private final RecordingPublisher published = new RecordingPublisher();
    private final PlanProvisioner planner = new PlanProvisioner();
    private final GnmiDeviceProvisioner gnmi = new GnmiDeviceProvisioner();
    private final Map<String, FakeSwitch> fakes = new LinkedHashMap<>();

    @AfterEach
    void stop() {
        planner.deactivate();
        gnmi.deactivate();
        fakes.values().forEach(FakeSwitch::close);
    }

    /** leaf1, leaf2 and spine1 answer on loopback; spine2 names a port nobody listens on. */
    private void start(String rejectOnSpine1, int resyncMs) throws Exception {
        for (String sw : List.of("leaf1", "leaf2", "spine1")) {
            FakeSwitch f = FakeSwitch.tcp(sw).start();
            fakes.put(sw, f);
        }
        fakes.get("spine1").rejectPath = rejectOnSpine1;
        for (String sw : List.of("leaf1", "leaf2", "spine1", "spine2")) {
            int port = fakes.containsKey(sw) ? fakes.get(sw).port() : closedPort();
            String id = "spine1".equals(sw) ? "17" : "spine2".equals(sw) ? "18" : null;
            t.configs.putDevice("device:" + sw, Fixtures.inline("{'role':'" + (sw.startsWith("leaf") ? "leaf" : "spine")
                    + "','name':'" + sw + "'" + (id == null ? "" : ",'srv6NodeId':" + id)
                    + ",'gnmi':{'address':'127.0.0.1','port':" + port + ",'username':'weft','password':'pw'}}"));
        }
        gnmi.componentConfigService = new ComponentConfigAdapter();
        gnmi.activate(new ContextWith(GNMI_TIMEOUT_MS, 1000, GNMI_RESYNC_MS, resyncMs));
        PlanProvisionerTest.wire(planner, t, mastership, new ArrayList<>());
        planner.switchProvisioning = gnmi;
        planner.publisher = published;
        planner.activate(new ContextWith(REPLAN_DEBOUNCE_MS, 0, PUBLISH_RETRY_MS, 0));
        planner.awaitIdle();
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private DeviceStatus awaitState(String sw, DeviceState state, long timeoutMs) throws Exception {
        long end = System.currentTimeMillis() + timeoutMs;
        DeviceStatus last = null;
        while (System.currentTimeMillis() < end) {
            for (DeviceStatus d : gnmi.devices()) {
                if (d.device().equals(sw)) {
                    last = d;
                }
            }
            if (last != null && last.state() == state) {
                return last;
            }
            Thread.sleep(20);
        }
        throw new AssertionError(sw + " not " + state + " within " + timeoutMs + " ms; last: " + last);
    }

    /** The last published snapshot once its deviceStates show every expected state. */
    private ObjectNode awaitSnapshotStates(Map<String, String> expected, long timeoutMs) throws Exception {
        long end = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < end) {
            planner.awaitIdle();
            ObjectNode last = published.last();
            JsonNode states = last.path("deviceStates");
            boolean all = true;
            for (Map.Entry<String, String> e : expected.entrySet()) {
                all &= e.getValue().equals(states.path(e.getKey()).path("state").asText());
            }
            if (all) {
                return last;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("snapshot never showed " + expected + "; last: "
                + published.last().path("deviceStates"));
    }

    @Test
    void theBundlesClientPushesEverySwitchAndTheSnapshotAndCliShowWhereEachStands() throws Exception {
        // Reject one of spine1's ops the way a switch refuses a path it cannot apply.
        String bad = DeviceIntent.render(planOf(), "spine1").get("replace").get(1).get("path").asText();
        start(bad, 60_000);

        DeviceStatus leaf1 = awaitState("leaf1", DeviceState.IN_SYNC, 10_000);
        awaitState("leaf2", DeviceState.IN_SYNC, 10_000);
        DeviceStatus spine1 = awaitState("spine1", DeviceState.REJECTED, 10_000);
        DeviceStatus spine2 = awaitState("spine2", DeviceState.UNREACHABLE, 10_000);

        // What the switch holds is the plan's intent for it, sent with the netcfg credentials.
        ObjectNode intent = planner.intent("device:leaf1");
        assertThat(fakes.get("leaf1").store).hasSize(intent.get("replace").size());
        assertThat(fakes.get("leaf1").sets).hasSize(1);
        assertThat(fakes.get("leaf1").lastHeaders.toString()).contains("username=weft");
        assertThat(leaf1.endpoint()).isEqualTo("127.0.0.1:" + fakes.get("leaf1").port());
        assertThat(spine1.lastError()).contains("spine1").contains(bad).contains("INVALID_ARGUMENT");
        assertThat(fakes.get("spine1").store).as("all or nothing").isEmpty();
        assertThat(spine2.lastError()).contains("spine2");

        // The states reach the snapshot as a new version of the same plan.
        ObjectNode snap = awaitSnapshotStates(Map.of("leaf1", "in-sync", "leaf2", "in-sync", "spine1", "rejected",
                "spine2", "unreachable"), 10_000);
        assertThat(snap.path("version").asLong()).isGreaterThan(1);
        assertThat(snap.path("deviceStates").path("spine1").path("lastError").asText()).contains(bad);
        assertThat(snap.path("deviceStates").path("leaf1").has("lastSyncAt")).isTrue();
        assertThat(snap.path("plan")).isEqualTo(published.snapshots.get(0).path("plan"));

        // weft-devices: one line per switch with its ONOS device id; JSON like GET /devices.
        Map<String, DeviceId> ids = DevicesSummary.deviceIds(planner.current());
        List<String> lines = DevicesSummary.lines(gnmi.devices(), ids);
        assertThat(lines.get(0)).isEqualTo("4 switch(es) provisioned over gNMI, 2 in-sync, 1 unreachable, 1 rejected");
        assertThat(lines).anyMatch(l -> l.startsWith("spine1 device=device:spine1 ") && l.contains("state=REJECTED")
                && l.contains("error=") && l.contains(bad));
        ObjectNode json = DevicesSummary.json(gnmi.devices(), ids);
        assertThat(json.path("counts").path("in-sync").asInt()).isEqualTo(2);
        assertThat(json.path("devices").get(0).path("onosDevice").asText()).isEqualTo("device:leaf1");

        // GET /onos/weft/metrics: the same states as Prometheus gauges, served from the app's REST resource.
        WeftWebResource.services = new org.onlab.osgi.TestServiceDirectory().add(WeftDeviceService.class, gnmi);
        try {
            javax.ws.rs.core.Response r = new WeftWebResource().metrics();
            assertThat(r.getStatus()).isEqualTo(200);
            String text = (String) r.getEntity();
            assertThat(text).contains("# TYPE weft_device_state gauge")
                    .contains("weft_device_state{device=\"leaf1\",state=\"in-sync\"} 1")
                    .contains("weft_device_state{device=\"leaf1\",state=\"pending\"} 0")
                    .contains("weft_device_state{device=\"spine1\",state=\"rejected\"} 1")
                    .contains("weft_device_state{device=\"spine2\",state=\"unreachable\"} 1")
                    .contains("weft_devices{state=\"in-sync\"} 2")
                    .containsPattern("weft_device_sets_total\\{device=\"leaf1\"\\} [1-9]");
        } finally {
            WeftWebResource.services = new org.onlab.osgi.DefaultServiceDirectory();
        }
    }

    @Test
    void aSwitchThatComesBackIsSyncedWithoutAManualStep() throws Exception {
        start(null, 300);
        awaitState("leaf1", DeviceState.IN_SYNC, 10_000);
        int setsBefore = fakes.get("leaf1").sets.size();

        // The switch restarts with an empty config; the periodic read-back (gnmiResyncMs) finds it.
        fakes.get("leaf1").restartEmpty();

        long end = System.currentTimeMillis() + 10_000;
        while (fakes.get("leaf1").sets.size() == setsBefore && System.currentTimeMillis() < end) {
            Thread.sleep(20);
        }
        awaitState("leaf1", DeviceState.IN_SYNC, 10_000);
        assertThat(fakes.get("leaf1").sets).as("pushed again").hasSizeGreaterThan(setsBefore);
        assertThat(fakes.get("leaf1").store).hasSize(planner.intent("leaf1").get("replace").size());
    }

    @Test
    void changedTunablesRebuildTheClientAndKeepProvisioning() throws Exception {
        start(null, 60_000);
        awaitState("leaf2", DeviceState.IN_SYNC, 10_000);

        gnmi.modified(new ContextWith(GNMI_TIMEOUT_MS, 2000, GNMI_RESYNC_MS, 60_000));
        assertThat(gnmi.config().rpcTimeoutMs()).isEqualTo(2000);
        gnmi.modified(new ContextWith(GNMI_TIMEOUT_MS, 0, GNMI_RESYNC_MS, 60_000));
        assertThat(gnmi.config().rpcTimeoutMs()).as("0 is refused").isEqualTo(2000);

        awaitState("leaf2", DeviceState.IN_SYNC, 10_000);
        assertThat(gnmi.devices()).hasSize(4);
    }

    /** A fresh plan of the test fabric (the intents only depend on the fabric and the pinned ids). */
    private io.weft.plan.FabricPlan planOf() throws Exception {
        return io.weft.plan.Planner.plan(t.builder().build().fabric(), null);
    }
}
