package io.weft.controller.onos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.fabric.Node;
import io.weft.plan.FabricPlan;
import org.onosproject.net.DeviceId;

/**
 * The text the {@code weft-plan} command prints: one header line, one line per switch (device,
 * role, uN id, locator, loopback, EV table sizes, NIC prefix), one per NIC, then what was left out.
 * Kept apart from the command so it is testable without a Karaf shell.
 */
public final class PlanSummary {
    private PlanSummary() {
    }

    public static List<String> lines(PlanState state) {
        List<String> out = new ArrayList<>();
        FabricPlan plan = state.plan();
        Fabric f = plan.fabric();
        long down = state.built().linkStates().values().stream().filter(s -> s != LinkState.UP).count();
        out.add(String.format(Locale.ROOT,
                "fabric %s v%d, block %s, tenants %s, %d switches, %d NICs, %d links (%d down)",
                f.id(), state.version(), plan.block(), String.join(",", plan.tenants()), plan.switches().size(),
                plan.nics().size(), f.links().size(), down));
        Map<String, String> deviceOf = new HashMap<>();
        for (Map.Entry<DeviceId, String> e : state.built().nodeIds().entrySet()) {
            deviceOf.put(e.getValue(), e.getKey().toString());
        }
        out.add(String.format(Locale.ROOT, "%-16s %-24s %-10s %-6s %-22s %-20s %-7s %s",
                "switch", "device", "role", "uN", "locator", "loopback", "ev1/ev2", "nic prefix"));
        for (String sw : plan.switches()) {
            Node n = f.node(sw);
            String prefix = plan.nicPrefix(sw);
            out.add(String.format(Locale.ROOT, "%-16s %-24s %-10s %-6s %-22s %-20s %-7s %s",
                    sw, deviceOf.getOrDefault(sw, "-"), n.role().jsonName(),
                    String.format(Locale.ROOT, "0x%x", plan.nodeId(sw)), plan.locator(sw), plan.loopback(sw),
                    plan.evTable(sw, 1).size() + "/" + plan.evTable(sw, 2).size(), prefix == null ? "-" : prefix));
        }
        if (!plan.nics().isEmpty()) {
            out.add(String.format(Locale.ROOT, "%-16s %-16s %s", "nic", "attached to", "address"));
            for (String nic : plan.nics()) {
                out.add(String.format(Locale.ROOT, "%-16s %-16s %s",
                        nic, plan.attachment(nic).to(), plan.nicAddress(nic)));
            }
        }
        for (String p : state.built().problems()) {
            out.add("problem: " + p);
        }
        return out;
    }
}
