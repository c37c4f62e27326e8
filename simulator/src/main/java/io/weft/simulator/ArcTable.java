package io.weft.simulator;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;

/**
 * Dense integer ids for the directions of a fabric's links, so that rates and routes live in
 * primitive arrays. Link i (file order) has arc 2i from its a end to its b end and arc 2i+1 back.
 * Each direction is a resource of its own with the link's full capacity (full duplex).
 */
public final class ArcTable {
    private final Fabric fabric;
    private final Map<String, Integer> linkIndex = new HashMap<>();
    private final double[] capacityGbps;

    public ArcTable(Fabric fabric) {
        this.fabric = fabric;
        List<Link> links = fabric.links();
        capacityGbps = new double[links.size() * 2];
        for (int i = 0; i < links.size(); i++) {
            Link l = links.get(i);
            linkIndex.put(l.id(), i);
            capacityGbps[2 * i] = l.capacityGbps();
            capacityGbps[2 * i + 1] = l.capacityGbps();
        }
    }

    public Fabric fabric() {
        return fabric;
    }

    /** Number of arcs: twice the number of links. */
    public int size() {
        return capacityGbps.length;
    }

    /** The arc id of a direction of a link of this fabric. */
    public int id(Arc arc) {
        int l = linkIndexOf(arc.link().id());
        return arc.from().equals(arc.link().a().node()) ? 2 * l : 2 * l + 1;
    }

    /** The index of a link in file order; IllegalArgumentException naming the link when unknown. */
    public int linkIndexOf(String linkId) {
        Integer l = linkIndex.get(linkId);
        if (l == null) {
            throw new IllegalArgumentException("link: no link \"" + linkId + "\" in fabric " + fabric.id());
        }
        return l;
    }

    /** True when the fabric has a link with this id. */
    public boolean hasLink(String linkId) {
        return linkIndex.containsKey(linkId);
    }

    /** The arc as the core's type (for printing and comparing with walked paths). */
    public Arc arc(int id) {
        Link l = fabric.links().get(id / 2);
        return new Arc(l, id % 2 == 0 ? l.a().node() : l.b().node());
    }

    /** Nominal capacity of one direction, Gbit/s (before failures, throttling and background load). */
    public double capacityGbps(int arc) {
        return capacityGbps[arc];
    }

    /** A copy of every arc's nominal capacity. */
    public double[] capacitiesGbps() {
        return capacityGbps.clone();
    }

    /** The arc ids of a path of arcs. */
    public int[] ids(List<Arc> path) {
        int[] out = new int[path.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = id(path.get(i));
        }
        return out;
    }
}
