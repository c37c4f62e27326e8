package io.weft.plan.walk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Arc;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.fabric.Role;
import io.weft.plan.EncodingException;
import io.weft.plan.FabricPlan;
import io.weft.plan.ev.Ev;
import io.weft.plan.ev.EvRouting;
import io.weft.plan.srv6.Usid;

/**
 * Follows a packet switch by switch exactly as the planned tables would, and returns the arcs it
 * crosses. This is the oracle that proves every path Weft hands out.
 *
 * <p><b>uSID mode</b>: the source NIC puts carriers[0] in the destination address and the rest in
 * an SRH. A switch whose uN is the active uSID consumes it (NEXT-CSID shift; an emptied carrier is
 * refilled from the SRH). A local function (0xE000-0xFFFF) is only valid right after the switch
 * consumed its own uN and is interpreted in that switch's context: uA forwards over its link,
 * uDT46 decapsulates into the tenant VRF and delivers to the NIC. Any other active uSID is routed
 * by the underlay towards that uN's locator, which must have a unique shortest-path next hop.
 *
 * <p><b>EV mode</b>: see {@link EvRouting}. A packet is delivered at the first switch the
 * destination NIC is linked to.
 *
 * <p>Both walks stop with {@link WalkException} after {@link #HOP_LIMIT} arcs.
 */
public final class ForwardingWalk {
    /** The NIC sends with hop limit 64; a packet still travelling after 64 arcs is looping. */
    public static final int HOP_LIMIT = 64;

    private ForwardingWalk() {
    }

    /**
     * The switch-level route of a carrier list, from the source NIC up to the switch that
     * decapsulates (the inner destination is not part of the carriers, so the last arc into a NIC
     * is not included; use the five-argument form to get it).
     */
    public static List<Arc> walkCarriers(FabricPlan plan, String srcNic, List<String> carriers, String tenant)
            throws WalkException {
        return walkCarriers(plan, srcNic, null, carriers, tenant);
    }

