package io.weft.simulator;

import java.util.List;

import io.weft.fabric.Arc;
import io.weft.fabric.Link;
import io.weft.plan.FabricPlan;
import io.weft.plan.walk.ForwardingWalk;
import io.weft.plan.walk.WalkException;

/**
 * Turns a flow's routing into the arcs its packets cross. Steered flows (SRv6, EV) are followed by
 * the core's {@link ForwardingWalk}, the same oracle that proves every encoding Weft hands out, so
 * the simulator forwards exactly as the planned tables do. ECMP flows are hashed hop by hop.
 *
 * <p>Failures: a steered path is fixed by its encoding, so a failed link on it stalls the flow
 * until it is moved or the link comes back (the underlay is not re-converged around it: uSID
 * carriers name every hop). ECMP flows are hashed over the shortest paths of the surviving
 * links, as an underlay routing protocol leaves them once it has converged (no convergence delay
 * is modelled): a switch's failed next hops drop out of its group, and where none is left the
 * distances themselves change. A flow whose destination is cut off stalls.
 */
public final class Router {
    private final FabricPlan plan;
    private final ArcTable arcs;
    private final EcmpHasher hasher;
    private final java.util.Map<String, Integer> switchIndex = new java.util.HashMap<>();
    private final java.util.Map<String, int[]> survivingDistance = new java.util.HashMap<>();
    private long distanceVersion = -1;

    public Router(FabricPlan plan, ArcTable arcs, EcmpHasher hasher) {
        this.plan = plan;
        this.arcs = arcs;
        this.hasher = hasher;
        for (String s : plan.switches()) {
            switchIndex.put(s, switchIndex.size());
        }
    }

    /** The walked arcs of a steered flow; WalkException (naming the field) when it does not walk. */
    public int[] steered(String srcNic, String dstNic, String tenant, Routing routing) throws WalkException {
        List<Arc> path;
        if (routing.mode() == Routing.Mode.SRV6) {
            path = ForwardingWalk.walkCarriers(plan, srcNic, dstNic, routing.carriers(), tenant);
        } else if (routing.mode() == Routing.Mode.EV) {
            path = ForwardingWalk.walkEv(plan, srcNic, dstNic, routing.ev(), tenant);
        } else {
            throw new IllegalArgumentException("routing: " + routing.mode() + " is not steered");
        }
        return arcs.ids(path);
    }

    /**
     * The ECMP route of a RoCEv2 flow from {@code srcNic} to {@code dstNic} with this UDP source
     * port, or null when the hashing reaches a switch with no working next hop.
     */
    public int[] ecmp(String srcNic, String dstNic, int srcPort, LinkConditions conditions) {
        byte[] tuple = FiveTuple.rocev2(address(srcNic), address(dstNic), srcPort).bytes();
        int[] route = new int[ForwardingWalk.HOP_LIMIT + 1];
        int n = 0;
        Arc first = firstArc(srcNic, dstNic, tuple, conditions);
        if (first == null) {
            return null;
        }
        route[n++] = arcs.id(first);
        String at = first.to();
        String dstSwitch = destinationSwitch(at, dstNic);
        if (dstSwitch == null) {
            return null;
        }
        Arc[] live = new Arc[8];
        while (true) {
            Arc delivery = deliveryArc(at, dstNic);
            if (delivery != null) {
                route[n++] = arcs.id(delivery);
                break;
            }
            if (n > ForwardingWalk.HOP_LIMIT) {
                throw new IllegalStateException("ECMP route from " + srcNic + " to " + dstNic
                        + " exceeds the hop limit: shortest-path next hops cannot loop");
            }
            List<Arc> hops = conditions.failedLinks() == 0 ? plan.nextHops(at, dstSwitch)
                    : survivingNextHops(at, dstSwitch, conditions);
            int m = 0;
            if (live.length < hops.size()) {
                live = new Arc[hops.size()];
            }
            for (Arc h : hops) {
                if (!conditions.failed(arcs.id(h))) {
                    live[m++] = h;
                }
            }
            if (m == 0) {
                return null;
            }
            Arc next = live[hasher.pick(at, tuple, m)];
            route[n++] = arcs.id(next);
            at = next.to();
        }
        int[] out = java.util.Arrays.copyOf(route, n);
        return conditions.crossesFailure(out) ? null : out;
    }

