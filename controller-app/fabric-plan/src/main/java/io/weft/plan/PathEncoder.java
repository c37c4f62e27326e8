package io.weft.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.weft.fabric.Arc;
import io.weft.fabric.Node;
import io.weft.plan.ev.Ev;
import io.weft.plan.ev.EvRouting;
import io.weft.plan.srv6.Usid;
import io.weft.plan.walk.CompiledWalk;
import io.weft.plan.walk.ForwardingWalk;
import io.weft.plan.walk.WalkException;

/**
 * Encodes a NIC-to-NIC path as uSID carriers and, where EV routing reaches it, an entropy value,
 * and proves both with the {@link ForwardingWalk} before returning them: a path whose carriers do
 * not walk back to it is an error, never an answer.
 *
 * <p>Two entries, one answer: {@link #encode(FabricPlan, List, String)} walks with
 * {@link ForwardingWalk} (the reference, which names every failure), {@link #encode(FabricPlan, int[],
 * String)} with {@link CompiledWalk} over arc numbers (the placement engine's hot path, ~10x cheaper).
 * The second hands anything its walk refuses to the first, so failures read the same, and a
 * differential test holds the two walks to the same arcs and verdicts.
 */
public final class PathEncoder {
    /** Scratch for the compiled walks (one per thread: encoders run on several). */
    private static final ThreadLocal<int[]> WALK_BUFFER = ThreadLocal.withInitial(() -> new int[CompiledWalk.MAX_ARCS]);

    private PathEncoder() {
    }

    /**
     * @param path every arc from the source NIC to the destination NIC (first NIC to switch, last
     *             switch to NIC), contiguous, switches in between
     */
    public static PathEncoding encode(FabricPlan plan, List<Arc> path, String tenant) throws PlanException {
        checkPath(plan, path);
        if (tenant == null || !plan.hasTenant(tenant)) {
            throw new PlanException("tenant: \"" + tenant + "\" is not a tenant of fabric " + plan.fabric().id());
        }
        String src = path.get(0).from();
        String dst = path.get(path.size() - 1).to();
        int[] usids = usids(plan, path, tenant);
        List<String> carriers = Usid.carriers(plan.blockGroups(), usids);
        List<Arc> walked;
        try {
            walked = ForwardingWalk.walkCarriers(plan, src, dst, carriers, tenant);
        } catch (WalkException e) {
            checkLinks(plan, path);
            throw new PlanException("carriers " + carriers + " do not walk: " + e.getMessage());
        }
        if (!walked.equals(path)) {
            checkLinks(plan, path);
            throw new PlanException("carriers " + carriers + " walk " + walked + ", not the requested " + path);
        }
        return new PathEncoding(carriers, usids, ev(plan, path, tenant));
    }

    /**
     * The same encoding for a path given as arc numbers of {@link CompiledWalk} (link i of the fabric
     * gives arcs 2i from its a end and 2i + 1 from its b end), proven by the compiled walk.
     */
    public static PathEncoding encode(FabricPlan plan, int[] path, String tenant) throws PlanException {
        PathEncoding e = encodeCompiled(plan, path, tenant);
        if (e != null) {
            return e;
        }
        // Refused (or not a path): the reference says why, in its words.
        CompiledWalk w = plan.compiledWalk();
        List<Arc> arcs = new ArrayList<>(path == null ? 0 : path.length);
        for (int i = 0; path != null && i < path.length; i++) {
            if (path[i] < 0 || path[i] >= w.arcCount()) {
                throw new PlanException("path[" + i + "]: " + path[i] + " is not an arc number of fabric "
                        + plan.fabric().id());
            }
            arcs.add(w.arc(path[i]));
        }
        return encode(plan, arcs, tenant);
    }

