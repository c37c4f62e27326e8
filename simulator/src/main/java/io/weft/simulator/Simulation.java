package io.weft.simulator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Arc;
import io.weft.fabric.Node;
import io.weft.fabric.Role;
import io.weft.plan.FabricPlan;
import io.weft.plan.walk.WalkException;

/**
 * A flow-level (fluid) simulation of one planned fabric. Flows get max-min fair rates over the
 * link directions they cross ({@link MaxMinSolver}); between two events every rate is constant,
 * so the next event is the earliest of: a flow arrival, a scheduled link event, or the first
 * completion at current rates. Rates are recomputed after each event, and only then.
 *
 * <p>Time is in seconds, sizes in bytes, rates in Gbit/s (10^9 bit/s). Not thread-safe.
 */
public final class Simulation {
    private static final double BITS_PER_BYTE = 8;
    private static final double GBPS = 1e9;

    private final FabricPlan plan;
    private final ArcTable arcs;
    private final LinkConditions conditions;
    private final Router router;
    private final MaxMinSolver solver = new MaxMinSolver();

    private final List<FlowSpec> specs = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();
    private final List<Routing> routing = new ArrayList<>();
    private int[][] route = new int[16][];
    private FlowResult.State[] state = new FlowResult.State[16];
    private double[] remainingBits = new double[16];
    private double[] rate = new double[16];
    private double[] finishS = new double[16];

    private final List<LinkEvent> events = new ArrayList<>();
    private int nextEvent;
    private Integer[] arrivalOrder = new Integer[0];
    private int nextArrival;
    private boolean arrivalsSorted = true;

    private double now;
    private boolean dirty = true;
    private long recomputations;

    // Scratch for the solver, grown as needed.
    private int[] activeFlows = new int[16];
    private int[] routeStart = new int[17];
    private int[] routeArcs = new int[64];
    private double[] demand = new double[16];
    private double[] solved = new double[16];

    public Simulation(FabricPlan plan, EcmpHasher hasher) {
        this.plan = plan;
        this.arcs = new ArcTable(plan.fabric());
        this.conditions = new LinkConditions(arcs);
        this.router = new Router(plan, arcs, hasher);
    }

    public FabricPlan plan() {
        return plan;
    }

    public ArcTable arcs() {
        return arcs;
    }

    /** Current simulated time, seconds. */
    public double now() {
        return now;
    }

    /** How many times rates were recomputed so far. */
    public long recomputations() {
        return recomputations;
    }

    /**
     * Adds a flow; steered flows are walked now, so a bad encoding is refused here (the message
     * starts with the field: srcNic, dstNic, tenant, carriers, ev) rather than found mid-run.
     */
    public void addFlow(FlowSpec f) throws SimulationException {
        if (index.containsKey(f.id())) {
            throw new SimulationException("id: flow \"" + f.id() + "\" is already in the simulation");
        }
        checkNic(f.srcNic(), "src");
        checkNic(f.dstNic(), "dst");
        if (f.srcNic().equals(f.dstNic())) {
            throw new SimulationException("dst: \"" + f.dstNic() + "\" is also the flow's source");
        }
        if (!plan.hasTenant(f.tenant())) {
            throw new SimulationException("tenant: \"" + f.tenant() + "\" is not a tenant of fabric "
                    + plan.fabric().id());
        }
        if (f.startS() < now) {
            throw new SimulationException("startS: " + f.startS() + " is before the simulation's time " + now);
        }
        int[] r = resolve(f, f.routing());
        int i = specs.size();
        grow(i + 1);
        specs.add(f);
        index.put(f.id(), i);
        routing.add(f.routing());
        route[i] = r;
        state[i] = FlowResult.State.PENDING;
        remainingBits[i] = f.sizeBytes() * BITS_PER_BYTE;
        rate[i] = 0;
        finishS[i] = Double.NaN;
        arrivalsSorted = false;
        if (f.startS() <= now) {
            dirty = true;
        }
    }

