package io.weft.controller.onos;

import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.fabric.Role;
import io.weft.plan.Planner;
import io.weft.southbound.gnmi.GnmiTarget;
import org.onosproject.net.DeviceId;

/**
 * Per-device netcfg under {@code devices/<deviceId>/weft}: what this switch is in the fabric.
 * <pre>
 * "devices": {"device:leaf1": {"weft": {"role": "leaf", "name": "leaf1", "pod": 0, "srv6NodeId": 1}}}
 * </pre>
 * Only {@code role} is required. A device without this config is not part of the Weft fabric.
 * NICs are not devices: they come from {@link WeftAppConfig#nics()}.
 *
 * <p>With a {@code gnmi} object the plan owner provisions the switch over gNMI with the same client
 * as the standalone controller:
 * <pre>
 * "gnmi": {"address": "10.0.0.11", "port": 9339, "tls": true, "caFile": "/etc/weft/ca.pem",
 *          "certFile": "/etc/weft/onos.pem", "keyFile": "/etc/weft/onos.key",
 *          "username": "weft", "password": "..."}
 * </pre>
 * Only {@code address} is required; the port defaults to gNMI's 9339, TLS to off. Files are read
 * on the ONOS instance that owns the plan. Unlike the fabric file (which names environment
 * variables), credentials are given inline, as ONOS's other southbound configs (netconf, gnmi
 * drivers) hold them in netcfg.
 */
public class WeftDeviceConfig extends CheckedConfig<DeviceId> {
    public static final String KEY = "weft";

    static final String ROLE = "role";
    static final String NAME = "name";
    static final String POD = "pod";
    static final String GROUP = "group";
    static final String PLANE = "plane";
    static final String RAIL = "rail";
    static final String SRV6_NODE_ID = "srv6NodeId";
    static final String ADDRESS = "address";
    static final String GNMI = "gnmi";

    static final String GNMI_ADDRESS = "address";
    static final String GNMI_PORT = "port";
    static final String GNMI_TLS = "tls";
    static final String GNMI_CA_FILE = "caFile";
    static final String GNMI_CERT_FILE = "certFile";
    static final String GNMI_KEY_FILE = "keyFile";
    static final String GNMI_USERNAME = "username";
    static final String GNMI_PASSWORD = "password";
    /** gNMI's IANA port. */
    public static final int DEFAULT_GNMI_PORT = 9339;

    private static final Set<String> FIELDS = Set.of(ROLE, NAME, POD, GROUP, PLANE, RAIL, SRV6_NODE_ID, ADDRESS, GNMI);
    private static final Set<String> GNMI_FIELDS = Set.of(GNMI_ADDRESS, GNMI_PORT, GNMI_TLS, GNMI_CA_FILE,
            GNMI_CERT_FILE, GNMI_KEY_FILE, GNMI_USERNAME, GNMI_PASSWORD);
    private static final int MAX_INDEX = 65535;

    @Override
    protected void check(List<String> problems) {
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
        gnmiProblems(problems);
    }

    private void gnmiProblems(List<String> problems) {
        JsonNode g = object.get(GNMI);
        if (g == null || g.isNull()) {
            return;
        }
        String at = GNMI + ".";
        if (!g.isObject()) {
            problems.add(GNMI + ": must be an object with at least \"address\"");
            return;
        }
        ConfigChecks.onlyFields(g, at, GNMI_FIELDS, problems);
        JsonNode address = g.get(GNMI_ADDRESS);
        if (address == null || !address.isTextual() || address.asText().isBlank()) {
            problems.add(at + GNMI_ADDRESS + ": required (host name or IP address of the switch's gNMI server)");
        }
        ConfigChecks.optionalInt(g, at, GNMI_PORT, 1, 65535, problems);
        JsonNode tls = g.get(GNMI_TLS);
        if (tls != null && !tls.isNull() && !tls.isBoolean()) {
            problems.add(at + GNMI_TLS + ": must be true or false");
        }
        for (String f : List.of(GNMI_CA_FILE, GNMI_CERT_FILE, GNMI_KEY_FILE, GNMI_USERNAME, GNMI_PASSWORD)) {
            JsonNode v = g.get(f);
            if (v != null && !v.isNull() && (!v.isTextual() || v.asText().isEmpty())) {
                problems.add(at + f + ": must be a non-empty string");
            }
        }
        if (has(g, GNMI_CERT_FILE) != has(g, GNMI_KEY_FILE)) {
            problems.add(at + GNMI_CERT_FILE + "/" + GNMI_KEY_FILE + ": give both or neither");
        }
        if (!g.path(GNMI_TLS).asBoolean(false)
                && (has(g, GNMI_CA_FILE) || has(g, GNMI_CERT_FILE) || has(g, GNMI_KEY_FILE))) {
            problems.add(at + GNMI_TLS + ": certificate files given but tls is off");
        }
        if (has(g, GNMI_PASSWORD) && !has(g, GNMI_USERNAME)) {
            problems.add(at + GNMI_PASSWORD + ": given without " + GNMI_USERNAME);
        }
    }

    private static boolean has(JsonNode g, String field) {
        return g.hasNonNull(field);
    }

    /** Whether the switch is to be provisioned over gNMI (a {@code gnmi} object is present). */
    public boolean hasGnmi() {
        return object.hasNonNull(GNMI);
    }

    /**
     * The gNMI endpoint of this switch under its fabric node id, or null without a {@code gnmi} object.
     *
     * @throws IllegalArgumentException naming the field, when the gnmi object is invalid
     */
    public GnmiTarget gnmiTarget(String nodeId) {
        JsonNode g = object.get(GNMI);
        if (g == null || g.isNull()) {
            return null;
        }
        return new GnmiTarget(nodeId, g.path(GNMI_ADDRESS).asText(null), g.path(GNMI_PORT).asInt(DEFAULT_GNMI_PORT),
                g.path(GNMI_TLS).asBoolean(false), text(g, GNMI_CA_FILE), text(g, GNMI_CERT_FILE),
                text(g, GNMI_KEY_FILE), text(g, GNMI_USERNAME), text(g, GNMI_PASSWORD));
    }

    private static String text(JsonNode g, String field) {
        JsonNode v = g.get(field);
        return v == null || v.isNull() ? null : v.asText();
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
