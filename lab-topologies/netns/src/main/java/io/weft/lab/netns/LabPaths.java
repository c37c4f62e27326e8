package io.weft.lab.netns;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.weft.fabric.Arc;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.plan.FabricPlan;

/** NIC-to-NIC paths for the lab: through a given switch sequence, or the first shortest one. */
public final class LabPaths {
    private LabPaths() {
    }

    /**
     * The path src NIC, switches..., dst NIC. Between two switches the first link by id is taken
     * (among parallel links); use {@link #over} to pick a particular one.
     */
    public static List<Arc> via(FabricPlan plan, String srcNic, String dstNic, List<String> switches) {
        requireNic(plan, "srcNic", srcNic);
        requireNic(plan, "dstNic", dstNic);
        if (switches.isEmpty()) {
            throw new IllegalArgumentException("via: at least one switch is needed");
        }
        List<Arc> path = new ArrayList<>();
        String first = switches.get(0);
        Link in = plan.nicLink(first, srcNic);
        if (in == null) {
            throw new IllegalArgumentException("via: " + srcNic + " is not linked to " + first);
        }
        path.add(new Arc(in, srcNic));
        for (int i = 1; i < switches.size(); i++) {
            String a = switches.get(i - 1);
            String b = switches.get(i);
            Arc hop = plan.fabric().arcsFrom(a).stream().filter(x -> x.to().equals(b))
                    .min(Comparator.comparing(x -> x.link().id()))
                    .orElseThrow(() -> new IllegalArgumentException("via: no link between " + a + " and " + b));
            path.add(hop);
        }
        String last = switches.get(switches.size() - 1);
        Link out = plan.nicLink(last, dstNic);
        if (out == null) {
            throw new IllegalArgumentException("via: " + last + " is not linked to " + dstNic);
        }
        path.add(new Arc(out, last));
        return path;
    }

    /** The path over exactly these links, starting at the source NIC. */
    public static List<Arc> over(FabricPlan plan, String srcNic, List<String> linkIds) {
        List<Arc> path = new ArrayList<>();
        String at = srcNic;
        for (String id : linkIds) {
            Link l = plan.fabric().link(id);
            if (l == null || !l.touches(at)) {
                throw new IllegalArgumentException("links: " + id + " does not leave " + at);
            }
            Arc a = new Arc(l, at);
            path.add(a);
            at = a.to();
        }
        return path;
    }

    /** The first shortest path (underlay next hops in published order) between the NICs' home switches. */
    public static List<Arc> shortest(FabricPlan plan, String srcNic, String dstNic) {
        requireNic(plan, "srcNic", srcNic);
        requireNic(plan, "dstNic", dstNic);
        Arc home = plan.attachment(srcNic);
        String target = plan.attachment(dstNic).to();
        List<String> switches = new ArrayList<>();
        String at = home.to();
        switches.add(at);
        while (!at.equals(target)) {
            List<Arc> hops = plan.nextHops(at, target);
            if (hops.isEmpty()) {
                throw new IllegalArgumentException("no path from " + at + " to " + target);
            }
            at = hops.get(0).to();
            switches.add(at);
        }
        return via(plan, srcNic, dstNic, switches);
    }

    /** The same links walked the other way (for the replies). */
    public static List<Arc> reverse(List<Arc> path) {
        List<Arc> out = new ArrayList<>();
        for (int i = path.size() - 1; i >= 0; i--) {
            Arc a = path.get(i);
            out.add(new Arc(a.link(), a.to()));
        }
        return out;
    }

    private static void requireNic(FabricPlan plan, String field, String id) {
        Node n = plan.fabric().node(id);
        if (n == null || n.role().isSwitch()) {
            throw new IllegalArgumentException(field + ": \"" + id + "\" is not a NIC of fabric " + plan.fabric().id());
        }
    }
}
