package io.weft.controller.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.weft.fabric.FabricJson;
import io.weft.plan.Planner;
import io.weft.southbound.gnmi.FakeSwitch;
import io.weft.southbound.gnmi.Provisioner;
import io.weft.southbound.gnmi.ProvisionerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Targets from the fabric file's gnmi objects, credentials from the environment, the exposition formats. */
class DeviceProvisioningTest {
    private final List<String> problems = new ArrayList<>();
    private final List<FakeSwitch> fakes = new ArrayList<>();
    private DeviceProvisioning devices;

    @AfterEach
    void stop() {
        if (devices != null) {
            devices.close();
        }
        fakes.forEach(FakeSwitch::close);
    }

    @Test
    void onlySwitchesWithAGnmiObjectAreProvisionedWithTheirCredentials() throws Exception {
        String fabric = TestFabrics.leafSpine("fab", 2, 1, 400)
                .replace("\"id\" : \"leaf1\",", "\"id\" : \"leaf1\", \"gnmi\": {\"address\": \"dp-leaf1\", "
                        + "\"usernameEnv\": \"GNMI_USER\", \"passwordEnv\": \"GNMI_PW\"},")
                .replace("\"id\" : \"spine1\",", "\"id\" : \"spine1\", \"gnmi\": {\"address\": \"dp-spine1\", "
                        + "\"usernameEnv\": \"UNSET_USER\"},");
        FakeSwitch leaf1 = new FakeSwitch("dp-leaf1").start();
        FakeSwitch spine1 = new FakeSwitch("dp-spine1").start();
        fakes.add(leaf1);
        fakes.add(spine1);
        Provisioner p = new Provisioner(ProvisionerConfig.defaults(),
                t -> InProcessChannelBuilder.forName(t.address()).build(), problems::add);
        devices = new DeviceProvisioning(p, Map.of("GNMI_USER", "weft", "GNMI_PW", "pw")::get, problems::add);

        devices.onPlan(Planner.plan(FabricJson.parse(fabric), null));
        long end = System.currentTimeMillis() + 10_000;
        while (devices.stateNames().size() < 2 || devices.stateNames().containsValue("pending")) {
            assertThat(System.currentTimeMillis()).as("in sync within 10 s: " + devices.stateNames()).isLessThan(end);
            Thread.sleep(10);
        }
        assertThat(devices.stateNames()).containsExactly(Map.entry("leaf1", "in-sync"), Map.entry("spine1", "in-sync"));
        assertThat(leaf1.lastHeaders.get(io.grpc.Metadata.Key.of("username", io.grpc.Metadata.ASCII_STRING_MARSHALLER)))
                .isEqualTo("weft");
        assertThat(problems).containsExactly("switch spine1: gnmi.usernameEnv names UNSET_USER, which is not set");

        JsonNode json = devices.devicesJson();
        assertThat(json.path("counts").path("in-sync").asInt()).isEqualTo(2);
        assertThat(json.path("counts").path("rejected").asInt()).isZero();
        assertThat(json.path("devices").get(0).path("endpoint").asText()).isEqualTo("dp-leaf1:9339");
        assertThat(devices.snapshotStates().path("spine1").path("lastSyncAt").asText()).endsWith("Z");

        String metrics = devices.metrics();
        assertThat(metrics).contains("# TYPE weft_device_state gauge")
                .contains("weft_device_state{device=\"spine1\",state=\"in-sync\"} 1")
                .contains("weft_device_state{device=\"spine1\",state=\"rejected\"} 0")
                .contains("weft_devices{state=\"in-sync\"} 2")
                .contains("weft_device_sets_total{device=\"leaf1\"} 1");
        for (String line : metrics.split("\n")) {
            assertThat(line).as("exposition line").matches("# (HELP|TYPE) .*|[a-z_]+\\{[^}]*\\} [0-9.E]+");
        }
    }
}
