package io.weft.controller.onos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.weft.contracts.LinkState;
import io.weft.fabric.Endpoint;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.fabric.Role;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.AnnotationKeys;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Port;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.link.LinkService;

/**
 * Builds a Weft {@link Fabric} from ONOS's devices, links and the "weft" netcfg. Pure: reads the
 * services it is given and nothing else, so the same inputs always give the same fabric (devices
 * and links are taken in id order).
 *
 * <ul>
 *   <li>Switches: every device that has a valid {@link WeftDeviceConfig}. Node id = the config's
 *       {@code name}, else the device id with characters a fabric id cannot hold replaced by '-'
 *       ("of:0000000000000001" becomes "of-0000000000000001").</li>
 *   <li>Links: ONOS links are unidirectional; the two directions between the same two ports become
 *       one full-duplex fabric link. Its state is "up" when both directions are known and ACTIVE,
 *       "down" otherwise (one direction lost or inactive): the link stays in the fabric, so a flap
 *       does not renumber EV tables, and the scheduler avoids it through the state.
 *       Port names come from the port's "portName" annotation, else the port number.
 *       Capacity = the lower port speed of the two ends (Mbps / 1000), else the config default.
 *       Latency = the link's "latencyNs" annotation, else the config default.</li>
 *   <li>NICs: from {@link WeftAppConfig#nics()}, each linked to the switch port it names.</li>
 * </ul>
 */
public final class OnosFabricBuilder {
    /** Link annotation carrying the one-way latency in nanoseconds (Weft's own, unit in the name). */
    public static final String LATENCY_NS_ANNOTATION = "latencyNs";

    private static final String PORT_NAME_ANNOTATION = AnnotationKeys.PORT_NAME;

    private final DeviceService deviceService;
    private final LinkService linkService;
    private final NetworkConfigService configService;
    private final ApplicationId appId;

    public OnosFabricBuilder(DeviceService deviceService, LinkService linkService, NetworkConfigService configService,
                         ApplicationId appId) {
        this.deviceService = deviceService;
        this.linkService = linkService;
        this.configService = configService;
        this.appId = appId;
    }

    public BuiltFabric build() {
        List<String> problems = new ArrayList<>();
        WeftAppConfig app = configService.getConfig(appId, WeftAppConfig.class);
        // problems() rather than isValid(): isValid() logs, and the provisioner logs what we return.
        if (app != null && !app.problems().isEmpty()) {
            for (String p : app.problems()) {
                problems.add("app config " + WeftAppConfig.KEY + ": " + p);
            }
            app = null; // an invalid app config must not half-apply; defaults keep the switches planned
        }
        double defaultCapacityGbps = app == null ? WeftAppConfig.DEFAULT_CAPACITY : app.defaultCapacityGbps();
        long defaultLatencyNs = app == null ? WeftAppConfig.DEFAULT_LATENCY : app.defaultLatencyNs();

        Map<DeviceId, String> nodeIds = new LinkedHashMap<>();
        List<Node> nodes = new ArrayList<>();
        Set<String> usedIds = new HashSet<>();
        for (Device device : sortedDevices()) {
            WeftDeviceConfig cfg = configService.getConfig(device.id(), WeftDeviceConfig.class);
            if (cfg == null) {
                continue;
            }
            List<String> cfgProblems = cfg.problems();
            if (!cfgProblems.isEmpty()) {
                problems.add(device.id() + ": left out, netcfg weft: " + String.join("; ", cfgProblems));
                continue;
            }
            String nodeId = cfg.name() != null ? cfg.name() : sanitizeId(device.id().toString());
            if (!usedIds.add(nodeId)) {
                problems.add(device.id() + ": left out, fabric node id " + nodeId + " is already taken");
                continue;
            }
            nodeIds.put(device.id(), nodeId);
            nodes.add(Node.builder(nodeId, cfg.role())
                    .name(cfg.name() != null ? cfg.name() : device.id().toString())
                    .pod(cfg.pod()).group(cfg.group()).plane(cfg.plane()).rail(cfg.rail())
                    .srv6NodeId(cfg.srv6NodeId()).address(cfg.address())
                    .build());
        }

        Map<String, LinkState> linkStates = new LinkedHashMap<>();
        List<Link> links = new ArrayList<>();
        Map<Endpoint, String> usedPorts = new HashMap<>();
        for (Duplex d : pairLinks(nodeIds).values()) {
            Endpoint a = new Endpoint(nodeIds.get(d.low.deviceId()), portName(d.low));
            Endpoint b = new Endpoint(nodeIds.get(d.high.deviceId()), portName(d.high));
            String id = linkId(a, b);
            if (portTaken(id, a, b, usedPorts, problems)) {
                continue;
            }
            double capacityGbps = capacityGbps(d.low, d.high, defaultCapacityGbps);
            long latencyNs = d.latencyNs(defaultLatencyNs);
            links.add(new Link(id, a, b, capacityGbps, latencyNs));
            linkStates.put(id, d.isUp() ? LinkState.UP : LinkState.DOWN);
        }

        if (app != null) {
            addNics(app, nodeIds, usedIds, usedPorts, nodes, links, linkStates, defaultCapacityGbps, problems);
        }

        Map<String, Object> params = new LinkedHashMap<>();
        params.put("source", "onos");
        Fabric fabric = new Fabric(
                app == null ? WeftAppConfig.DEFAULT_FABRIC_ID : app.fabricId(),
                null, "custom",
                app == null ? Fabric.DEFAULT_BLOCK : app.block(),
                app == null ? List.of("default") : app.tenants(),
                nodes, links, params);
        return new BuiltFabric(fabric, linkStates, nodeIds, problems);
    }