    /** The compiled walk's encoding, or null where it refuses (the reference then answers). */
    static PathEncoding encodeCompiled(FabricPlan plan, int[] path, String tenant) throws EncodingException {
        CompiledWalk w = plan.compiledWalk();
        int[] usids = usids(w, path, tenant);
        if (usids == null) {
            return null;
        }
        int n = path.length;
        int[] walked = WALK_BUFFER.get();
        int src = w.from(path[0]);
        int dst = w.to(path[n - 1]);
        if (w.walkCarriers(src, dst, usids, tenant, walked, path) != n || !Arrays.equals(walked, 0, n, path, 0, n)) {
            return null;
        }
        // Usid.carriers returns an unmodifiable list and usids is this call's own array: no copies.
        return new PathEncoding(Usid.carriers(w.blockGroups(), usids), usids, ev(w, path, tenant, walked), true);
    }

    /**
     * {@link #usids(FabricPlan, List, String)} over arc numbers, or null when the path is not one
     * (too short, not contiguous, wrong ends, unknown tenant, a uSID outside 16 bits).
     */
    private static int[] usids(CompiledWalk w, int[] path, String tenant) {
        int n = path == null ? 0 : path.length;
        if (n < 2 || tenant == null || !w.plan().hasTenant(tenant)) {
            return null;
        }
        int count = 1;
        for (int i = 0; i < n; i++) {
            int a = path[i];
            if (a < 0 || a >= w.arcCount() || w.isNic(w.from(a)) != (i == 0)
                    || i > 0 && w.to(path[i - 1]) != w.from(a)) {
                return null;
            }
            if (i > 0) {
                count += i < n - 1 && w.uaFunction(a) != 0 ? 2 : 1;
            }
        }
        int dst = w.to(path[n - 1]);
        int egress = w.from(path[n - 1]);
        if (!w.isNic(dst) || dst == w.from(path[0]) || !w.hasNics(egress)) {
            return null;
        }
        int[] u = new int[count];
        int k = 0;
        for (int i = 1; i < n; i++) {
            u[k++] = w.usid(w.from(path[i]));
            if (i < n - 1 && w.uaFunction(path[i]) != 0) {
                u[k++] = w.uaFunction(path[i]);
            }
        }
        u[k] = FabricPlan.DECAP_BASE + w.plan().tenantIndex(tenant);
        for (int x : u) {
            if (x < 1 || x > 0xFFFF) {
                return null;
            }
        }
        return u;
    }

    /** {@link #ev(FabricPlan, List, String)} over arc numbers; {@code buf} is scratch for the walk. */
    private static Integer ev(CompiledWalk w, int[] path, String tenant, int[] buf) {
        int src = w.from(path[0]);
        int dst = w.to(path[path.length - 1]);
        int rank = w.portRank(src, path[0]);
        if (rank < 0) {
            return null;
        }
        // On another plane than the destination's home, EV routing ends at its leaf on that plane.
        int dstSwitch = w.deliverySwitch(dst, w.to(path[0]));
        if (dstSwitch < 0) {
            return null;
        }
        int[] n = {1, 1};
        int[] idx = {0, 0};
        for (int stage = 1; stage <= 2 && stage < path.length - 1; stage++) {
            int hop = path[stage];
            int[] options = w.evOptions(w.from(hop), stage, dstSwitch);
            if (options == null || options.length > Ev.MAX_MEMBERS) {
                return null;
            }
            int i = indexOf(options, hop);
            if (i < 0) {
                return null;
            }
            n[stage - 1] = options.length;
            idx[stage - 1] = i;
        }
        int ev;
        try {
            ev = Ev.encodeForPort(n[0], idx[0], n[1], idx[1], rank);
        } catch (PlanException e) {
            return null;
        }
        int len = w.walkEvFrom(path[0], dst, dstSwitch, ev, tenant, buf, path);
        return len == path.length && Arrays.equals(buf, 0, len, path, 0, len) ? ev : null;
    }

