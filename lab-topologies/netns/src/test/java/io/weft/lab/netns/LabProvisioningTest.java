package io.weft.lab.netns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.weft.fabric.FabricJson;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import org.junit.jupiter.api.Test;

/** How lab up fails when a switch never confirms its intent (no root, no agent needed). */
class LabProvisioningTest {
    @Test
    void aSwitchWhoseAgentIsNotThereFailsUpNamingTheSwitchItsEndpointAndState() throws Exception {
        FabricPlan plan = Planner.plan(FabricJson.read(Path.of("../../contracts/examples/leaf-spine-2x2.json")), null);
        int port = SwitchAgents.freePort(); // nothing listens there
        List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
        long t0 = System.nanoTime();
        // 5 s, not less: on a loaded 2-core CI machine the first refused connection took over 1.5 s to be
        // reported, and the switch was still PENDING when the wait ended.
        assertThatThrownBy(() -> LabProvisioning.sync(plan, Map.of("spine2", port), 5_000, log::add))
                .isInstanceOf(LabException.class)
                .hasMessageStartingWith("switch spine2 (gNMI 127.0.0.1:" + port + ") is UNREACHABLE: ");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(ms).as("waited for the timeout, not for ever").isBetween(4_900L, 30_000L);
        assertThat(log).anyMatch(l -> l.contains("spine2"));
    }

    @Test
    void targetsFileRoundTripsInWeftTelemetrysFormat(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        java.util.LinkedHashMap<String, Integer> ports = new java.util.LinkedHashMap<>();
        ports.put("leaf1", 40001);
        ports.put("spine1", 40002);
        SwitchAgents.writeTargets(dir, ports);
        assertThat(java.nio.file.Files.readString(dir.resolve("gnmi-targets.txt")))
                .isEqualTo("leaf1 127.0.0.1:40001\nspine1 127.0.0.1:40002\n");
        assertThat(SwitchAgents.readTargets(dir)).containsExactlyEntriesOf(ports);
    }
}
