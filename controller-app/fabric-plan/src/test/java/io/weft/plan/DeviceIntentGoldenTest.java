package io.weft.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.FabricJson;
import io.weft.plan.intent.DeviceIntent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Golden files for a 2x2 leaf-spine (one NIC per leaf): the leaf's and the spine's gNMI replace
 * operations. Regenerate after an intended change with
 * {@code ./mvnw -pl controller-app/fabric-plan test -Dtest=DeviceIntentGoldenTest -Dweft.golden.update=true}
 * and review the diff.
 */
class DeviceIntentGoldenTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden");

    @ParameterizedTest
    @ValueSource(strings = {"leaf1", "spine1"})
    void matchesGoldenFile(String switchId) throws Exception {
        FabricPlan plan = Planner.plan(TestFabrics.leafSpine(2, 2, 1, 1), null);
        ObjectNode intent = DeviceIntent.render(plan, switchId);
        String text = FabricJson.mapper().writeValueAsString(intent) + "\n";
        Path file = GOLDEN.resolve("ls-2x2-" + switchId + ".json");
        if (Boolean.getBoolean("weft.golden.update")) {
            Files.createDirectories(GOLDEN);
            Files.writeString(file, text);
        }
        assertThat(file).exists();
        assertThat(text).isEqualTo(Files.readString(file));
    }

    @Test
    void leafIntentCarriesLocatorSidsUnderlayAndTenantEvRoutes() throws Exception {
        FabricPlan plan = Planner.plan(TestFabrics.leafSpine(2, 2, 1, 2), null);
        JsonNode intent = DeviceIntent.render(plan, "leaf1");
        List<String> paths = new ArrayList<>();
        intent.get("replace").forEach(op -> paths.add(op.get("origin").asText() + ":" + op.get("path").asText()));
        assertThat(paths).contains("sonic-db:/CONFIG_DB/localhost/SRV6_MY_LOCATORS",
                "sonic-db:/CONFIG_DB/localhost/SRV6_MY_SIDS",
                "openconfig:/network-instances/network-instance[name=DEFAULT]",
                "openconfig:/network-instances/network-instance[name=Vrf-default]");
        JsonNode sids = intent.get("replace").get(1).get("value");
        assertThat(sids.get("weft|fcbb:bb00:1::/48").get("action").asText()).isEqualTo("uN");
        assertThat(sids.get("weft|fcbb:bb00:1:e000::/64").get("action").asText()).isEqualTo("uDT46");
        assertThat(sids.get("weft|fcbb:bb00:1:e000::/64").get("decap_vrf").asText()).isEqualTo("Vrf-default");
        JsonNode ua = sids.get("weft|fcbb:bb00:1:e101::/64");
        assertThat(ua.get("action").asText()).isEqualTo("uA");
        assertThat(ua.get("interface").asText()).isEqualTo(plan.fabric().link("leaf1-spine1.2").a().port());
        // The underlay route to spine1's locator has both parallel links as ECMP next hops.
        JsonNode def = op(intent, "openconfig:/network-instances/network-instance[name=DEFAULT]");
        JsonNode toSpine1 = staticRoute(def, "STATIC", "fcbb:bb00:3::/48");
        assertThat(toSpine1.get("next-hops").get("next-hop")).hasSize(2);
        // The stage-1 EV route to leaf2's NIC prefix lists all four uplinks, index = member index.
        JsonNode vrf = op(intent, "openconfig:/network-instances/network-instance[name=Vrf-default]");
        JsonNode ev1 = staticRoute(vrf, "EV-STAGE1", plan.nicPrefix("leaf2"));
        assertThat(ev1.get("next-hops").get("next-hop")).hasSize(4);
        assertThat(ev1.get("next-hops").get("next-hop").get(3).get("interface-ref").get("config").get("interface")
                .asText()).isEqualTo(plan.evTable("leaf1", 1).get(3).fromPort());
    }

    private static JsonNode op(JsonNode intent, String key) {
        for (JsonNode op : intent.get("replace")) {
            if ((op.get("origin").asText() + ":" + op.get("path").asText()).equals(key)) {
                return op.get("value");
            }
        }
        throw new AssertionError("no op " + key);
    }

    private static JsonNode staticRoute(JsonNode instance, String protocol, String prefix) {
        for (JsonNode p : instance.get("protocols").get("protocol")) {
            if (p.get("name").asText().equals(protocol)) {
                for (JsonNode r : p.get("static-routes").get("static")) {
                    if (r.get("prefix").asText().equals(prefix)) {
                        return r;
                    }
                }
            }
        }
        throw new AssertionError("no route " + prefix + " in " + protocol);
    }
}