    /** Schedules a link event (at or after the current time). */
    public void schedule(LinkEvent e) throws SimulationException {
        if (!arcs.hasLink(e.linkId())) {
            throw new SimulationException("link: no link \"" + e.linkId() + "\" in fabric " + plan.fabric().id());
        }
        if (e.atS() < now) {
            throw new SimulationException("atS: " + e.atS() + " is before the simulation's time " + now);
        }
        if (e.kind() == LinkEvent.Kind.THROTTLE && !(e.value() >= 0 && e.value() <= 1)) {
            throw new SimulationException("factor: " + e.value() + " is not in [0, 1]");
        }
        if (e.kind() == LinkEvent.Kind.BACKGROUND) {
            if (!(e.value() >= 0) || Double.isInfinite(e.value())) {
                throw new SimulationException("gbps: " + e.value() + " is not a finite load >= 0");
            }
            if (e.fromNode() != null && !plan.fabric().link(e.linkId()).touches(e.fromNode())) {
                throw new SimulationException("from: \"" + e.fromNode() + "\" is not an end of link " + e.linkId());
            }
        }
        int at = events.size();
        while (at > nextEvent && events.get(at - 1).atS() > e.atS()) {
            at--;
        }
        events.add(at, e);
    }

    /**
     * Moves a flow to another routing (what the controller does when it re-places a flow).
     * Refused with the field named when the new encoding does not walk.
     */
    public void reroute(String flowId, Routing newRouting) throws SimulationException {
        int i = flow(flowId);
        int[] r = resolve(specs.get(i), newRouting);
        routing.set(i, newRouting);
        route[i] = r;
        if (state[i] == FlowResult.State.ACTIVE || state[i] == FlowResult.State.STALLED) {
            state[i] = r == null || conditions.crossesFailure(r) ? FlowResult.State.STALLED : FlowResult.State.ACTIVE;
            dirty = true;
        }
    }

    /** Runs until every flow is done (or no event can change anything any more). */
    public void run() {
        runUntil(Double.POSITIVE_INFINITY);
    }

    /** Runs until simulated time {@code endS} (events at endS are applied), or until nothing can change. */
    public void runUntil(double endS) {
        sortArrivals();
        while (true) {
            applyDue();
            if (dirty) {
                recomputeRates();
            }
            if (now >= endS) {
                return;
            }
            double next = endS;
            if (nextEvent < events.size()) {
                next = Math.min(next, events.get(nextEvent).atS());
            }
            if (nextArrival < arrivalOrder.length) {
                next = Math.min(next, specs.get(arrivalOrder[nextArrival]).startS());
            }
            for (int i = 0; i < specs.size(); i++) {
                if (state[i] == FlowResult.State.ACTIVE && rate[i] > 0) {
                    next = Math.min(next, now + remainingBits[i] / (rate[i] * GBPS));
                }
            }
            if (next == Double.POSITIVE_INFINITY) {
                return;
            }
            advance(next);
        }
    }

    /**
     * Recomputes every active flow's max-min fair rate from the current routes and link
     * conditions. {@link #runUntil} calls it after each event; public for the benchmark and for
     * callers that changed nothing but want fresh rates.
     */
    public void recomputeRates() {
        int n = 0;
        int len = 0;
        for (int i = 0; i < specs.size(); i++) {
            if (state[i] == FlowResult.State.ACTIVE) {
                activeFlows[n++] = i;
                len += route[i].length;
            } else {
                rate[i] = 0;
            }
        }
        if (routeArcs.length < len) {
            routeArcs = new int[Math.max(len, routeArcs.length * 2)];
        }
        int p = 0;
        for (int k = 0; k < n; k++) {
            int i = activeFlows[k];
            routeStart[k] = p;
            System.arraycopy(route[i], 0, routeArcs, p, route[i].length);
            p += route[i].length;
            demand[k] = specs.get(i).demandGbps();
        }
        routeStart[n] = p;
        solver.solve(n, routeStart, routeArcs, demand, conditions.capacitiesGbps(), solved);
        for (int k = 0; k < n; k++) {
            rate[activeFlows[k]] = solved[k];
        }
        dirty = false;
        recomputations++;
    }

    /** The flow's state, times, rate and route. */
    public FlowResult result(String flowId) {
        int i = index.get(checkedId(flowId));
        List<Arc> r = new ArrayList<>();
        if (route[i] != null) {
            for (int a : route[i]) {
                r.add(arcs.arc(a));
            }
        }
        return new FlowResult(specs.get(i).id(), state[i], specs.get(i).startS(), finishS[i], rate[i],
                remainingBits[i] / BITS_PER_BYTE, r);
    }

    /** Every flow's result, in the order they were added. */
    public List<FlowResult> results() {
        List<FlowResult> out = new ArrayList<>(specs.size());
        for (FlowSpec f : specs) {
            out.add(result(f.id()));
        }
        return out;
    }

