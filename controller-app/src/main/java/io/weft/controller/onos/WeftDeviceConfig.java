package io.weft.controller.onos;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.fabric.Role;
import io.weft.plan.Planner;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.Config;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Per-device netcfg under {@code devices/<deviceId>/weft}: what this switch is in the fabric.
 * <pre>
 * "devices": {"device:leaf1": {"weft": {"role": "leaf", "name": "leaf1", "pod": 0, "srv6NodeId": 1}}}
 * </pre>
 * Only {@code role} is required. A device without this config is not part of the Weft fabric.
 * NICs are not devices: they come from {@link WeftAppConfig#nics()}.
 */
public class WeftDeviceConfig extends Config<DeviceId> {
    public static final String KEY = "weft";
    private static final Logger LOG = LoggerFactory.getLogger(WeftDeviceConfig.class);

    static final String ROLE = "role";
    static final String NAME = "name";
    static final String POD = "pod";
    static final String GROUP = "group";
    static final String PLANE = "plane";
    static final String RAIL = "rail";
    static final String SRV6_NODE_ID = "srv6NodeId";
    static final String ADDRESS = "address";

    private static final Set<String> FIELDS = Set.of(ROLE, NAME, POD, GROUP, PLANE, RAIL, SRV6_NODE_ID, ADDRESS);
    private static final int MAX_INDEX = 65535;

    @Override
    public boolean isValid() {
        List<String> problems = problems();
        if (!problems.isEmpty()) {
            // ONOS answers an upload of an invalid config with a bare "invalid"; the log says why.
            LOG.warn("netcfg {} of {} is invalid: {}", key, subject, String.join("; ", problems));
        }
        return problems.isEmpty();
    }

    /** Every problem of this config, one message per field; empty when valid. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (object == null) {
            problems.add("weft: must be a JSON object");
            return problems;
        }
        ConfigChecks.onlyFields(object, "", FIELDS, problems);
        JsonNode role = object.get(ROLE);
        if (role == null || role.isNull()) {
            problems.add(ROLE + ": required (leaf, spine, superspine or router)");
        } else if (!role.isTextual() || role() == null) {
            problems.add(ROLE + ": must be leaf, spine, superspine or router, not " + role);
        }
        ConfigChecks.optionalId(object, "", NAME, problems);
        for (String field : List.of(POD, GROUP, PLANE, RAIL)) {
            ConfigChecks.optionalInt(object, "", field, 0, MAX_INDEX, problems);
        }
        // 0xE000 and up are function ids (uDT/uA) in the plan, not node ids.
        ConfigChecks.optionalInt(object, "", SRV6_NODE_ID, 1, Planner.MAX_NODE_ID, problems);
        ConfigChecks.optionalIpv6(object, "", ADDRESS, problems);
        return problems;
    }

    /** The switch role, or null when absent or not a switch role (NICs are not devices here). */
    public Role role() {
        Role r = Role.fromJson(get(ROLE, null));
        return r == null || !r.isSwitch() ? null : r;
    }

    /** Fabric node id/name for this switch, or null to derive one from the device id. */
    public String name() {
        return get(NAME, null);
    }

    public Integer pod() {
        return optionalInt(POD);
    }

    public Integer group() {
        return optionalInt(GROUP);
    }

    public Integer plane() {
        return optionalInt(PLANE);
    }

    public Integer rail() {
        return optionalInt(RAIL);
    }

    /** Explicit 16-bit uN id, or null to let the plan allocate (stably) one. */
    public Integer srv6NodeId() {
        return optionalInt(SRV6_NODE_ID);
    }

    /** Explicit loopback address, or null to let the plan assign one. */
    public String address() {
        return get(ADDRESS, null);
    }

    private Integer optionalInt(String field) {
        JsonNode v = object.get(field);
        return v == null || !v.isIntegralNumber() ? null : v.intValue();
    }
}