    private static int indexOf(int[] a, int x) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == x) {
                return i;
            }
        }
        return -1;
    }

    /** uN of every switch hop, uA after it where the next hop has parallel links, then the decap function. */
    static int[] usids(FabricPlan plan, List<Arc> path, String tenant) {
        List<Integer> out = new ArrayList<>();
        for (int i = 1; i < path.size(); i++) {
            Arc a = path.get(i);
            String sw = a.from();
            out.add(plan.nodeId(sw));
            if (i < path.size() - 1) {
                Integer ua = plan.uaFunction(sw, a.link().id());
                if (ua != null) {
                    out.add(ua);
                }
            } else {
                out.add(plan.decapFunction(sw, tenant));
            }
        }
        int[] u = new int[out.size()];
        for (int i = 0; i < u.length; i++) {
            u[i] = out.get(i);
        }
        return u;
    }

    /** The EV whose walk is this path, or null when EV routing cannot produce it. */
    static Integer ev(FabricPlan plan, List<Arc> path, String tenant) {
        String src = path.get(0).from();
        String dst = path.get(path.size() - 1).to();
        if (!plan.fabric().node(path.get(0).to()).role().isSwitch()) {
            return null;
        }
        String dstSwitch = plan.deliverySwitch(dst, path.get(0).to());
        if (dstSwitch == null) {
            return null;
        }
        int[] n = {1, 1};
        int[] idx = {0, 0};
        // Hops 1 and 2 between switches are chosen by EV1 and EV2; the walk checks the rest.
        for (int stage = 1; stage <= 2 && stage < path.size() - 1; stage++) {
            Arc hop = path.get(stage);
            try {
                List<Arc> options = EvRouting.options(plan, hop.from(), stage, dstSwitch, stage);
                int i = options.indexOf(hop);
                if (i < 0 || options.size() > Ev.MAX_MEMBERS) {
                    return null;
                }
                n[stage - 1] = options.size();
                idx[stage - 1] = i;
            } catch (WalkException e) {
                return null;
            }
        }
        try {
            int ev = Ev.encodeForPort(n[0], idx[0], n[1], idx[1], portRank(plan, path.get(0)));
            List<Arc> walked = ForwardingWalk.walkEv(plan, src, dst, ev, tenant, path.get(0).link().id());
            return walked.equals(path) ? ev : null;
        } catch (PlanException e) {
            return null;
        }
    }

    /** The rank of the NIC's port {@code first} among its links to switches, in fabric order (0 = home). */
    private static int portRank(FabricPlan plan, Arc first) {
        int rank = 0;
        for (Arc a : plan.fabric().arcsFrom(first.from())) {
            if (a.link().id().equals(first.link().id())) {
                return rank;
            }
            if (plan.fabric().node(a.to()).role().isSwitch()) {
                rank++;
            }
        }
        return rank;
    }

    /** Every arc's link id is a link of the plan's fabric (the walk's equality proves it on success). */
    private static void checkLinks(FabricPlan plan, List<Arc> path) throws PlanException {
        for (int i = 0; i < path.size(); i++) {
            Arc a = path.get(i);
            if (plan.fabric().link(a.link().id()) == null) {
                throw new PlanException("path[" + i + "]: link " + a.link().id() + " is not in fabric "
                        + plan.fabric().id());
            }
        }
    }

    /** Nodes and contiguity; link membership is left to {@link #checkLinks} (see encode). */
    private static void checkPath(FabricPlan plan, List<Arc> path) throws PlanException {
        if (path == null || path.size() < 2) {
            throw new PlanException("path: needs at least two arcs (NIC to switch, switch to NIC)");
        }
        for (int i = 0; i < path.size(); i++) {
            Arc a = path.get(i);
            Node from = plan.fabric().node(a.from());
            boolean endpoint = i == 0;
            if (from == null || from.role().isSwitch() == endpoint) {
                throw new PlanException("path[" + i + "]: starts at " + a.from() + ", expected "
                        + (endpoint ? "the source NIC" : "a switch"));
            }
            if (i > 0 && !path.get(i - 1).to().equals(a.from())) {
                throw new PlanException("path[" + i + "]: starts at " + a.from() + " but path[" + (i - 1)
                        + "] ends at " + path.get(i - 1).to());
            }
        }
        Node last = plan.fabric().node(path.get(path.size() - 1).to());
        if (last == null || last.role().isSwitch()) {
            throw new PlanException("path[" + (path.size() - 1) + "]: must end at the destination NIC");
        }
        if (last.id().equals(path.get(0).from())) {
            throw new PlanException("path: source and destination are both " + last.id());
        }
    }
}