    /** Current rate of a flow, Gbit/s. */
    public double rateGbps(String flowId) {
        return rate[flow(flowId)];
    }

    /** Current route of a flow as arc ids (null while ECMP finds none). */
    public int[] routeArcs(String flowId) {
        int[] r = route[flow(flowId)];
        return r == null ? null : r.clone();
    }

    /** Per arc: the sum of the current rates of the flows crossing it, Gbit/s (background load excluded). */
    public double[] arcLoadsGbps() {
        double[] load = new double[arcs.size()];
        for (int i = 0; i < specs.size(); i++) {
            if (state[i] == FlowResult.State.ACTIVE && rate[i] > 0) {
                for (int a : route[i]) {
                    load[a] += rate[i];
                }
            }
        }
        return load;
    }

    /** True while the arc's link is failed. */
    public boolean arcFailed(int arc) {
        return conditions.failed(arc);
    }

    /** What the flows of each arc can share now (capacity after failures, throttling, background). */
    public double[] arcCapacitiesGbps() {
        return conditions.capacitiesGbps();
    }

    private void applyDue() {
        boolean topology = false;
        while (nextEvent < events.size() && events.get(nextEvent).atS() <= now) {
            LinkEvent e = events.get(nextEvent++);
            switch (e.kind()) {
                case FAIL:
                    conditions.setFailed(e.linkId(), true);
                    topology = true;
                    break;
                case RESTORE:
                    conditions.setFailed(e.linkId(), false);
                    topology = true;
                    break;
                case THROTTLE:
                    conditions.setThrottle(e.linkId(), e.value());
                    break;
                case BACKGROUND:
                    conditions.setBackground(e.linkId(), e.fromNode(), e.value());
                    break;
                default:
                    throw new IllegalStateException("unhandled event kind " + e.kind());
            }
            dirty = true;
        }
        // UGAL-L's local load: flows routed per arc, counted once a UGAL-L flow arrives, then kept up to date
        // in arrival order.
        int[] flowsOn = null;
        while (nextArrival < arrivalOrder.length && specs.get(arrivalOrder[nextArrival]).startS() <= now) {
            int i = arrivalOrder[nextArrival++];
            state[i] = FlowResult.State.ACTIVE;
            if (routing.get(i).mode() == Routing.Mode.UGAL_L && flowsOn == null) {
                flowsOn = flowsOnArcs();
            }
            if (routing.get(i).routedByFabric()) {
                route[i] = routeByFabric(i, flowsOn);
            }
            if (route[i] == null || conditions.crossesFailure(route[i])) {
                state[i] = FlowResult.State.STALLED;
            } else if (flowsOn != null) {
                for (int a : route[i]) {
                    flowsOn[a]++;
                }
            }
            dirty = true;
        }
        if (topology) {
            reroute();
        }
    }

    /**
     * After a failure or a restore: ECMP flows re-hash, steered flows stall or resume; then UGAL-L flows
     * choose again, in flow order, each seeing the others' routes and the UGAL-L flows before it.
     */
    private void reroute() {
        boolean ugal = false;
        for (int i = 0; i < specs.size(); i++) {
            if (state[i] != FlowResult.State.ACTIVE && state[i] != FlowResult.State.STALLED) {
                continue;
            }
            if (routing.get(i).mode() == Routing.Mode.UGAL_L) {
                route[i] = null;
                ugal = true;
                continue;
            }
            if (routing.get(i).routedByFabric()) {
                route[i] = routeByFabric(i, null);
            }
            state[i] = route[i] == null || conditions.crossesFailure(route[i])
                    ? FlowResult.State.STALLED : FlowResult.State.ACTIVE;
        }
        if (!ugal) {
            return;
        }
        int[] flowsOn = flowsOnArcs();
        for (int i = 0; i < specs.size(); i++) {
            if ((state[i] != FlowResult.State.ACTIVE && state[i] != FlowResult.State.STALLED)
                    || routing.get(i).mode() != Routing.Mode.UGAL_L) {
                continue;
            }
            route[i] = routeByFabric(i, flowsOn);
            state[i] = route[i] == null || conditions.crossesFailure(route[i])
                    ? FlowResult.State.STALLED : FlowResult.State.ACTIVE;
            if (state[i] == FlowResult.State.ACTIVE) {
                for (int a : route[i]) {
                    flowsOn[a]++;
                }
            }
        }
    }

