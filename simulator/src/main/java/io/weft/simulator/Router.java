package io.weft.simulator;

import java.util.List;

import io.weft.fabric.Arc;
import io.weft.fabric.Link;
import io.weft.fabric.Role;
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
    /** UGAL-L's Valiant intermediates: the switches of the top tier (every router of a Dragonfly or Slim Fly). */
    private final List<String> intermediates = new java.util.ArrayList<>();

    /**
     * UGAL-L's threshold, in flows x hops: the non-minimal path is taken only when the minimal output's
     * load times its hops exceeds the non-minimal one's by more than this. Zero: the plain comparison.
     */
    public static final int UGAL_THRESHOLD = 0;

    /** How far congestion backs up into the source switch's output queue (see {@link #ugalL}). */
    public static final int BACKPRESSURE_HOPS = 1;

    public Router(FabricPlan plan, ArcTable arcs, EcmpHasher hasher) {
        this.plan = plan;
        this.arcs = arcs;
        this.hasher = hasher;
        Role top = Role.LEAF;
        for (String s : plan.switches()) {
            switchIndex.put(s, switchIndex.size());
            Role r = plan.fabric().node(s).role();
            top = r.ordinal() > top.ordinal() ? r : top;
        }
        for (String s : plan.switches()) {
            if (plan.fabric().node(s).role() == top) {
                intermediates.add(s);
            }
        }
    }

    /** The walked arcs of a steered flow; WalkException (naming the field) when it does not walk. */
    public int[] steered(String srcNic, String dstNic, String tenant, Routing routing) throws WalkException {
        List<Arc> path;
        if (routing.mode() == Routing.Mode.SRV6) {
            path = ForwardingWalk.walkCarriers(plan, srcNic, dstNic, routing.carriers(), tenant);
        } else if (routing.mode() == Routing.Mode.EV) {
            path = routing.port() == null ? ForwardingWalk.walkEv(plan, srcNic, dstNic, routing.ev(), tenant)
                    : ForwardingWalk.walkEv(plan, srcNic, dstNic, routing.ev(), tenant, routing.port());
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
     * The UGAL-L route (Kim et al., ISCA 2008) of a flow, or null when the destination is cut off. At the
     * source switch it compares the minimal route (the ECMP route of this five-tuple) with a Valiant route
     * through one random intermediate of the top tier (chosen by hashing the five-tuple at the source
     * switch: seeded, stable per flow), each hashed hop by hop over shortest paths, and takes the Valiant
     * route when (flows on the minimal output) x (minimal hops) > (flows on the Valiant output) x (Valiant
     * hops) + {@link #UGAL_THRESHOLD}. "Output" is the source switch's own outgoing link on each route
     * (local information only, the "-L"); {@code flowsOn} counts the flows already routed on each arc,
     * which stands in for queue occupancy in a fluid model. Hops count switch-to-switch links.
     */
    public int[] ugalL(String srcNic, String dstNic, int srcPort, LinkConditions conditions, int[] flowsOn) {
        int[] minimal = ecmp(srcNic, dstNic, srcPort, conditions);
        if (minimal == null || minimal.length <= 2) {
            return minimal; // cut off, or delivered by the source switch itself: nothing to choose
        }
        int[] valiant = valiant(srcNic, dstNic, srcPort, minimal, conditions);
        if (valiant == null) {
            return minimal;
        }
        long minimalCost = (long) occupancy(minimal, flowsOn) * (minimal.length - 2);
        long valiantCost = (long) occupancy(valiant, flowsOn) * (valiant.length - 2);
        return minimalCost > valiantCost + UGAL_THRESHOLD ? valiant : minimal;
    }

    /**
     * The fluid stand-in for the queue at the source switch's output on this route: the flows on that
     * output, or on the next {@link #BACKPRESSURE_HOPS} links of the route if more. A lossless fabric's
     * credits (or PFC) stop an output whose next hop is oversubscribed, so its queue fills with the
     * downstream congestion; a fluid model has no queues to carry that back, so it is read from there.
     */
    private static int occupancy(int[] route, int[] flowsOn) {
        int most = 0;
        for (int k = 1; k <= 1 + BACKPRESSURE_HOPS && k < route.length; k++) {
            most = Math.max(most, flowsOn[route[k]]);
        }
        return most;
    }

    /**
     * The Valiant route: the minimal route's first arc (NIC to source switch), then hashed over
     * shortest paths to a random top-tier switch other than the source and destination switches, then
     * on to the destination. Null when no such route exists or it would cross one link direction twice.
     */
    private int[] valiant(String srcNic, String dstNic, int srcPort, int[] minimal, LinkConditions conditions) {
        String src = arcs.arc(minimal[0]).to();
        String dst = arcs.arc(minimal[minimal.length - 1]).from();
        List<String> choices = new java.util.ArrayList<>(intermediates);
        choices.remove(src);
        choices.remove(dst);
        if (choices.isEmpty()) {
            return null;
        }
        byte[] tuple = FiveTuple.rocev2(address(srcNic), address(dstNic), srcPort).bytes();
        String via = choices.get(hasher.pick(src + "/valiant", tuple, choices.size()));
        int[] route = new int[2 * ForwardingWalk.HOP_LIMIT + 2];
        route[0] = minimal[0];
        int n = hashTo(src, via, tuple, conditions, route, 1);
        if (n < 0) {
            return null;
        }
        String dstSwitch = destinationSwitch(via, dstNic);
        n = dstSwitch == null ? -1 : hashTo(via, dstSwitch, tuple, conditions, route, n);
        Arc delivery = n < 0 ? null : deliveryArc(dstSwitch, dstNic);
        if (delivery == null) {
            return null;
        }
        route[n++] = arcs.id(delivery);
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (route[i] == route[j]) {
                    return null;
                }
            }
        }
        int[] out = java.util.Arrays.copyOf(route, n);
        return conditions.crossesFailure(out) ? null : out;
    }

    /** Hashes hop by hop over the working shortest-path next hops from {@code at} to {@code target}; -1 if stuck. */
    private int hashTo(String at, String target, byte[] tuple, LinkConditions conditions, int[] route, int n) {
        while (!at.equals(target)) {
            List<Arc> hops = conditions.failedLinks() == 0 ? plan.nextHops(at, target)
                    : survivingNextHops(at, target, conditions);
            List<Arc> live = new java.util.ArrayList<>(hops.size());
            for (Arc h : hops) {
                if (!conditions.failed(arcs.id(h))) {
                    live.add(h);
                }
            }
            if (live.isEmpty() || n >= route.length - 1) {
                return -1;
            }
            Arc next = live.get(hasher.pick(at, tuple, live.size()));
            route[n++] = arcs.id(next);
            at = next.to();
        }
        return n;
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
