package io.weft.controller.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.FabricJson;
import io.weft.southbound.gnmi.FakeSwitch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The standalone controller configuring switches named in the fabric file over gNMI on loopback TCP
 * (grpc-netty on both sides): states at GET /devices and GET /metrics and in the published snapshot,
 * an unreachable switch next to healthy ones, and a re-plan after an edit sending only what changed.
 */
class ProvisioningEndToEndTest {
    @TempDir
    Path dir;

    private final Map<String, FakeSwitch> fakes = new LinkedHashMap<>();
    private StandaloneController controller;
    private final HttpClient http = HttpClient.newHttpClient();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.close();
        }
        fakes.values().forEach(FakeSwitch::close);
    }

    @Test
    void switchesInTheFabricFileAreConfiguredAndReported() throws Exception {
        for (String sw : new String[] {"leaf1", "leaf2", "spine1"}) {
            fakes.put(sw, FakeSwitch.tcp(sw).start());
        }
        int deadPort;
        try (ServerSocket s = new ServerSocket(0)) {
            deadPort = s.getLocalPort(); // closed again: nothing listens there
        }
        ObjectNode fabric = (ObjectNode) FabricJson.mapper().readTree(TestFabrics.leafSpine("fab", 2, 2, 400));
        for (JsonNode n : fabric.get("nodes")) {
            String id = n.get("id").asText();
            if (fakes.containsKey(id)) {
                ((ObjectNode) n).putObject("gnmi").put("address", "127.0.0.1").put("port", fakes.get(id).port());
            } else if (id.equals("spine2")) {
                ((ObjectNode) n).putObject("gnmi").put("address", "127.0.0.1").put("port", deadPort);
            }
        }
        Path file = dir.resolve("fabric.json");
        Files.writeString(file, fabric.toPrettyString());
        controller = StandaloneController.start(new ControllerOptions(file, null, "127.0.0.1", 0,
                dir.resolve("state"), 50),
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true));

        JsonNode devices = awaitJson("/devices", d -> d.path("counts").path("in-sync").asInt() == 3
                && d.path("counts").path("unreachable").asInt() == 1);
        JsonNode spine2 = byDevice(devices, "spine2");
        assertThat(spine2.path("lastError").asText()).contains("spine2").contains("127.0.0.1:" + deadPort);
        assertThat(spine2.path("lastSyncAt").isNull()).isTrue();
        JsonNode leaf1 = byDevice(devices, "leaf1");
        assertThat(leaf1.path("lastError").isNull()).isTrue();
        assertThat(leaf1.path("opsSent").asInt()).isEqualTo(fakes.get("leaf1").totalOps()).isPositive();
        assertThat(leaf1.path("sets").asInt()).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("spine2").contains("unreachable");

        String metrics = get("/metrics").body();
        assertThat(metrics).contains("weft_device_state{device=\"leaf1\",state=\"in-sync\"} 1")
                .contains("weft_device_state{device=\"leaf1\",state=\"unreachable\"} 0")
                .contains("weft_device_state{device=\"spine2\",state=\"unreachable\"} 1")
                .contains("weft_devices{state=\"in-sync\"} 3")
                .contains("# TYPE weft_device_ops_sent_total counter");

        JsonNode snapshot = awaitJson("/fabric", s -> s.path("deviceStates").path("leaf2").path("state").asText()
                .equals("in-sync") && s.path("deviceStates").path("spine2").path("state")
                .asText().equals("unreachable"));
        assertThat(SnapshotSchema.violations(snapshot)).isEmpty();
        assertThat(snapshot.path("deviceStates").path("spine2").path("lastError").asText()).contains("spine2");

        // An edit that adds a tenant: one more VRF (and decap SIDs on leaves) per switch, nothing else resent.
        int fullLeaf1 = fakes.get("leaf1").opsInSet(0);
        fabric.withArray("tenants").add("blue");
        Files.writeString(file, fabric.toPrettyString());
        for (FakeSwitch f : fakes.values()) {
            await(f.name + " re-pushed", () -> f.sets.size() == 2);
        }
        assertThat(fakes.get("leaf1").opsInSet(1)).isLessThan(fullLeaf1).isPositive();
        assertThat(fakes.get("spine1").opsInSet(1)).as("spine1: the new VRF only").isEqualTo(1);
        awaitJson("/devices", d -> d.path("counts").path("in-sync").asInt() == 3);

        // A link removed: a route-level change against the plan provisioned before. leaf2, no end of the
        // link, gets single routes only (its routes towards leaf1 lose spine1); nothing is sent whole.
        ArrayNode links = fabric.withArray("links");
        for (int i = 0; i < links.size(); i++) {
            JsonNode l = links.get(i);
            if (l.at("/a/node").asText().equals("leaf1") && l.at("/b/node").asText().equals("spine1")) {
                links.remove(i);
                break;
            }
        }
        Files.writeString(file, fabric.toPrettyString());
        FakeSwitch leaf2 = fakes.get("leaf2");
        await("leaf2 re-pushed", () -> leaf2.sets.size() == 3);
        assertThat(leaf2.sets.get(2).getReplaceList()).isNotEmpty().allSatisfy(u -> assertThat(
                io.weft.southbound.gnmi.GnmiPaths.format(u.getPath())).contains("/static-routes/static[prefix="));
        awaitJson("/devices", d -> d.path("counts").path("in-sync").asInt() == 3);
    }

    private static JsonNode byDevice(JsonNode devices, String id) {
        for (JsonNode d : (ArrayNode) devices.get("devices")) {
            if (d.path("device").asText().equals(id)) {
                return d;
            }
        }
        throw new AssertionError("no device " + id + " in " + devices);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + controller.httpPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode awaitJson(String path, Predicate<JsonNode> done) throws Exception {
        long end = System.currentTimeMillis() + 15_000;
        JsonNode last = null;
        while (System.currentTimeMillis() < end) {
            HttpResponse<String> r = get(path);
            if (r.statusCode() == 200) {
                last = FabricJson.mapper().readTree(r.body());
                if (done.test(last)) {
                    return last;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("GET " + path + " never got there; last: " + last + "; stderr: " + err);
    }

    private void await(String what, java.util.function.BooleanSupplier cond) throws Exception {
        long end = System.currentTimeMillis() + 15_000;
        while (!cond.getAsBoolean()) {
            if (System.currentTimeMillis() > end) {
                throw new AssertionError("timed out waiting for " + what + "; stderr: " + err);
            }
            Thread.sleep(20);
        }
    }
}
