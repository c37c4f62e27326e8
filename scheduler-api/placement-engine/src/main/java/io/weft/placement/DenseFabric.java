package io.weft.placement;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.carrotsearch.hppc.ObjectIntHashMap;
import io.weft.contracts.LinkState;
import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.fabric.Role;

/**
 * A fabric snapshot as dense int indices, built once per snapshot so the placement inner loops
 * touch only arrays. Link i becomes arcs 2i (a to b) and 2i+1 (b to a); the numbering depends only
 * on the link list, so loads indexed by arc survive a change of link states ({@link #withStates}).
 *
 * <p>Down and drained links are kept in the arrays (flows on them must be found) but are absent
 * from the adjacency lists, so no search can use them.
 */
public final class DenseFabric {
    /** Tier of a role in the up/down (valley-free) sense: NIC 0, leaf and router 1, spine 2, superspine 3. */
    static int tierOf(Role r) {
        switch (r) {
            case NIC:
                return 0;
            case LEAF:
            case ROUTER:
                return 1;
            case SPINE:
                return 2;
            default:
                return 3;
        }
    }

    private final Fabric fabric;
    private final Map<String, LinkState> states;
    final int nodeCount;
    final String[] nodeIds;
    final Role[] roles;
    final int[] tier;
    /** Node id to index, open-addressed over plain arrays: admission resolves every flow's two NICs here. */
    private final ObjectIntHashMap<String> nodeIndex;
    private final Map<String, Integer> linkIndex;
    final int arcCount;
    final Arc[] arcs;
    final int[] arcFrom;
    final int[] arcTo;
    final double[] capacityGbps;
    /** 1 / capacity in kbit/s per arc: utilisation is load times this (the same doubles everywhere). */
    final double[] invCapKbps;
    final boolean[] usable;
    /** Usable arcs leaving each node, in fabric file order (deterministic searches). */
    final int[][] out;
    /** Every arc leaving each node, usable or not, in fabric file order (shared by the snapshots). */
    private final int[][] allOut;
    /** Per link: it can carry traffic when up (capacity above zero, two different ends). */
    private final boolean[] working;
    /** No two links share an id (a state then names one link, found by its index). */
    private final boolean uniqueLinkIds;
    /**
     * For a NIC: its attachment switch, its up arc (NIC to switch) and down arc; -1 otherwise or when
     * down. This is the NIC's first working port in fabric file order (its home link while that is up).
     */
    final int[] attach;
    final int[] nicUpArc;
    final int[] nicDownArc;
    /**
     * For a NIC: the up arc (NIC to switch) of every working port, in fabric file order; a port's down
     * arc is {@code up ^ 1}. A multi-plane NIC has one per plane, and a path may start at any of the
     * source's ports and end at any of the destination's that the fabric connects. Empty for other nodes.
     */
    final int[][] nicPorts;
    /** True when the fabric has routers (Dragonfly, Slim Fly): direct network, minimal + Valiant paths. */
    final boolean direct;
    /**
     * What {@link ClosExact} derives from this snapshot alone (its planes and its pod/plane structure per
     * demand and plane), kept with the snapshot so a placement does not rebuild it on every call.
     */
    final ClosExact.Derived closDerived = new ClosExact.Derived();