    private void addNics(WeftAppConfig app, Map<DeviceId, String> nodeIds, Set<String> usedIds,
                         Map<Endpoint, String> usedPorts, List<Node> nodes, List<Link> links,
                         Map<String, LinkState> linkStates, double defaultCapacityGbps, List<String> problems) {
        for (NicAttachment nic : app.nics()) {
            String switchNode = nodeIds.get(nic.attach().deviceId());
            if (switchNode == null) {
                problems.add("nic " + nic.id() + ": left out, " + nic.attach().deviceId()
                        + " is not a Weft device (no valid weft netcfg, or not known to ONOS)");
                continue;
            }
            Role switchRole = roleOf(nodes, switchNode);
            if (switchRole != Role.LEAF && switchRole != Role.ROUTER) {
                problems.add("nic " + nic.id() + ": left out, " + switchNode + " is a " + switchRole.jsonName()
                        + " (NICs attach to a leaf or a router)");
                continue;
            }
            if (usedIds.contains(nic.id())) {
                problems.add("nic " + nic.id() + ": left out, fabric node id is already taken");
                continue;
            }
            Endpoint a = new Endpoint(nic.id(), nic.port());
            Endpoint b = new Endpoint(switchNode, portName(nic.attach()));
            String id = linkId(a, b);
            if (portTaken(id, a, b, usedPorts, problems)) {
                continue;
            }
            usedIds.add(nic.id());
            nodes.add(Node.builder(nic.id(), Role.NIC)
                    .server(nic.server()).pod(nic.pod()).group(nic.group()).rail(nic.rail()).plane(nic.plane())
                    .address(nic.address())
                    .build());
            double capacityGbps = nic.capacityGbps() != null ? nic.capacityGbps()
                    : capacityGbps(nic.attach(), null, defaultCapacityGbps);
            links.add(new Link(id, a, b, capacityGbps, 0)); // a NIC cable's latency is negligible here
            // ONOS keeps no link for a NIC: its cable is up while the switch is available and the port enabled.
            Port port = deviceService.getPort(nic.attach());
            boolean up = deviceService.isAvailable(nic.attach().deviceId()) && (port == null || port.isEnabled());
            linkStates.put(id, up ? LinkState.UP : LinkState.DOWN);
        }
    }

    /**
     * True (and a problem noted) when a port of this link already carries another one: a port
     * cabled twice is a discovery artefact or a netcfg mistake, and the fabric would not validate.
     * The first link in id order keeps the port.
     */
    private static boolean portTaken(String linkId, Endpoint a, Endpoint b, Map<Endpoint, String> usedPorts,
                                     List<String> problems) {
        for (Endpoint e : new Endpoint[] {a, b}) {
            String other = usedPorts.get(e);
            if (other != null) {
                problems.add("link " + linkId + ": left out, port " + e + " already carries " + other);
                return true;
            }
        }
        usedPorts.put(a, linkId);
        usedPorts.put(b, linkId);
        return false;
    }

    private static Role roleOf(List<Node> nodes, String nodeId) {
        for (Node n : nodes) {
            if (n.id().equals(nodeId)) {
                return n.role();
            }
        }
        throw new IllegalStateException("no node " + nodeId);
    }

    private List<Device> sortedDevices() {
        List<Device> devices = new ArrayList<>();
        for (Device d : deviceService.getDevices()) {
            devices.add(d);
        }
        devices.sort(Comparator.comparing(d -> d.id().toString()));
        return devices;
    }

