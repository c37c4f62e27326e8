package io.weft.plan;

import java.util.ArrayList;
import java.util.List;

import io.weft.fabric.Arc;
import io.weft.fabric.Node;
import io.weft.plan.ev.Ev;
import io.weft.plan.ev.EvRouting;
import io.weft.plan.srv6.Usid;
import io.weft.plan.walk.ForwardingWalk;
import io.weft.plan.walk.WalkException;

/**
 * Encodes a NIC-to-NIC path as uSID carriers and, where EV routing reaches it, an entropy value,
 * and proves both with the {@link ForwardingWalk} before returning them: a path whose carriers do
 * not walk back to it is an error, never an answer.
 */
public final class PathEncoder {
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
        if (!path.get(0).equals(plan.attachment(src))) {
            return null;
        }
        String dstSwitch = plan.attachment(dst).to();
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
            int ev = Ev.encode(n[0], idx[0], n[1], idx[1]);
            List<Arc> walked = ForwardingWalk.walkEv(plan, src, dst, ev, tenant);
            return walked.equals(path) ? ev : null;
        } catch (PlanException e) {
            return null;
        }
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
