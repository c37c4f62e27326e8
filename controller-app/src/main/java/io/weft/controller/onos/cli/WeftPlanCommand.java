package io.weft.controller.onos.cli;

import io.weft.controller.onos.PlanState;
import io.weft.controller.onos.PlanSummary;
import io.weft.controller.onos.WeftPlanService;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.onosproject.cli.AbstractShellCommand;

/** {@code weft-plan [-j]}: the current plan (switches, uN ids, locators, NICs), or its snapshot JSON. */
@Service
@Command(scope = "onos", name = "weft-plan",
        description = "Shows the Weft plan: switches, uN ids, locators, NIC addresses (-j: the snapshot JSON)")
public class WeftPlanCommand extends AbstractShellCommand {
    @Override
    protected void doExecute() {
        WeftPlanService service = get(WeftPlanService.class);
        PlanState state = service.current();
        if (state == null) {
            print("No plan on this instance%s.", service.isPlanOwner()
                    ? " yet (no valid Weft devices; see the log)"
                    : ": it is computed by the master of the lowest-id Weft device");
            return;
        }
        if (outputJson()) {
            print("%s", state.snapshot().toPrettyString());
            return;
        }
        for (String line : PlanSummary.lines(state)) {
            print("%s", line);
        }
        print("snapshots go to %s", service.snapshotDestination());
    }
}
