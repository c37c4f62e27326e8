package io.weft.simulator.live;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.weft.contracts.DirectionKey;
import io.weft.fabric.Arc;
import io.weft.fabric.Endpoint;
import io.weft.fabric.Link;
import io.weft.fabric.Role;
import io.weft.plan.FabricPlan;
import io.weft.simulator.EcmpHasher;
import io.weft.simulator.FlowResult;
import io.weft.simulator.FlowSpec;
import io.weft.simulator.LinkEvent;
import io.weft.simulator.Routing;
import io.weft.simulator.Simulation;
import io.weft.simulator.SimulationException;

/**
 * The demo's fabric: the placed flows, each routed by its agent's current entry (an SRv6 carrier
 * list or an entropy value, walked over the plan by {@link Simulation}), sharing the links max-min
 * fairly, plus the link conditions an incident injects; and every switch port's counters, grown
 * from those rates by {@link #tick}.
 *
 * <p>The simulation is used as a rate solver at a fixed time 0: flows are persistent and send at
 * their demand (the profile entry's weight) unless the network gives them less. Any change (a flow
 * added, moved or gone, a link condition) recomputes every rate at once; between changes the
 * rates are constant and the counters grow linearly with wall time.
 *
 * <p>Drops: a flow getting less than its demand loses the difference at the first arc of its route
 * that is full; background load above an arc's capacity is dropped there too. They show as the
 * sending port's out-discards and its queue's dropped-pkts. Every link direction that is up also
 * carries {@link #CONTROL_GBPS} of control traffic (LLDP, routing keepalives, probes), as real
 * links do: without it an idle port's counters would stand still, which the collector rightly
 * takes for a dead link once it carried traffic. Thread-safe (every method locks).
 */
final class LiveFabric {
    /** Control-plane traffic on every up link direction, Gbit/s (1 Mbit/s). */
    static final double CONTROL_GBPS = 0.001;

    /** One simulated flow: a placed flow as its source NIC's agent was last told. */
    record LiveFlow(String id, String jobId, String srcNic, String dstNic, double demandGbps, Routing routing) {
        /** The carriers or EV, as printed. */
        String encoding() {
            return routing.mode() == Routing.Mode.SRV6 ? String.join(",", routing.carriers())
                    : "ev " + routing.ev();
        }
    }

    /** A flow's counters as its NIC would report them: bytes sent and packets lost since it was added. */
    record FlowSample(LiveFlow flow, long bytes, double rateGbps, long drops) {
    }

    /** What one profile changed: a flow added, moved (new routing) or gone. */
    record Change(String flowId, String kind, LiveFlow before, LiveFlow after) {
    }

    private FabricPlan plan;
    private Simulation sim;
    private final Map<String, LiveFlow> flows = new LinkedHashMap<>();
    private final Set<String> failedLinks = new HashSet<>();
    private final Map<String, Double> throttles = new HashMap<>();
    /** "link>fromNode" (the loaded direction leaves fromNode) → Gbit/s of traffic Weft does not place. */
    private final Map<String, Double> background = new HashMap<>();
    /** Switch → its ports in fabric link order; kept across plans so the counters never go back. */
    private final Map<String, List<SwitchPort>> portsBySwitch = new LinkedHashMap<>();
    private final Map<String, SwitchPort> portsByKey = new HashMap<>();
    /** Flow id → {bytes sent, packets lost} so far, kept while the flow is in the fabric. */
    private final Map<String, double[]> flowCounters = new HashMap<>();
    private SwitchPort[] arcSender;
    private SwitchPort[] arcReceiver;
    private long lastTickNs = -1;

    LiveFabric(FabricPlan plan) {
        setPlan(plan);
    }

