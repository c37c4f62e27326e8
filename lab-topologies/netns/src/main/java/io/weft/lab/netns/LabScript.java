package io.weft.lab.netns;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.plan.FabricPlan;
import io.weft.plan.srv6.Usid;

/**
 * Renders a lab as iproute2 batch lines, without running anything: the root namespace's batch
 * (namespaces and veth pairs) and one {@code ip -6 -n <ns> -batch -} script per node. Every
 * locator, SID, table and address comes from the {@link FabricPlan}; the lab never allocates.
 *
 * <p>{@link NetnsLab} applies only the root namespace's lines and the NICs'; switches are
 * configured over gNMI by their agents. The switch lines ({@link #switchLines}, {@link #nftScript})
 * are the reference the intent is held to: {@code LabMatchesDeviceIntentTest} here and the switch
 * agent's {@code TestSameKernelStateAsTheLabScript} (testdata rendered by RenderLabScript.java).
 *
 * <p>Kernel shapes (verified on the lab kernel, see FACTS.md §1):
 * <ul>
 *   <li>uN: the /48 locator, {@code End flavors next-csid lblen 32 nflen 16}, on a veth (not lo)
 *       that stays inside the switch, so no port going down takes the SID with it.</li>
 *   <li>uDT46: the plan's locator+function /64 as {@code End.DT6 table <vrf table>} (there is no
 *       VRF driver: a tenant VRF is its routing table plus an {@code ip rule} per NIC-facing port).
 *       Longest-prefix match picks it before the uN's /48, so the uN is never shifted out.</li>
 *   <li>uA: NOT the plan's /64. {@code End.X ... next-csid} with lblen 32 shifts one 16-bit uSID,
 *       so at locator+function it would shift only the uN and send the uA on to the neighbour
 *       (seen: Ip6InNoRoutes there). The uA is installed where it becomes the active uSID after
 *       the switch's End consumed its uN: block + function as a /48 in the switch's own table
 *       (its local SID block), {@code End.X nh6 <neighbour link-local> oif <port> next-csid}.</li>
 *   <li>The decap function is also installed that way, for a uSID list whose carrier ends right
 *       after the egress uN, so that the function arrives alone at the start of the next carrier.</li>
 * </ul>
 */
public final class LabScript {
    /** Sysctls of a switch namespace; "default" ones are set before the veths exist, so they inherit. */
    static final List<String> SWITCH_SYSCTLS = List.of(
            "net.ipv6.conf.all.forwarding=1", "net.ipv6.conf.default.forwarding=1",
            "net.ipv6.conf.all.seg6_enabled=1", "net.ipv6.conf.default.seg6_enabled=1",
            "net.ipv6.conf.all.accept_dad=0", "net.ipv6.conf.default.accept_dad=0");
    static final List<String> NIC_SYSCTLS = List.of(
            "net.ipv6.conf.all.accept_dad=0", "net.ipv6.conf.default.accept_dad=0");
    /** The always-up device seg6local routes are bound to, and its peer; both inside the switch. */
    public static final String ANCHOR = "sid0";
    static final String ANCHOR_PEER = "sid1";
    /** Priority of the tenant VRF rules: before the main table (32766). */
    static final int VRF_RULE_PREF = 1000;

    private final FabricPlan plan;
    private final LabLayout layout;
    private final EvScript ev;

    public LabScript(FabricPlan plan, LabLayout layout) {
        if (plan.fabric() != layout.fabric()) {
            throw new IllegalArgumentException("layout: made for fabric " + layout.fabric().id()
                    + ", not for the plan's fabric " + plan.fabric().id());
        }
        this.plan = plan;
        this.layout = layout;
        this.ev = new EvScript(plan, layout);
    }

    /** The switch's nftables script for EV stage marking, or null (NICs, switches without EV tables). */
    public String nftScript(String nodeId) {
        return isSwitch(nodeId) ? ev.nftScript(nodeId) : null;
    }

    /** Root-namespace batch, part 1: one namespace per node. */
    public List<String> namespaceLines() {
        List<String> out = new ArrayList<>();
        layout.namespaces().values().forEach(ns -> out.add("netns add " + ns));
        return out;
    }

    /** Root-namespace batch, part 2: a veth pair per link, each end created in its node's namespace. */
    public List<String> vethLines() {
        List<String> out = new ArrayList<>();
        for (Link l : plan.fabric().links()) {
            String a = l.a().node();
            String b = l.b().node();
            out.add("link add " + layout.iface(l.id(), a) + " netns " + layout.namespace(a)
                    + " type veth peer name " + layout.iface(l.id(), b) + " netns " + layout.namespace(b));
        }
        return out;
    }

    /** The sysctls (key=value) of a node's namespace. */
    public List<String> sysctls(String nodeId) {
        return isSwitch(nodeId) ? SWITCH_SYSCTLS : NIC_SYSCTLS;
    }

