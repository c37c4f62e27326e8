package io.weft.controller.onos.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.controller.onos.WeftPlanService;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.onosproject.cli.AbstractShellCommand;
import org.onosproject.cli.net.DeviceIdCompleter;

/** {@code weft-intent <deviceId>}: the device intent (gNMI SetRequest replace payloads) of one switch. */
@Service
@Command(scope = "onos", name = "weft-intent",
        description = "Shows the rendered Weft device intent (gNMI replace payloads) of one switch")
public class WeftIntentCommand extends AbstractShellCommand {
    @Argument(index = 0, name = "deviceId", description = "ONOS device id or Weft node id", required = true)
    @Completion(DeviceIdCompleter.class)
    String deviceId = null;

    @Override
    protected void doExecute() {
        WeftPlanService service = get(WeftPlanService.class);
        if (service.current() == null) {
            print("No plan on this instance yet; see weft-plan.");
            return;
        }
        ObjectNode intent = service.intent(deviceId);
        if (intent == null) {
            error("%s is not a switch of the current Weft plan", deviceId);
            return;
        }
        print("%s", intent.toPrettyString());
    }
}
