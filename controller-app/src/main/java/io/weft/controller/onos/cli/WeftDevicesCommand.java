package io.weft.controller.onos.cli;

import java.util.List;
import java.util.Map;

import io.weft.controller.onos.DevicesSummary;
import io.weft.controller.onos.WeftDeviceService;
import io.weft.controller.onos.WeftPlanService;
import io.weft.southbound.gnmi.DeviceStatus;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.onosproject.cli.AbstractShellCommand;
import org.onosproject.net.DeviceId;

/** {@code weft-devices [-j]}: where every switch stands against the plan's device intent (gNMI). */
@Service
@Command(scope = "onos", name = "weft-devices",
        description = "Shows the gNMI provisioning state of every Weft switch: in sync, pending, unreachable or "
                + "rejected with the switch's error (-j: JSON)")
public class WeftDevicesCommand extends AbstractShellCommand {
    @Override
    protected void doExecute() {
        WeftPlanService plans = get(WeftPlanService.class);
        List<DeviceStatus> devices = get(WeftDeviceService.class).devices();
        Map<String, DeviceId> ids = DevicesSummary.deviceIds(plans.current());
        if (outputJson()) {
            print("%s", DevicesSummary.json(devices, ids).toPrettyString());
            return;
        }
        if (devices.isEmpty() && !plans.isPlanOwner()) {
            print("No switches provisioned on this instance: the master of the lowest-id Weft device does it.");
            return;
        }
        for (String line : DevicesSummary.lines(devices, ids)) {
            print("%s", line);
        }
    }
}
