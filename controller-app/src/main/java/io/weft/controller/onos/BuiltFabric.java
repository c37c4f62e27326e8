package io.weft.controller.onos;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import org.onosproject.net.DeviceId;

/**
 * What {@link OnosFabricBuilder} made of ONOS's view: the fabric, the state of each fabric link
 * (up or down), which fabric node each device became, and everything that was left out and why.
 */
public final class BuiltFabric {
    private final Fabric fabric;
    private final Map<String, LinkState> linkStates;
    private final Map<DeviceId, String> nodeIds;
    private final List<String> problems;

    BuiltFabric(Fabric fabric, Map<String, LinkState> linkStates,
            Map<DeviceId, String> nodeIds, List<String> problems) {
        this.fabric = fabric;
        this.linkStates = Collections.unmodifiableMap(linkStates);
        this.nodeIds = Collections.unmodifiableMap(nodeIds);
        this.problems = Collections.unmodifiableList(problems);
    }

    public Fabric fabric() {
        return fabric;
    }

    /** Fabric link id to up / down, for the snapshot. */
    public Map<String, LinkState> linkStates() {
        return linkStates;
    }

    /** The fabric node id of each Weft device, in device id order. */
    public Map<DeviceId, String> nodeIds() {
        return nodeIds;
    }

    /** Devices, links and NICs left out of the fabric, one line each naming what and why. */
    public List<String> problems() {
        return problems;
    }
}