    /**
     * The full route of a carrier list from the source NIC to {@code dstNic}: the last arc is the
     * decapsulating switch's link to the destination NIC (an error when it has none).
     */
    public static List<Arc> walkCarriers(FabricPlan plan, String srcNic, String dstNic, List<String> carriers,
                                         String tenant) throws WalkException {
        checkNic(plan, srcNic, "srcNic");
        if (dstNic != null) {
            checkNic(plan, dstNic, "dstNic");
        }
        checkTenant(plan, tenant);
        if (carriers == null || carriers.isEmpty()) {
            throw bad("carriers: at least one carrier is needed");
        }
        List<int[]> segments = new ArrayList<>();
        int[] block = plan.blockGroups();
        for (int i = 0; i < carriers.size(); i++) {
            try {
                segments.add(Usid.parse(block, carriers.get(i)));
            } catch (EncodingException e) {
                throw bad("carriers[" + i + "]: " + e.getMessage());
            }
            if (segments.get(i).length == 0) {
                throw bad("carriers[" + i + "]: \"" + carriers.get(i) + "\" holds no uSID");
            }
        }
        List<Arc> path = new ArrayList<>();
        int seg = 0;
        int pos = 0;
        Arc first = firstArc(plan, srcNic, segments.get(0)[0]);
        path.add(first);
        String at = first.to();
        boolean consumedOwn = false;
        while (true) {
            if (path.size() > HOP_LIMIT) {
                throw new WalkException(WalkException.Kind.LOOP, at, path.size(),
                        "hop limit " + HOP_LIMIT + " exceeded");
            }
            int[] cur = segments.get(seg);
            if (pos >= cur.length) {
                throw new WalkException(WalkException.Kind.DEAD_END, at, path.size(),
                        "uSIDs used up without a decap function");
            }
            int u = cur[pos];
            int own = plan.nodeId(at);
            if (u == own) {
                pos++;
                consumedOwn = true;
                // NEXT-CSID: the switch that shifts out the carrier's last uSID loads the SRH's next one.
                if (pos >= cur.length && seg + 1 < segments.size()) {
                    seg++;
                    pos = 0;
                }
                continue;
            }
            if (u >= Usid.LIB_START) {
                if (!consumedOwn) {
                    throw new WalkException(WalkException.Kind.DEAD_END, at, path.size(), "local function 0x"
                            + Integer.toHexString(u) + " is not preceded by this switch's uN");
                }
                pos++;
                if (pos >= cur.length && seg + 1 < segments.size()) {
                    seg++;
                    pos = 0;
                }
                Arc ua = uaArc(plan, at, u);
                if (ua != null) {
                    path.add(ua);
                    at = ua.to();
                    consumedOwn = false;
                    continue;
                }
                String t = decapTenant(plan, at, u);
                if (t == null) {
                    throw new WalkException(WalkException.Kind.DEAD_END, at, path.size(),
                            "no local function 0x" + Integer.toHexString(u));
                }
                if (!t.equals(tenant)) {
                    throw new WalkException(WalkException.Kind.DEAD_END, at, path.size(), "decap into tenant "
                            + t + "'s VRF, but the packet belongs to tenant " + tenant);
                }
                if (pos < segments.get(seg).length) {
                    throw new WalkException(WalkException.Kind.DEAD_END, at, path.size(),
                            "uSIDs left after the decap function");
                }
                if (dstNic != null) {
                    Arc last = deliveryArc(plan, at, dstNic);
                    if (last == null) {
                        throw new WalkException(WalkException.Kind.DEAD_END, at, path.size(),
                                "decapsulated, but " + dstNic + " is not linked to this switch");
                    }
                    path.add(last);
                }
                return path;
            }
            consumedOwn = false;
            String target = plan.switchWithNodeId(u);
            if (target == null) {
                throw new WalkException(WalkException.Kind.DEAD_END, at, path.size(),
                        "no route to uSID 0x" + Integer.toHexString(u) + " (no switch has that uN)");
            }
            List<Arc> hops = plan.nextHops(at, target);
            if (hops.isEmpty()) {
                throw new WalkException(WalkException.Kind.DEAD_END, at, path.size(), "no route to " + target);
            }
            if (hops.size() > 1) {
                throw new WalkException(WalkException.Kind.AMBIGUOUS, at, path.size(),
                        hops.size() + " ECMP next hops towards " + target + "'s locator");
            }
            path.add(hops.get(0));
            at = hops.get(0).to();
        }
    }

    /**
     * The route of an EV-routed packet from {@code srcNic} to {@code dstNic} with UDP source port
     * {@code ev}, in the tenant's VRF, leaving by the source's home link.
     */
    public static List<Arc> walkEv(FabricPlan plan, String srcNic, String dstNic, int ev, String tenant)
            throws WalkException {
        checkNic(plan, srcNic, "srcNic");
        return walkEv(plan, srcNic, dstNic, ev, tenant, plan.attachment(srcNic).link().id());
    }