    /** Follows a new plan (a new snapshot version): routes are walked again over its tables. */
    synchronized void setPlan(FabricPlan newPlan) {
        this.plan = Objects.requireNonNull(newPlan, "plan");
        for (Link l : plan.fabric().links()) {
            for (Endpoint e : List.of(l.a(), l.b())) {
                if (plan.fabric().node(e.node()).role() == Role.NIC || e.port() == null) {
                    continue; // gnmic polls switches only
                }
                String key = e.node() + "/" + e.port();
                if (!portsByKey.containsKey(key)) {
                    SwitchPort p = new SwitchPort(e.node(), e.port(), l.capacityGbps());
                    portsByKey.put(key, p);
                    portsBySwitch.computeIfAbsent(e.node(), k -> new ArrayList<>()).add(p);
                }
            }
        }
        failedLinks.removeIf(id -> plan.fabric().link(id) == null);
        throttles.keySet().removeIf(id -> plan.fabric().link(id) == null);
        background.keySet().removeIf(k -> plan.fabric().link(k.substring(0, k.indexOf('>'))) == null);
        rebuild();
    }

    synchronized FabricPlan plan() {
        return plan;
    }

    /**
     * Applies one agent profile (the scheduler's EvProfile JSON, already parsed): every flow from
     * {@code nic} becomes what its GOOD entry says (SRv6 carriers preferred over an EV); flows of
     * this NIC the profile no longer holds, or holds with no usable entry, stop.
     *
     * @return what changed, in profile order
     */
    synchronized List<Change> applyProfile(String nic, List<ProfileEntry> entries) {
        Map<String, LiveFlow> wanted = new LinkedHashMap<>();
        for (ProfileEntry e : entries) {
            if (!e.good()) {
                continue;
            }
            LiveFlow seen = wanted.get(e.flowId());
            if (seen != null && seen.routing().mode() == Routing.Mode.SRV6) {
                continue;
            }
            wanted.put(e.flowId(), new LiveFlow(e.flowId(), e.jobId(), nic, e.peer(), e.demandGbps(), e.routing()));
        }
        List<Change> changes = new ArrayList<>();
        boolean structural = false;
        for (var it = flows.entrySet().iterator(); it.hasNext(); ) {
            LiveFlow f = it.next().getValue();
            if (f.srcNic().equals(nic) && !wanted.containsKey(f.id())) {
                it.remove();
                changes.add(new Change(f.id(), "gone", f, null));
                structural = true;
            }
        }
        for (LiveFlow w : wanted.values()) {
            LiveFlow before = flows.get(w.id());
            if (before == null) {
                flows.put(w.id(), w);
                changes.add(new Change(w.id(), "added", null, w));
                structural = true;
            } else if (!before.routing().equals(w.routing()) || before.demandGbps() != w.demandGbps()) {
                flows.put(w.id(), w);
                changes.add(new Change(w.id(), "moved", before, w));
                if (before.demandGbps() != w.demandGbps()) {
                    structural = true;
                } else if (!structural) {
                    try {
                        sim.reroute(w.id(), w.routing());
                    } catch (SimulationException ex) {
                        structural = true; // rebuild() reports it
                    }
                }
            }
        }
        if (structural) {
            rebuild();
        } else if (!changes.isEmpty()) {
            sim.runUntil(0);
        }
        return changes;
    }

    /** Fails a link (both directions): its ports report oper-status DOWN, flows crossing it stall. */
    synchronized void fail(String linkId) {
        checkLink(linkId);
        failedLinks.add(linkId);
        rebuild();
    }

    synchronized void restore(String linkId) {
        checkLink(linkId);
        failedLinks.remove(linkId);
        rebuild();
    }

    /** Scales a link's capacity (both directions) by {@code factor} in [0, 1]; 1 undoes it. */
    synchronized void throttle(String linkId, double factor) {
        checkLink(linkId);
        if (!(factor >= 0 && factor <= 1)) {
            throw new IllegalArgumentException("factor: " + factor + " is not in [0, 1]");
        }
        throttles.put(linkId, factor);
        rebuild();
    }

    /** Puts {@code gbps} of traffic Weft does not place on the direction of {@code linkId} leaving {@code fromNode}. */
    synchronized void background(String linkId, String fromNode, double gbps) {
        Link l = checkLink(linkId);
        if (!l.touches(fromNode)) {
            throw new IllegalArgumentException("from: \"" + fromNode + "\" is not an end of link " + linkId);
        }
        if (!(gbps >= 0) || Double.isInfinite(gbps)) {
            throw new IllegalArgumentException("gbps: " + gbps + " is not a finite load >= 0");
        }
        background.put(key(linkId, fromNode), gbps);
        rebuild();
    }