    /** Both directions of each port pair between Weft switches, keyed and ordered by the lower end. */
    private Map<String, Duplex> pairLinks(Map<DeviceId, String> nodeIds) {
        Map<String, Duplex> pairs = new TreeMap<>();
        for (org.onosproject.net.Link l : linkService.getLinks()) {
            if (!nodeIds.containsKey(l.src().deviceId()) || !nodeIds.containsKey(l.dst().deviceId())
                    || l.src().deviceId().equals(l.dst().deviceId())) {
                continue;
            }
            boolean srcLow = l.src().toString().compareTo(l.dst().toString()) < 0;
            ConnectPoint low = srcLow ? l.src() : l.dst();
            ConnectPoint high = srcLow ? l.dst() : l.src();
            pairs.computeIfAbsent(low + "|" + high, k -> new Duplex(low, high)).add(l, srcLow);
        }
        return pairs;
    }

    private String portName(ConnectPoint cp) {
        Port port = deviceService.getPort(cp);
        String name = port == null ? null : port.annotations().value(PORT_NAME_ANNOTATION);
        if (name == null || name.isEmpty()) {
            name = cp.port().hasName() ? cp.port().name() : Long.toString(cp.port().toLong());
        }
        return sanitizePort(name);
    }

    private double capacityGbps(ConnectPoint a, ConnectPoint b, double defaultGbps) {
        long mbps = Long.MAX_VALUE;
        for (ConnectPoint cp : new ConnectPoint[] {a, b}) {
            Port p = cp == null ? null : deviceService.getPort(cp);
            if (p != null && p.portSpeed() > 0) {
                mbps = Math.min(mbps, p.portSpeed());
            }
        }
        return mbps == Long.MAX_VALUE ? defaultGbps : mbps / 1000.0;
    }

    /** "leaf1.eth1-spine1.eth3": readable, unique per port pair, valid as a fabric id. */
    static String linkId(Endpoint a, Endpoint b) {
        return sanitizeId(a.node() + "." + a.port() + "-" + b.node() + "." + b.port());
    }

    /** Maps any string onto the fabric id syntax [A-Za-z0-9][A-Za-z0-9._-]{0,127}. */
    static String sanitizeId(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            out.append(Character.isLetterOrDigit(c) && c < 128 || c == '.' || c == '_' || c == '-' ? c : '-');
        }
        if (out.length() == 0 || !Character.isLetterOrDigit(out.charAt(0))) {
            out.insert(0, 'x');
        }
        return out.length() > 128 ? out.substring(0, 128) : out.toString();
    }

    /** Maps any string onto the fabric port syntax [A-Za-z0-9][A-Za-z0-9._:/-]{0,63}. */
    static String sanitizePort(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            boolean ok = Character.isLetterOrDigit(c) && c < 128 || ".:_/-".indexOf(c) >= 0;
            out.append(ok ? c : '-');
        }
        if (out.length() == 0 || !Character.isLetterOrDigit(out.charAt(0))) {
            out.insert(0, 'p');
        }
        return out.length() > 64 ? out.substring(0, 64) : out.toString();
    }

    /** The (up to) two ONOS links between one pair of ports. */
    private static final class Duplex {
        final ConnectPoint low;
        final ConnectPoint high;
        org.onosproject.net.Link up;    // low -> high
        org.onosproject.net.Link down;  // high -> low

        Duplex(ConnectPoint low, ConnectPoint high) {
            this.low = low;
            this.high = high;
        }

        void add(org.onosproject.net.Link l, boolean fromLow) {
            if (fromLow) {
                up = l;
            } else {
                down = l;
            }
        }

        boolean isUp() {
            return up != null && down != null && up.state() == org.onosproject.net.Link.State.ACTIVE
                    && down.state() == org.onosproject.net.Link.State.ACTIVE;
        }

        /** The larger of the two directions' annotated latencies (a path is as slow as its slow side). */
        long latencyNs(long defaultNs) {
            long best = -1;
            for (org.onosproject.net.Link l : new org.onosproject.net.Link[] {up, down}) {
                String v = l == null ? null : l.annotations().value(LATENCY_NS_ANNOTATION);
                if (v != null) {
                    try {
                        best = Math.max(best, Math.round(Double.parseDouble(v)));
                    } catch (NumberFormatException e) {
                        // not a number: ignored like a missing annotation
                    }
                }
            }
            return best < 0 ? defaultNs : best;
        }
    }
}
