package io.weft.controller.onos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.fabric.Fabric;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.ConnectPoint;

/**
 * App-level netcfg under {@code apps/io.weft.controller/weft}: fabric-wide settings and the NICs.
 * <pre>
 * "apps": {"io.weft.controller": {"weft": {
 *   "fabricId": "pod-a", "block": "fcbb:bb00::/32", "tenants": ["default"],
 *   "defaultCapacityGbps": 400, "defaultLatencyNs": 500,
 *   "nics": [{"id": "nic1", "attach": "device:leaf1/3", "server": "srv1", "rail": 0}]}}}
 * </pre>
 * A NIC may also carry port (its interface, default eth0), pod, group, plane, address and
 * capacityGbps (default: the switch port's speed).
 *
 * <p>NICs come from this config, not from ONOS's HostService: RoCEv2 NICs behind SRv6 leaves are
 * not seen by host discovery (no ARP/NDP reaches the controller), and the plan needs each NIC's
 * server and rail, which only an operator or the cluster inventory knows.
 */
public class WeftAppConfig extends CheckedConfig<ApplicationId> {
    public static final String KEY = "weft";

    static final String FABRIC_ID = "fabricId";
    static final String BLOCK = "block";
    static final String TENANTS = "tenants";
    static final String DEFAULT_CAPACITY_GBPS = "defaultCapacityGbps";
    static final String DEFAULT_LATENCY_NS = "defaultLatencyNs";
    static final String NICS = "nics";

    static final String NIC_ID = "id";
    static final String NIC_ATTACH = "attach";
    static final String NIC_PORT = "port";
    static final String NIC_SERVER = "server";
    static final String NIC_POD = "pod";
    static final String NIC_GROUP = "group";
    static final String NIC_RAIL = "rail";
    static final String NIC_PLANE = "plane";
    static final String NIC_ADDRESS = "address";
    static final String NIC_CAPACITY_GBPS = "capacityGbps";

    public static final String DEFAULT_FABRIC_ID = "onos";
    public static final double DEFAULT_CAPACITY = 400.0;
    public static final long DEFAULT_LATENCY = 500L;
    public static final String DEFAULT_NIC_PORT = "eth0";