    synchronized List<LiveFlow> flows() {
        return new ArrayList<>(flows.values());
    }

    synchronized LiveFlow flow(String id) {
        return flows.get(id);
    }

    synchronized double rateGbps(String flowId) {
        return flows.containsKey(flowId) ? sim.rateGbps(flowId) : 0;
    }

    /** The arcs (link + direction) of a flow's current route, e.g. {@code leaf1-spine2>spine2}. */
    synchronized List<String> arcKeys(String flowId) {
        List<String> out = new ArrayList<>();
        if (!flows.containsKey(flowId)) {
            return out;
        }
        int[] r = sim.routeArcs(flowId);
        if (r != null) {
            for (int a : r) {
                out.add(key(sim.arcs().arc(a)));
            }
        }
        return out;
    }

    /** Flows whose route crosses the arc {@code linkId>toNode}. */
    synchronized List<String> flowsOnArc(String arcKey) {
        List<String> out = new ArrayList<>();
        for (String id : flows.keySet()) {
            if (arcKeys(id).contains(arcKey)) {
                out.add(id);
            }
        }
        return out;
    }

    /** Flows whose route crosses the link in either direction. */
    synchronized List<String> flowsOnLink(String linkId) {
        List<String> out = new ArrayList<>();
        for (String id : flows.keySet()) {
            for (String k : arcKeys(id)) {
                if (DirectionKey.parse(k).linkId().equals(linkId)) {
                    out.add(id);
                    break;
                }
            }
        }
        return out;
    }

    /** Every switch-to-switch arc key, in fabric order. */
    synchronized List<String> switchArcKeys() {
        List<String> out = new ArrayList<>();
        for (int a = 0; a < sim.arcs().size(); a++) {
            Arc arc = sim.arcs().arc(a);
            if (isSwitch(arc.from()) && isSwitch(arc.to())) {
                out.add(key(arc));
            }
        }
        return out;
    }

    synchronized boolean failed(String linkId) {
        return failedLinks.contains(linkId);
    }

    synchronized int switchCount() {
        return portsBySwitch.size();
    }

    /**
     * Grows every switch port's counters by the current rates over the wall time since the last
     * tick and renders one gnmic record per switch (key: the switch) sampled at {@code nowNs}.
     */
    synchronized Map<String, String> tick(long nowNs) {
        double seconds = lastTickNs < 0 ? 0 : (nowNs - lastTickNs) / 1e9;
        lastTickNs = nowNs;
        int n = sim.arcs().size();
        double[] load = sim.arcLoadsGbps();
        double[] sent = new double[n];
        double[] dropped = new double[n];
        double[] throttled = new double[n];
        for (int a = 0; a < n; a++) {
            Arc arc = sim.arcs().arc(a);
            if (failedLinks.contains(arc.link().id())) {
                continue;
            }
            throttled[a] = arc.link().capacityGbps() * throttles.getOrDefault(arc.link().id(), 1.0);
            double bg = background.getOrDefault(key(arc.link().id(), arc.from()), 0.0);
            sent[a] = load[a] + Math.min(bg, throttled[a]) + CONTROL_GBPS;
            dropped[a] = Math.max(0, bg - throttled[a]);
        }
        for (FlowResult r : sim.results()) {
            LiveFlow f = flows.get(r.id());
            double lost = f.demandGbps() - r.rateGbps();
            double[] fc = flowCounters.computeIfAbsent(r.id(), k -> new double[2]);
            fc[0] += r.rateGbps() * 1e9 / 8 * seconds;
            fc[1] += Math.max(0, lost) * 1e9 / 8 * seconds / SwitchPort.PACKET_BYTES;
            if (r.state() != FlowResult.State.ACTIVE || lost <= 1e-6) {
                continue;
            }
            for (int a : sim.routeArcs(r.id())) {
                if (sent[a] >= throttled[a] * (1 - 1e-9) - 1e-6) {
                    dropped[a] += lost;
                    break;
                }
            }
        }
        Map<SwitchPort, double[]> rates = new HashMap<>();
        for (int a = 0; a < n; a++) {
            if (arcSender[a] != null) {
                double[] r = rates.computeIfAbsent(arcSender[a], k -> new double[3]);
                r[0] += sent[a];
                r[2] += dropped[a];
            }
            if (arcReceiver[a] != null) {
                rates.computeIfAbsent(arcReceiver[a], k -> new double[3])[1] += sent[a];
            }
        }
        Map<String, String> records = new LinkedHashMap<>();
        for (var e : portsBySwitch.entrySet()) {
            for (SwitchPort p : e.getValue()) {
                double[] r = rates.getOrDefault(p, new double[3]);
                p.advance(seconds, r[0], r[1], r[2]);
            }
            records.put(e.getKey(), GnmicEvents.record(e.getKey(), e.getValue(), nowNs));
        }
        return records;
    }

