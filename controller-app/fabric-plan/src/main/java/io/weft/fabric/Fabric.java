package io.weft.fabric;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A fabric as described by a fabric file (contracts/fabric.schema.json): nodes, links, the SRv6
 * block and the tenants. Immutable. Lookups by id are O(1); adjacency lists keep file order so
 * every algorithm that walks them is deterministic.
 *
 * <p>A Fabric may be structurally invalid (dangling link ends, duplicate ids): construction never
 * fails on content so that the validator can report every problem at once. Use
 * {@code FabricValidator} before planning.
 */
public final class Fabric {
    public static final int SCHEMA_VERSION = 1;
    public static final String DEFAULT_BLOCK = "fcbb:bb00::/32";

    private final String id;
    private final String name;
    private final String family;
    private final String srv6Block;
    private final List<String> tenants;
    private final List<Node> nodes;
    private final List<Link> links;
    private final Map<String, Object> params;
    private final Map<String, Node> nodesById = new LinkedHashMap<>();
    private final Map<String, Link> linksById = new LinkedHashMap<>();
    private final Map<String, List<Link>> linksByNode = new LinkedHashMap<>();

    public Fabric(String id, String name, String family, String srv6Block, List<String> tenants,
                  List<Node> nodes, List<Link> links, Map<String, Object> params) {
        this.id = Objects.requireNonNull(id, "id");
        this.name = name == null ? id : name;
        this.family = family == null ? "custom" : family;
        this.srv6Block = srv6Block == null ? DEFAULT_BLOCK : srv6Block;
        this.tenants = Collections.unmodifiableList(new ArrayList<>(
                tenants == null || tenants.isEmpty() ? List.of("default") : tenants));
        this.nodes = Collections.unmodifiableList(new ArrayList<>(nodes));
        this.links = Collections.unmodifiableList(new ArrayList<>(links));
        this.params = params == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(params));
        for (Node n : this.nodes) {
            nodesById.putIfAbsent(n.id(), n);
            linksByNode.putIfAbsent(n.id(), new ArrayList<>());
        }
        for (Link l : this.links) {
            linksById.putIfAbsent(l.id(), l);
            linksByNode.computeIfAbsent(l.a().node(), k -> new ArrayList<>()).add(l);
            if (!l.b().node().equals(l.a().node())) {
                linksByNode.computeIfAbsent(l.b().node(), k -> new ArrayList<>()).add(l);
            }
        }
    }

    public String id() {
        return id;
    }

    public String name() {
        return name;
    }

    /** Generator family (leaf-spine, fat-tree, rail, dragonfly, slimfly) or "custom". */
    public String family() {
        return family;
    }

    /** The fabric-wide SRv6 uSID block, a /32 such as fcbb:bb00::/32. */
    public String srv6Block() {
        return srv6Block;
    }

    /** Tenant names; each gets its own VRF. Never empty ("default" when the file names none). */
    public List<String> tenants() {
        return tenants;
    }

    public List<Node> nodes() {
        return nodes;
    }

    public List<Link> links() {
        return links;
    }

    /** Generator parameters, kept for the record (family-specific, informational). */
    public Map<String, Object> params() {
        return params;
    }

    /** The node with this id, or null. */
    public Node node(String nodeId) {
        return nodesById.get(nodeId);
    }

    /** The link with this id, or null. */
    public Link link(String linkId) {
        return linksById.get(linkId);
    }

    /** Links touching this node, in file order (empty for unknown nodes). */
    public List<Link> linksOf(String nodeId) {
        List<Link> l = linksByNode.get(nodeId);
        return l == null ? List.of() : Collections.unmodifiableList(l);
    }

    /** Arcs leaving this node, in file order. */
    public List<Arc> arcsFrom(String nodeId) {
        List<Arc> out = new ArrayList<>();
        for (Link l : linksOf(nodeId)) {
            out.add(new Arc(l, nodeId));
        }
        return out;
    }

    /** Nodes with this role, in file order. */
    public List<Node> nodesWithRole(Role role) {
        List<Node> out = new ArrayList<>();
        for (Node n : nodes) {
            if (n.role() == role) {
                out.add(n);
            }
        }
        return out;
    }

    /** A copy with other nodes and links (same id, block, tenants): used by re-planning tests and tools. */
    public Fabric with(List<Node> newNodes, List<Link> newLinks) {
        return new Fabric(id, name, family, srv6Block, tenants, newNodes, newLinks, params);
    }
}