    /** The route the fabric gives flow i now: its ECMP hash, or UGAL-L's choice against {@code flowsOn}. */
    private int[] routeByFabric(int i, int[] flowsOn) {
        FlowSpec f = specs.get(i);
        Routing r = routing.get(i);
        return r.mode() == Routing.Mode.UGAL_L ? router.ugalL(f.srcNic(), f.dstNic(), r.srcPort(), conditions, flowsOn)
                : router.ecmp(f.srcNic(), f.dstNic(), r.srcPort(), conditions);
    }

    /** Per arc: how many active flows are routed over it now. */
    private int[] flowsOnArcs() {
        int[] n = new int[arcs.size()];
        for (int i = 0; i < specs.size(); i++) {
            if (state[i] == FlowResult.State.ACTIVE && route[i] != null) {
                for (int a : route[i]) {
                    n[a]++;
                }
            }
        }
        return n;
    }

    private void advance(double to) {
        double dt = to - now;
        for (int i = 0; i < specs.size(); i++) {
            if (state[i] != FlowResult.State.ACTIVE || rate[i] <= 0
                    || remainingBits[i] == Double.POSITIVE_INFINITY) {
                continue; // persistent flows never finish
            }
            double size = specs.get(i).sizeBytes() * BITS_PER_BYTE;
            double done = now + remainingBits[i] / (rate[i] * GBPS);
            remainingBits[i] -= rate[i] * GBPS * dt;
            // Flows finishing together (symmetric ones) must finish in the same step despite rounding.
            if (done <= to + 1e-12 * Math.max(1, to) || remainingBits[i] <= 1e-9 * size) {
                remainingBits[i] = 0;
                state[i] = FlowResult.State.DONE;
                finishS[i] = Math.min(done, to);
                rate[i] = 0;
                dirty = true;
            }
        }
        now = to;
    }

    private void sortArrivals() {
        if (arrivalsSorted) {
            return;
        }
        List<Integer> pending = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            if (state[i] == FlowResult.State.PENDING) {
                pending.add(i);
            }
        }
        pending.sort(Comparator.comparingDouble((Integer i) -> specs.get(i).startS()).thenComparing(i -> i));
        arrivalOrder = pending.toArray(new Integer[0]);
        nextArrival = 0;
        arrivalsSorted = true;
    }

    private int[] resolve(FlowSpec f, Routing r) throws SimulationException {
        if (r == null) {
            throw new SimulationException("routing: flow \"" + f.id() + "\" has none");
        }
        if (r.routedByFabric()) {
            if (r.srcPort() <= 0 || r.srcPort() > 0xFFFF) {
                throw new SimulationException("srcPort: " + r.srcPort() + " is not a UDP source port (1..65535)");
            }
            return null; // hashed when the flow starts, against the link conditions of that moment
        }
        try {
            return router.steered(f.srcNic(), f.dstNic(), f.tenant(), r);
        } catch (WalkException e) {
            String field = r.mode() == Routing.Mode.SRV6 ? "carriers" : "ev";
            throw new SimulationException(field + ": flow \"" + f.id() + "\" does not walk: " + e.getMessage());
        }
    }

    private void checkNic(String nic, String field) throws SimulationException {
        Node n = nic == null ? null : plan.fabric().node(nic);
        if (n == null || n.role() != Role.NIC) {
            throw new SimulationException(field + ": \"" + nic + "\" is not a NIC of fabric " + plan.fabric().id());
        }
    }

    private int flow(String flowId) {
        return index.get(checkedId(flowId));
    }

    private String checkedId(String flowId) {
        if (!index.containsKey(flowId)) {
            throw new IllegalArgumentException("flow: no flow \"" + flowId + "\" in the simulation");
        }
        return flowId;
    }

    private void grow(int n) {
        if (n <= state.length) {
            return;
        }
        int c = Math.max(n, state.length * 2);
        route = Arrays.copyOf(route, c);
        state = Arrays.copyOf(state, c);
        remainingBits = Arrays.copyOf(remainingBits, c);
        rate = Arrays.copyOf(rate, c);
        finishS = Arrays.copyOf(finishS, c);
        activeFlows = new int[c];
        routeStart = new int[c + 1];
        demand = new double[c];
        solved = new double[c];
    }
}