    private static final Set<String> FIELDS = Set.of(
            FABRIC_ID, BLOCK, TENANTS, DEFAULT_CAPACITY_GBPS, DEFAULT_LATENCY_NS, NICS);
    private static final Set<String> NIC_FIELDS = Set.of(
            NIC_ID, NIC_ATTACH, NIC_PORT, NIC_SERVER, NIC_POD, NIC_GROUP, NIC_RAIL, NIC_PLANE, NIC_ADDRESS,
            NIC_CAPACITY_GBPS);
    /** A /32 IPv6 prefix: the uSID block. */
    private static final Pattern BLOCK_32 = Pattern.compile("^([0-9A-Fa-f:]+)/32$");
    private static final Pattern PORT_NAME = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}$");

    @Override
    protected void check(List<String> problems) {
        ConfigChecks.onlyFields(object, "", FIELDS, problems);
        ConfigChecks.optionalId(object, "", FABRIC_ID, problems);
        JsonNode block = object.get(BLOCK);
        if (block != null && !block.isNull()) {
            var m = block.isTextual() ? BLOCK_32.matcher(block.asText()) : null;
            if (m == null || !m.matches() || !ConfigChecks.isIpv6(m.group(1))) {
                problems.add(BLOCK + ": must be an IPv6 /32 prefix such as fcbb:bb00::/32");
            }
        }
        checkTenants(problems);
        ConfigChecks.optionalNumber(object, "", DEFAULT_CAPACITY_GBPS, problems);
        ConfigChecks.optionalInt(object, "", DEFAULT_LATENCY_NS, 0, Long.MAX_VALUE, problems);
        checkNics(problems);
    }

    private void checkTenants(List<String> problems) {
        JsonNode tenants = object.get(TENANTS);
        if (tenants == null || tenants.isNull()) {
            return;
        }
        if (!tenants.isArray() || tenants.size() == 0) {
            problems.add(TENANTS + ": must be a non-empty array of tenant names");
            return;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < tenants.size(); i++) {
            JsonNode t = tenants.get(i);
            if (!t.isTextual() || !ConfigChecks.ID.matcher(t.asText()).matches()) {
                problems.add(TENANTS + "[" + i + "]: must match " + ConfigChecks.ID.pattern());
            } else if (!seen.add(t.asText())) {
                problems.add(TENANTS + "[" + i + "]: duplicate tenant " + t.asText());
            }
        }
    }

    private void checkNics(List<String> problems) {
        JsonNode nics = object.get(NICS);
        if (nics == null || nics.isNull()) {
            return;
        }
        if (!nics.isArray()) {
            problems.add(NICS + ": must be an array");
            return;
        }
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < nics.size(); i++) {
            JsonNode nic = nics.get(i);
            String at = NICS + "[" + i + "].";
            if (!nic.isObject()) {
                problems.add(NICS + "[" + i + "]: must be an object");
                continue;
            }
            ConfigChecks.onlyFields(nic, at, NIC_FIELDS, problems);
            JsonNode id = nic.get(NIC_ID);
            if (id == null || id.isNull()) {
                problems.add(at + NIC_ID + ": required");
            } else {
                ConfigChecks.optionalId(nic, at, NIC_ID, problems);
                if (!ids.add(id.asText())) {
                    problems.add(at + NIC_ID + ": duplicate NIC id " + id.asText());
                }
            }
            JsonNode attach = nic.get(NIC_ATTACH);
            if (attach == null || attach.isNull()) {
                problems.add(at + NIC_ATTACH + ": required (the switch port, e.g. device:leaf1/3)");
            } else if (!attach.isTextual() || connectPoint(attach.asText()) == null) {
                problems.add(at + NIC_ATTACH + ": must be a connect point <deviceId>/<port>, not " + attach);
            }
            JsonNode port = nic.get(NIC_PORT);
            if (port != null && !port.isNull() && (!port.isTextual() || !PORT_NAME.matcher(port.asText()).matches())) {
                problems.add(at + NIC_PORT + ": must match " + PORT_NAME.pattern());
            }
            ConfigChecks.optionalId(nic, at, NIC_SERVER, problems);
            for (String field : List.of(NIC_POD, NIC_GROUP, NIC_RAIL, NIC_PLANE)) {
                ConfigChecks.optionalInt(nic, at, field, 0, 65535, problems);
            }
            ConfigChecks.optionalIpv6(nic, at, NIC_ADDRESS, problems);
            ConfigChecks.optionalNumber(nic, at, NIC_CAPACITY_GBPS, problems);
        }
    }

    /** Fabric id for the snapshot (Kafka key); "onos" by default. */
    public String fabricId() {
        return get(FABRIC_ID, DEFAULT_FABRIC_ID);
    }

    /** The uSID block, a /32. */
    public String block() {
        return get(BLOCK, Fabric.DEFAULT_BLOCK);
    }

    /** Tenant names (one VRF each); ["default"] when absent. */
    public List<String> tenants() {
        List<String> t = getList(TENANTS, s -> s, List.of("default"));
        return t.isEmpty() ? List.of("default") : Collections.unmodifiableList(t);
    }

    /** Link capacity used when a port reports no speed. */
    public double defaultCapacityGbps() {
        return get(DEFAULT_CAPACITY_GBPS, DEFAULT_CAPACITY);
    }

    /** Link latency used when a link carries no latency annotation. */
    public long defaultLatencyNs() {
        return get(DEFAULT_LATENCY_NS, DEFAULT_LATENCY);
    }

    /** The NICs, in config order. */
    public List<NicAttachment> nics() {
        JsonNode nics = object.get(NICS);
        if (nics == null || !nics.isArray()) {
            return List.of();
        }
        List<NicAttachment> out = new ArrayList<>();
        for (JsonNode n : nics) {
            out.add(new NicAttachment(
                    n.path(NIC_ID).asText(),
                    connectPoint(n.path(NIC_ATTACH).asText()),
                    n.path(NIC_PORT).asText(DEFAULT_NIC_PORT),
                    textOrNull(n, NIC_SERVER),
                    intOrNull(n, NIC_POD),
                    intOrNull(n, NIC_GROUP),
                    intOrNull(n, NIC_RAIL),
                    intOrNull(n, NIC_PLANE),
                    textOrNull(n, NIC_ADDRESS),
                    n.has(NIC_CAPACITY_GBPS) && n.get(NIC_CAPACITY_GBPS).isNumber()
                            ? n.get(NIC_CAPACITY_GBPS).asDouble() : null));
        }
        return out;
    }

    /** Parses "deviceId/port", or null when it is not one (ConnectPoint throws on bad input). */
    static ConnectPoint connectPoint(String s) {
        try {
            int slash = s.lastIndexOf('/');
            if (slash <= 0 || slash == s.length() - 1) {
                return null;
            }
            return ConnectPoint.deviceConnectPoint(s);
        } catch (IllegalArgumentException | NullPointerException e) {
            return null;
        }
    }

    private static String textOrNull(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static Integer intOrNull(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || !v.isIntegralNumber() ? null : v.intValue();
    }
}