    /**
     * As {@link #walkEv(FabricPlan, String, String, int, String)}, leaving by the source's link
     * {@code firstLinkId} (a NIC with one port per plane sends on the port its agent steers the
     * source port to). The switches route the destination's address towards the switch
     * {@link FabricPlan#deliverySwitch} names from that port's switch: on another plane, the
     * destination's leaf on that plane.
     */
    public static List<Arc> walkEv(FabricPlan plan, String srcNic, String dstNic, int ev, String tenant,
                                   String firstLinkId) throws WalkException {
        checkNic(plan, srcNic, "srcNic");
        checkNic(plan, dstNic, "dstNic");
        checkTenant(plan, tenant);
        if (ev <= 0 || ev > 0xFFFF) {
            throw bad("ev: " + ev + " is not a UDP source port (1..65535)");
        }
        if (srcNic.equals(dstNic)) {
            throw bad("srcNic and dstNic are both " + srcNic);
        }
        Arc first = null;
        for (Arc a : plan.fabric().arcsFrom(srcNic)) {
            if (a.link().id().equals(firstLinkId) && plan.fabric().node(a.to()).role().isSwitch()) {
                first = a;
            }
        }
        if (first == null) {
            throw bad("firstLinkId: \"" + firstLinkId + "\" is not a link from " + srcNic + " to a switch");
        }
        Arc dstHome = plan.attachment(dstNic);
        String dstSwitch = plan.deliverySwitch(dstNic, first.to());
        List<Arc> path = new ArrayList<>();
        path.add(first);
        String at = first.to();
        if (dstSwitch == null) {
            throw new WalkException(WalkException.Kind.DEAD_END, at, path.size(),
                    "no switch linked to " + dstNic + " is reachable from " + at);
        }
        for (int stage = 1; ; stage++) {
            if (path.size() > HOP_LIMIT) {
                throw new WalkException(WalkException.Kind.LOOP, at, path.size(),
                        "hop limit " + HOP_LIMIT + " exceeded");
            }
            Arc last = deliveryArc(plan, at, dstNic, dstHome);
            if (last != null) {
                path.add(last);
                return path;
            }
            List<Arc> options = EvRouting.options(plan, at, stage, dstSwitch, path.size());
            int evByte = stage == 1 ? Ev.ev1(ev) : stage == 2 ? Ev.ev2(ev) : 0;
            Arc next = options.get(Ev.index(evByte, options.size()));
            path.add(next);
            at = next.to();
        }
    }

    /** A multi-homed NIC sends on the link to the switch whose uN comes first, else on its home link. */
    private static Arc firstArc(FabricPlan plan, String srcNic, int firstUsid) {
        Arc home = plan.attachment(srcNic);
        if (firstUsid > 0 && plan.nodeId(home.to()) != firstUsid) {
            for (Arc a : plan.fabric().arcsFrom(srcNic)) {
                Node to = plan.fabric().node(a.to());
                if (to.role().isSwitch() && plan.nodeId(a.to()) == firstUsid) {
                    return a;
                }
            }
        }
        return home;
    }

    private static Arc uaArc(FabricPlan plan, String at, int function) {
        for (Map.Entry<String, Integer> e : plan.uaFunctions(at).entrySet()) {
            if (e.getValue() == function) {
                return new Arc(plan.fabric().link(e.getKey()), at);
            }
        }
        return null;
    }

    private static String decapTenant(FabricPlan plan, String at, int function) {
        if (!plan.hasNics(at)) {
            return null;
        }
        for (String t : plan.tenants()) {
            if (plan.decapFunction(at, t) == function) {
                return t;
            }
        }
        return null;
    }

    /** The switch's link to the NIC: its home link when that ends here, else the first in file order. */
    private static Arc deliveryArc(FabricPlan plan, String at, String dstNic) {
        return deliveryArc(plan, at, dstNic, plan.attachment(dstNic));
    }

    private static Arc deliveryArc(FabricPlan plan, String at, String dstNic, Arc home) {
        if (home.to().equals(at)) {
            return new Arc(home.link(), at);
        }
        Link l = plan.nicLink(at, dstNic);
        return l == null ? null : new Arc(l, at);
    }

    private static void checkNic(FabricPlan plan, String nic, String field) throws WalkException {
        Node n = nic == null ? null : plan.fabric().node(nic);
        if (n == null || n.role() != Role.NIC) {
            throw bad(field + ": \"" + nic + "\" is not a NIC of fabric " + plan.fabric().id());
        }
    }

    private static void checkTenant(FabricPlan plan, String tenant) throws WalkException {
        if (tenant == null || !plan.hasTenant(tenant)) {
            throw bad("tenant: \"" + tenant + "\" is not a tenant of fabric " + plan.fabric().id());
        }
    }

    private static WalkException bad(String what) {
        return new WalkException(WalkException.Kind.BAD_INPUT, null, 0, what);
    }
}