    private DenseFabric(Fabric fabric, Map<String, LinkState> states, DenseFabric shared) {
        this.fabric = fabric;
        this.states = Map.copyOf(states);
        if (shared != null) {
            nodeCount = shared.nodeCount;
            nodeIds = shared.nodeIds;
            roles = shared.roles;
            tier = shared.tier;
            nodeIndex = shared.nodeIndex;
            linkIndex = shared.linkIndex;
            arcCount = shared.arcCount;
            arcs = shared.arcs;
            arcFrom = shared.arcFrom;
            arcTo = shared.arcTo;
            capacityGbps = shared.capacityGbps;
            invCapKbps = shared.invCapKbps;
            direct = shared.direct;
            allOut = shared.allOut;
            working = shared.working;
            uniqueLinkIds = shared.uniqueLinkIds;
        } else {
            List<Node> nodes = fabric.nodes();
            nodeCount = nodes.size();
            nodeIds = new String[nodeCount];
            roles = new Role[nodeCount];
            tier = new int[nodeCount];
            nodeIndex = new ObjectIntHashMap<>(nodeCount);
            boolean routers = false;
            for (int i = 0; i < nodeCount; i++) {
                Node n = nodes.get(i);
                nodeIds[i] = n.id();
                roles[i] = n.role();
                tier[i] = tierOf(n.role());
                nodeIndex.putIfAbsent(n.id(), i);
                routers |= n.role() == Role.ROUTER;
            }
            direct = routers;
            List<Link> links = fabric.links();
            linkIndex = new HashMap<>(links.size() * 2);
            arcCount = links.size() * 2;
            arcs = new Arc[arcCount];
            arcFrom = new int[arcCount];
            arcTo = new int[arcCount];
            capacityGbps = new double[arcCount];
            for (int i = 0; i < links.size(); i++) {
                Link l = links.get(i);
                linkIndex.putIfAbsent(l.id(), i);
                int a = nodeIndex.getOrDefault(l.a().node(), -1);
                int b = nodeIndex.getOrDefault(l.b().node(), -1);
                if (a < 0 || b < 0) {
                    throw new IllegalArgumentException("link " + l.id() + " has an end on an unknown node");
                }
                arcs[2 * i] = new Arc(l, l.a().node());
                arcs[2 * i + 1] = new Arc(l, l.b().node());
                arcFrom[2 * i] = a;
                arcTo[2 * i] = b;
                arcFrom[2 * i + 1] = b;
                arcTo[2 * i + 1] = a;
                capacityGbps[2 * i] = l.capacityGbps();
                capacityGbps[2 * i + 1] = l.capacityGbps();
            }
            invCapKbps = new double[arcCount];
            for (int a = 0; a < arcCount; a++) {
                invCapKbps[a] = 1.0 / (capacityGbps[a] * 1e6);
            }
            uniqueLinkIds = linkIndex.size() == links.size();
            working = new boolean[links.size()];
            int[] degree = new int[nodeCount];
            for (int i = 0; i < links.size(); i++) {
                working[i] = links.get(i).capacityGbps() > 0 && arcFrom[2 * i] != arcTo[2 * i];
                degree[arcFrom[2 * i]]++;
                degree[arcFrom[2 * i + 1]]++;
            }
            allOut = new int[nodeCount][];
            for (int n = 0; n < nodeCount; n++) {
                allOut[n] = new int[degree[n]];
                degree[n] = 0;
            }
            for (int a = 0; a < arcCount; a++) {
                allOut[arcFrom[a]][degree[arcFrom[a]]++] = a;
            }
        }
        usable = new boolean[arcCount];
        boolean[] changed = shared == null ? null : new boolean[nodeCount];
        if (shared != null && uniqueLinkIds) {
            // A new snapshot of the same fabric: start from every working link up and take down the
            // links the states name, instead of looking up every link's state.
            for (int a = 0; a < arcCount; a += 2) {
                usable[a] = working[a >> 1];
                usable[a + 1] = usable[a];
            }
            for (Map.Entry<String, LinkState> e : this.states.entrySet()) {
                Integer i = linkIndex.get(e.getKey());
                if (i != null && !e.getValue().usable()) {
                    usable[2 * i] = false;
                    usable[2 * i + 1] = false;
                }
            }
        } else {
            List<Link> links = fabric.links();
            for (int i = 0; i < links.size(); i++) {
                LinkState s = this.states.getOrDefault(links.get(i).id(), LinkState.UP);
                boolean up = s.usable() && working[i];
                usable[2 * i] = up;
                usable[2 * i + 1] = up;
            }
        }
        if (shared != null) {
            for (int a = 0; a < arcCount; a++) {
                if (usable[a] != shared.usable[a]) {
                    changed[arcFrom[a]] = true;
                }
            }
        }
        // Only the nodes with a link whose state changed get new lists; the others share the
        // snapshot's (never written after construction).
        out = new int[nodeCount][];
        for (int n = 0; n < nodeCount; n++) {
            out[n] = changed != null && !changed[n] ? shared.out[n] : usableOf(allOut[n]);
        }
        attach = shared == null ? new int[nodeCount] : shared.attach.clone();
        nicUpArc = shared == null ? new int[nodeCount] : shared.nicUpArc.clone();
        nicDownArc = shared == null ? new int[nodeCount] : shared.nicDownArc.clone();
        nicPorts = shared == null ? new int[nodeCount][] : shared.nicPorts.clone();
        int[] none = new int[0];
        for (int n = 0; n < nodeCount; n++) {
            if (changed != null && !changed[n]) {
                continue;
            }
            attach[n] = -1;
            nicUpArc[n] = -1;
            nicDownArc[n] = -1;
            nicPorts[n] = none;
            if (roles[n] != Role.NIC) {
                continue;
            }
            IntList ports = new IntList();
            for (int a : out[n]) {
                if (roles[arcTo[a]].isSwitch()) {
                    ports.add(a);
                }
            }
            if (ports.size() > 0) {
                int a = ports.get(0);
                attach[n] = arcTo[a];
                nicUpArc[n] = a;
                nicDownArc[n] = a ^ 1;
                nicPorts[n] = ports.toArray();
            }
        }
    }

