package io.weft.lab.fabric;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Endpoint;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Node;

/**
 * Collects the nodes and links of a generated fabric. Port names are {@code eth<N>} per node, numbered
 * from 1 in the order links are added, so the same generator call always yields the same wiring
 * (eth0 stays free for a container's management interface).
 */
final class GeneratedFabricBuilder {
    private final String id;
    private final String name;
    private final String family;
    private final Map<String, Object> params;
    private final List<Node> nodes = new ArrayList<>();
    private final List<Link> links = new ArrayList<>();
    private final Map<String, Node> nodesById = new HashMap<>();
    private final Map<String, Integer> portsUsed = new HashMap<>();
    private final Map<String, Boolean> linkIds = new HashMap<>();

    GeneratedFabricBuilder(String id, String name, String family, Map<String, Object> params) {
        this.id = id;
        this.name = name;
        this.family = family;
        this.params = new LinkedHashMap<>(params);
    }

    Node add(Node node) {
        if (nodesById.putIfAbsent(node.id(), node) != null) {
            throw new IllegalStateException("generator made two nodes with id " + node.id());
        }
        nodes.add(node);
        return node;
    }

    /** Adds a link between two existing nodes on their next free ports. */
    Link link(String linkId, String a, String b, double capacityGbps, long latencyNs) {
        if (!nodesById.containsKey(a) || !nodesById.containsKey(b)) {
            throw new IllegalStateException("link " + linkId + " names a node that was not added");
        }
        if (linkIds.putIfAbsent(linkId, Boolean.TRUE) != null) {
            throw new IllegalStateException("generator made two links with id " + linkId);
        }
        Link l = new Link(linkId, new Endpoint(a, nextPort(a)), new Endpoint(b, nextPort(b)), capacityGbps, latencyNs);
        links.add(l);
        return l;
    }

    private String nextPort(String node) {
        return "eth" + portsUsed.merge(node, 1, Integer::sum);
    }

    Fabric build() {
        return new Fabric(id, name, family, Fabric.DEFAULT_BLOCK, List.of("default"), nodes, links, params);
    }

    /** A parameter value for the fabric's params record: integral numbers without a ".0". */
    static Object number(double v) {
        return v == Math.rint(v) && Math.abs(v) < Long.MAX_VALUE ? (Object) (long) v : (Object) v;
    }
}
