package io.weft.lab.netns;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.weft.plan.FabricPlan;
import io.weft.plan.intent.DeviceIntent;
import io.weft.southbound.gnmi.DeviceState;
import io.weft.southbound.gnmi.DeviceStatus;
import io.weft.southbound.gnmi.GnmiTarget;
import io.weft.southbound.gnmi.NettyChannels;
import io.weft.southbound.gnmi.Provisioner;
import io.weft.southbound.gnmi.ProvisionerConfig;

/**
 * Configures a lab's switches the way the controller does: the southbound {@link Provisioner}
 * pushes {@code DeviceIntent.render(plan, switch)} to each switch agent over gNMI and confirms it
 * by Get. The provisioner lives only for one call: nothing re-reads the switches afterwards, so
 * an operator's {@code lab link down} (ports admin-down) holds until {@code lab link up}.
 */
final class LabProvisioning {
    /** RPC deadline: a whole k=8 switch intent took up to 0.5 s to Set on a loaded 2-core machine. */
    static final long RPC_TIMEOUT_MS = 20_000;
    /** Never reached within one call; the lab does not re-read switches behind the operator's back. */
    private static final long NO_RESYNC_MS = 24L * 3600 * 1000;

    private LabProvisioning() {
    }

    /**
     * Pushes the plan's intent to these switches and waits until every one is IN_SYNC.
     *
     * @param ports switch id to its agent's loopback gNMI port
     * @throws LabException naming the first switch (by id) that is not in sync, with its state and error
     */
    static void sync(FabricPlan plan, Map<String, Integer> ports, long timeoutMs, Consumer<String> log)
            throws LabException {
        Map<String, GnmiTarget> targets = new LinkedHashMap<>();
        ports.forEach((sw, port) -> targets.put(sw, GnmiTarget.plaintext(sw, SwitchAgents.LOOPBACK, port)));
        ProvisionerConfig config = new ProvisionerConfig(ProvisionerConfig.DEFAULT_MAX_IN_FLIGHT, RPC_TIMEOUT_MS,
                ProvisionerConfig.DEFAULT_BACKOFF_INITIAL_MS, 2_000, NO_RESYNC_MS);
        try (Provisioner p = new Provisioner(config, new NettyChannels(), log)) {
            List<String> problems = p.provision(targets, sw -> DeviceIntent.render(plan, sw));
            if (!problems.isEmpty()) {
                throw new LabException("gNMI intent: " + String.join("; ", problems));
            }
            long end = System.nanoTime() + timeoutMs * 1_000_000;
            while (true) {
                List<DeviceStatus> all = p.devices();
                DeviceStatus bad = firstNotInSync(all);
                if (bad == null && all.size() == targets.size()) {
                    return;
                }
                // A refusal will not change by waiting: the intent or the agent is wrong.
                DeviceStatus rejected = all.stream().filter(d -> d.state() == DeviceState.REJECTED).findFirst()
                        .orElse(null);
                if (rejected != null) {
                    throw failure(rejected, all);
                }
                if (System.nanoTime() > end) {
                    throw failure(bad, all);
                }
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("gNMI provisioning: interrupted");
        }
    }

    private static DeviceStatus firstNotInSync(Collection<DeviceStatus> all) {
        return all.stream().filter(d -> d.state() != DeviceState.IN_SYNC).findFirst().orElse(null);
    }

    private static LabException failure(DeviceStatus d, List<DeviceStatus> all) {
        long notInSync = all.stream().filter(x -> x.state() != DeviceState.IN_SYNC).count();
        if (d == null) {
            return new LabException("gNMI provisioning: only " + all.size() + " switches known to the provisioner");
        }
        return new LabException("switch " + d.device() + " (gNMI " + d.endpoint() + ") is " + d.state()
                + (d.lastError() == null ? "" : ": " + d.lastError())
                + (notInSync > 1 ? " (" + notInSync + " of " + all.size() + " switches not in sync)" : ""));
    }
}