    /** Node id to its {@code ip -6 -n <ns> -batch} lines, in fabric file order. */
    public Map<String, List<String>> nodeLines() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Node n : plan.fabric().nodes()) {
            out.put(n.id(), n.role().isSwitch() ? switchLines(n.id()) : nicLines(n.id()));
        }
        return out;
    }

    /** Interfaces up with the plan's link-local addresses (a end fe80::1, b end fe80::2). */
    private List<String> interfaceLines(String nodeId) {
        List<String> out = new ArrayList<>();
        out.add("link set lo up");
        for (Link l : plan.fabric().linksOf(nodeId)) {
            String dev = layout.iface(l.id(), nodeId);
            out.add("link set " + dev + " up");
            out.add("addr add " + plan.linkLocal(l.id(), nodeId) + "/64 dev " + dev + " nodad");
        }
        return out;
    }

    List<String> switchLines(String sw) {
        List<String> out = interfaceLines(sw);
        Fabric f = plan.fabric();
        out.add("addr add " + plan.loopback(sw) + "/128 dev lo");
        List<Link> links = f.linksOf(sw);
        if (links.isEmpty()) {
            return out; // an isolated switch: nothing reaches it
        }
        // seg6local routes need a real device (with lo the kernel drops the packets), and the
        // kernel deletes a route with its device when that goes down: bound to a fabric port, a
        // switch would lose its uN and decap SIDs with one cable. A veth pair kept inside the
        // namespace is a device that never goes down (this kernel has no dummy driver).
        String anyPort = ANCHOR;
        out.add(2, "link add " + ANCHOR + " type veth peer name " + ANCHOR_PEER);
        out.add(3, "link set " + ANCHOR + " up");
        out.add(4, "link set " + ANCHOR_PEER + " up");
        int[] block = plan.blockGroups();
        out.add("route add " + plan.locator(sw) + " encap seg6local action End flavors next-csid lblen 32 nflen 16"
                + " dev " + anyPort);
        if (plan.hasNics(sw)) {
            for (String tenant : plan.tenants()) {
                int fn = plan.decapFunction(sw, tenant);
                String dt6 = " encap seg6local action End.DT6 table " + plan.vrfTable(tenant) + " dev " + anyPort;
                out.add("route add " + plan.functionSid(sw, fn) + dt6);
                out.add("route add " + Usid.address(block, fn) + "/48" + dt6);
            }
        }
        for (Map.Entry<String, Integer> ua : plan.uaFunctions(sw).entrySet()) {
            Link l = f.link(ua.getKey());
            String neighbour = l.otherEnd(sw).node();
            String dev = layout.iface(l.id(), sw);
            out.add("route add " + Usid.address(block, ua.getValue()) + "/48 encap seg6local action End.X nh6 "
                    + plan.linkLocal(l.id(), neighbour) + " oif " + dev + " flavors next-csid lblen 32 nflen 16"
                    + " dev " + dev);
        }
        for (String other : plan.switches()) {
            if (other.equals(sw)) {
                continue;
            }
            List<Arc> hops = plan.nextHops(sw, other);
            if (hops.isEmpty()) {
                continue;
            }
            StringBuilder r = new StringBuilder("route add ").append(plan.locator(other));
            if (hops.size() == 1) {
                r.append(' ').append(via(hops.get(0)));
            } else {
                hops.forEach(a -> r.append(" nexthop ").append(via(a)));
            }
            out.add(r.toString());
        }
        List<String> nicPorts = new ArrayList<>();
        for (String nic : plan.linkedNics(sw)) {
            Link l = plan.nicLink(sw, nic);
            String dev = layout.iface(l.id(), sw);
            nicPorts.add(dev);
            for (String tenant : plan.tenants()) {
                out.add("route add " + plan.nicAddress(nic) + "/128 via " + plan.linkLocal(l.id(), nic) + " dev " + dev
                        + " table " + plan.vrfTable(tenant));
            }
        }
        for (String tenant : plan.tenants()) {
            for (String dev : nicPorts) {
                out.add("rule add iif " + dev + " lookup " + plan.vrfTable(tenant)
                        + " pref " + (VRF_RULE_PREF + plan.tenantIndex(tenant)));
            }
        }
        out.addAll(ev.ipLines(sw));
        return out;
    }

    /**
     * The lines that restore a node after one of its ports came back up: the kernel removed the
     * port's addresses and every route through it (multipath ones lose that next hop), so the
     * node's addresses and routes are set again with "replace"; rules and the anchor survive.
     */
    public List<String> reapplyLines(String nodeId) {
        Node n = plan.fabric().node(nodeId);
        if (n == null) {
            throw new IllegalArgumentException("no node \"" + nodeId + "\" in fabric " + plan.fabric().id());
        }
        List<String> all = n.role().isSwitch() ? switchLines(nodeId) : nicLines(nodeId);
        List<String> out = new ArrayList<>();
        for (String l : all) {
            if (l.startsWith("route add ")) {
                out.add("route replace " + l.substring("route add ".length()));
            } else if (l.startsWith("addr add ")) {
                out.add("addr replace " + l.substring("addr add ".length()));
            } else if (l.startsWith("link set ")) {
                out.add(l);
            }
        }
        return out;
    }

    List<String> nicLines(String nic) {
        List<String> out = interfaceLines(nic);
        Arc home = plan.attachment(nic);
        String dev = layout.iface(home.link().id(), nic);
        out.add("addr add " + plan.nicAddress(nic) + "/128 dev " + dev + " nodad");
        out.add("route add default " + via(home));
        return out;
    }

    /** "via <far end's link-local> dev <near end's veth>" for leaving over an arc. */
    private String via(Arc a) {
        return "via " + plan.linkLocal(a.link().id(), a.to()) + " dev " + layout.iface(a.link().id(), a.from());
    }

    private boolean isSwitch(String nodeId) {
        Node n = plan.fabric().node(nodeId);
        return n != null && n.role().isSwitch();
    }
}
