package io.weft.lab.netns;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.weft.fabric.Endpoint;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Node;

/**
 * Where each fabric element lives in a lab: one network namespace per node, named
 * {@code wl-<tag>-<nodeId>}, and one veth end per link end, named {@code p<k>} where k is the
 * link's position among the node's links in file order. Fabric port names can be anything
 * ("Ethernet120/1"), Linux interface names are at most 15 bytes, so the mapping is recorded here
 * and printed by {@code ./weft lab status}. The layout is a pure function of the fabric, so every
 * command of a lab (up, ping, down) derives the same names.
 */
public final class LabLayout {
    /** Every lab namespace starts with this, so leftovers of crashed runs are easy to find. */
    public static final String PREFIX = "wl-";
    /** Tags stay short and dash-free: "wl-a-" must never be a prefix of another lab's names. */
    private static final Pattern TAG = Pattern.compile("[a-z0-9]{1,8}");
    private static final Pattern NODE_ID = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    private final Fabric fabric;
    private final String tag;
    private final Map<String, String> namespaces = new LinkedHashMap<>();
    /** link id to (node id to interface name). */
    private final Map<String, Map<String, String>> ifaces = new LinkedHashMap<>();

    public LabLayout(Fabric fabric, String tag) {
        checkTag(tag);
        this.fabric = fabric;
        this.tag = tag;
        for (Node n : fabric.nodes()) {
            if (!NODE_ID.matcher(n.id()).matches()) {
                throw new IllegalArgumentException("node id \"" + n.id() + "\": not usable in a namespace name"
                        + " (letters, digits, '.', '_', '-')");
            }
            namespaces.put(n.id(), prefix(tag) + n.id());
        }
        Map<String, Integer> used = new LinkedHashMap<>();
        for (Link l : fabric.links()) {
            Map<String, String> ends = new LinkedHashMap<>();
            for (Endpoint e : List.of(l.a(), l.b())) {
                int k = used.merge(e.node(), 1, Integer::sum) - 1;
                ends.put(e.node(), "p" + k);
            }
            ifaces.put(l.id(), Collections.unmodifiableMap(ends));
        }
    }

    /** Rejects tags that could collide with another lab's names; the message names the field. */
    public static void checkTag(String tag) {
        if (tag == null || !TAG.matcher(tag).matches()) {
            throw new IllegalArgumentException("tag: \"" + tag + "\" must be 1-8 lowercase letters or digits");
        }
    }

    /** The namespace prefix of every namespace of the lab with this tag. */
    public static String prefix(String tag) {
        return PREFIX + tag + "-";
    }

    public Fabric fabric() {
        return fabric;
    }

    public String tag() {
        return tag;
    }

    /** The node's namespace. */
    public String namespace(String nodeId) {
        String ns = namespaces.get(nodeId);
        if (ns == null) {
            throw new IllegalArgumentException("no node \"" + nodeId + "\" in fabric " + fabric.id());
        }
        return ns;
    }

    /** Node id to namespace, in fabric file order. */
    public Map<String, String> namespaces() {
        return Collections.unmodifiableMap(namespaces);
    }

    /** The veth name of {@code nodeId}'s end of a link. */
    public String iface(String linkId, String nodeId) {
        Map<String, String> ends = ifaces.get(linkId);
        String name = ends == null ? null : ends.get(nodeId);
        if (name == null) {
            throw new IllegalArgumentException("link \"" + linkId + "\" has no end at \"" + nodeId + "\"");
        }
        return name;
    }

    /** One line per link end: node, fabric port, veth name (what `lab status` prints). */
    public List<String> portMap() {
        List<String> out = new ArrayList<>();
        for (Link l : fabric.links()) {
            for (Endpoint e : List.of(l.a(), l.b())) {
                out.add(e.node() + " " + (e.port() == null ? "-" : e.port()) + " " + iface(l.id(), e.node()));
            }
        }
        return out;
    }
}