    /** The usable arcs of a node's arcs, in the same (arc index, so fabric file) order. */
    private int[] usableOf(int[] arcsOut) {
        int k = 0;
        for (int a : arcsOut) {
            if (usable[a]) {
                k++;
            }
        }
        if (k == arcsOut.length) {
            return arcsOut;
        }
        int[] u = new int[k];
        k = 0;
        for (int a : arcsOut) {
            if (usable[a]) {
                u[k++] = a;
            }
        }
        return u;
    }

    /** Index of a fabric with every link up. */
    public static DenseFabric of(Fabric fabric) {
        return new DenseFabric(fabric, Map.of(), null);
    }

    /** Index of a fabric with the given link states (links not named are UP). */
    public static DenseFabric of(Fabric fabric, Map<String, LinkState> linkStates) {
        return new DenseFabric(fabric, linkStates, null);
    }

    /**
     * The same fabric with new link states; arc numbering is unchanged. Built from this snapshot: the
     * tables that do not depend on states are shared, and only the nodes of links whose state changed
     * get new adjacency (a failed link among 65,536 placed flows re-indexed every node before).
     */
    public DenseFabric withStates(Map<String, LinkState> linkStates) {
        return new DenseFabric(fabric, linkStates, this);
    }

    public Fabric fabric() {
        return fabric;
    }

    public Map<String, LinkState> linkStates() {
        return states;
    }

    public LinkState state(String linkId) {
        return states.getOrDefault(linkId, LinkState.UP);
    }

    /** Node index, or -1 when unknown. */
    public int node(String id) {
        return nodeIndex.getOrDefault(id, -1);
    }

    public int arcCount() {
        return arcCount;
    }

    public Arc arc(int a) {
        return arcs[a];
    }

    /** Arc index of a link direction leaving {@code fromNode}, or -1. */
    public int arcOf(String linkId, String fromNode) {
        Integer i = linkIndex.get(linkId);
        if (i == null) {
            return -1;
        }
        if (nodeIds[arcFrom[2 * i]].equals(fromNode)) {
            return 2 * i;
        }
        return nodeIds[arcFrom[2 * i + 1]].equals(fromNode) ? 2 * i + 1 : -1;
    }

    /** Both arc indices of a link ({@code 2i, 2i+1}), or null when unknown. */
    public int[] arcsOfLink(String linkId) {
        Integer i = linkIndex.get(linkId);
        return i == null ? null : new int[] {2 * i, 2 * i + 1};
    }

    public String nodeId(int n) {
        return nodeIds[n];
    }

    public Role role(int n) {
        return roles[n];
    }

    public boolean usable(int arc) {
        return usable[arc];
    }

    /** Up arcs (NIC to switch) of every working port of a NIC, in fabric file order (a copy). */
    public int[] nicPorts(int nic) {
        return nicPorts[nic].clone();
    }

    public double capacityGbps(int arc) {
        return capacityGbps[arc];
    }

    public int from(int arc) {
        return arcFrom[arc];
    }

    public int to(int arc) {
        return arcTo[arc];
    }
}