    /**
     * The NIC's first arc: its only link, or with one port per plane (a multi-plane fabric) the
     * five-tuple hashed over its working ports whose plane still reaches the destination, as a
     * multi-plane NIC spreads flows over the planes its routes say are usable.
     */
    private Arc firstArc(String srcNic, String dstNic, byte[] tuple, LinkConditions conditions) {
        List<Arc> ports = new java.util.ArrayList<>(2);
        for (Arc a : plan.fabric().arcsFrom(srcNic)) {
            if (plan.fabric().node(a.to()).role().isSwitch() && !conditions.failed(arcs.id(a))) {
                ports.add(a);
            }
        }
        if (ports.size() <= 1) {
            return ports.isEmpty() ? null : ports.get(0);
        }
        if (conditions.failedLinks() > 0) {
            ports.removeIf(a -> !reaches(a.to(), dstNic, conditions));
            if (ports.isEmpty()) {
                return null;
            }
        }
        return ports.get(hasher.pick(srcNic, tuple, ports.size()));
    }

    private boolean reaches(String from, String dstNic, LinkConditions conditions) {
        String to = destinationSwitch(from, dstNic);
        if (to == null) {
            return false;
        }
        if (distanceVersion != conditions.failureVersion()) {
            survivingDistance.clear();
            distanceVersion = conditions.failureVersion();
        }
        return survivingDistance.computeIfAbsent(to, t -> bfs(t, conditions))[switchIndex.get(from)] >= 0;
    }

    /**
     * The switch the underlay routes to: the destination's home, or where the NIC has a port in
     * several planes, its first switch reachable from {@code from} (planes do not interconnect).
     */
    private String destinationSwitch(String from, String dstNic) {
        String home = plan.attachment(dstNic).to();
        if (home.equals(from) || plan.distance(from, home) >= 0) {
            return home;
        }
        for (Link l : plan.fabric().linksOf(dstNic)) {
            String other = l.a().node().equals(dstNic) ? l.b().node() : l.a().node();
            if (plan.fabric().node(other).role().isSwitch() && plan.distance(from, other) >= 0) {
                return other;
            }
        }
        return null;
    }

    /**
     * Next hops on shortest paths over the links still up, in the plan's member order (neighbour
     * id, then link id), exactly {@link FabricPlan#nextHops} when nothing has failed.
     */
    private List<Arc> survivingNextHops(String at, String dstSwitch, LinkConditions conditions) {
        if (distanceVersion != conditions.failureVersion()) {
            survivingDistance.clear();
            distanceVersion = conditions.failureVersion();
        }
        int[] d = survivingDistance.computeIfAbsent(dstSwitch, t -> bfs(t, conditions));
        int here = d[switchIndex.get(at)];
        List<Arc> out = new java.util.ArrayList<>(2);
        if (here <= 0) {
            return out;
        }
        for (Arc a : plan.switchArcs(at)) {
            if (!conditions.failed(arcs.id(a)) && d[switchIndex.get(a.to())] == here - 1) {
                out.add(a);
            }
        }
        return out;
    }

    private int[] bfs(String target, LinkConditions conditions) {
        int[] d = new int[switchIndex.size()];
        java.util.Arrays.fill(d, -1);
        java.util.ArrayDeque<String> queue = new java.util.ArrayDeque<>();
        d[switchIndex.get(target)] = 0;
        queue.add(target);
        while (!queue.isEmpty()) {
            String x = queue.poll();
            int dx = d[switchIndex.get(x)];
            for (Arc a : plan.switchArcs(x)) {
                int y = switchIndex.get(a.to());
                if (d[y] < 0 && !conditions.failed(arcs.id(a))) {
                    d[y] = dx + 1;
                    queue.add(a.to());
                }
            }
        }
        return d;
    }

    private String address(String nic) {
        String a = plan.nicAddress(nic);
        int slash = a.indexOf('/');
        return slash < 0 ? a : a.substring(0, slash);
    }

    /** Delivered at the first switch linked to the NIC, as the EV walk does: its home link there, else the first. */
    private Arc deliveryArc(String at, String dstNic) {
        Arc home = plan.attachment(dstNic);
        if (home.to().equals(at)) {
            return new Arc(home.link(), at);
        }
        Link l = plan.nicLink(at, dstNic);
        return l == null ? null : new Arc(l, at);
    }
}