    /** Every flow's counters, in flow order. */
    synchronized List<FlowSample> flowSamples() {
        List<FlowSample> out = new ArrayList<>();
        for (LiveFlow f : flows.values()) {
            double[] c = flowCounters.getOrDefault(f.id(), new double[2]);
            out.add(new FlowSample(f, (long) c[0], sim.rateGbps(f.id()), (long) c[1]));
        }
        return out;
    }

    /**
     * A new simulation of the current plan, flows and conditions; flows that no longer walk are
     * dropped and reported.
     */
    private void rebuild() {
        flowCounters.keySet().retainAll(flows.keySet());
        Simulation s = new Simulation(plan, new EcmpHasher(0));
        for (var it = flows.values().iterator(); it.hasNext(); ) {
            LiveFlow f = it.next();
            if (!addFlow(s, f)) {
                it.remove();
            }
        }
        try {
            for (String id : failedLinks) {
                s.schedule(LinkEvent.fail(0, id));
            }
            for (var t : throttles.entrySet()) {
                s.schedule(LinkEvent.throttle(0, t.getKey(), t.getValue()));
            }
            for (var b : background.entrySet()) {
                int gt = b.getKey().indexOf('>');
                s.schedule(LinkEvent.background(0, b.getKey().substring(0, gt), b.getKey().substring(gt + 1),
                        b.getValue()));
            }
        } catch (SimulationException e) {
            throw new IllegalStateException("link condition refused after checks: " + e.getMessage(), e);
        }
        s.runUntil(0);
        sim = s;
        int n = s.arcs().size();
        arcSender = new SwitchPort[n];
        arcReceiver = new SwitchPort[n];
        for (int a = 0; a < n; a++) {
            Arc arc = s.arcs().arc(a);
            Endpoint from = arc.link().endOf(arc.from());
            Endpoint to = arc.link().endOf(arc.to());
            arcSender[a] = portsByKey.get(from.node() + "/" + from.port());
            arcReceiver[a] = portsByKey.get(to.node() + "/" + to.port());
            SwitchPort p = arcSender[a];
            if (p != null) {
                p.up = !failedLinks.contains(arc.link().id());
            }
        }
    }

    /**
     * Adds a flow in the first of the fabric's tenants its encoding walks in (the profile does not
     * name the tenant; the egress leaf's decap function does).
     */
    private boolean addFlow(Simulation s, LiveFlow f) {
        String last = null;
        for (String tenant : plan.tenants()) {
            try {
                s.addFlow(new FlowSpec(f.id(), f.srcNic(), f.dstNic(), tenant, f.routing(), Double.POSITIVE_INFINITY,
                        0, f.demandGbps()));
                return true;
            } catch (SimulationException e) {
                last = e.getMessage();
            }
        }
        System.err.println("live: flow " + f.id() + " (" + f.srcNic() + " -> " + f.dstNic() + ", " + f.encoding()
                + ") does not walk on plan of " + plan.fabric().id() + ": " + last + "; not simulated");
        return false;
    }

    private boolean isSwitch(String node) {
        return plan.fabric().node(node).role() != Role.NIC;
    }

    private Link checkLink(String linkId) {
        Link l = plan.fabric().link(linkId);
        if (l == null) {
            throw new IllegalArgumentException("link: no link \"" + linkId + "\" in fabric " + plan.fabric().id());
        }
        return l;
    }

    static String key(Arc arc) {
        return arc.key();
    }

    /** Background load is keyed by the sending end: {@code linkId>fromNode}, not a direction key. */
    private static String key(String linkId, String fromNode) {
        return linkId + ">" + fromNode;
    }
}
