package io.weft.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.weft.fabric.Role;

/**
 * Exact link-disjoint assignment on a rearrangeable Clos (Beneš / Clos 1953; colouring form after
 * Hwang's "The Mathematical Theory of Nonblocking Switching Networks"): with equal line-rate flows
 * and at most one flow per NIC each way, every leaf-to-leaf flow set is routable with at most one
 * flow per arc, i.e. max load 1.
 *
 * <p>Two-tier: the flows form a bipartite multigraph leaves x leaves of degree at most the number of
 * uplinks; a proper edge colouring with (spines x parallel links) colours maps each flow to a
 * spine and a parallel link, each used once per leaf in each direction. Three-tier: the same at pod
 * level (colour = plane and parallel link, a plane being the set of spines, one per pod, wired to
 * the same superspines), then, for each plane, pods x pods coloured with (superspines x parallel
 * links) for the flows leaving their pod.
 *
 * <p>Beyond the permutation case: with degree D above the U uplinks (oversubscription, several flows
 * per NIC) the graph is coloured with ceil(D/U)·U colours and colour c uses uplink c mod U, so every
 * uplink carries at most ceil(D/U) flows, which some uplink of the busiest leaf must carry anyway:
 * optimal on two tiers for equal demands and equal uplink capacities. The engine adopts the result
 * only when it lowers the max load of its heuristic placement.
 *
 * <p>Multi-plane NICs (one port into each of P disjoint fabric planes, as on a multi-plane rail
 * fabric): a first colouring picks each flow's plane so that every plane carries at most
 * ceil(D / P) flows per leaf each way, then each plane is coloured as above from the flows' ports
 * in it ({@code assignPlanes}): ceil(D / (P x U)) flows per uplink.
 *
 * <p>Preconditions (checked; {@link #assign} returns null when any fails): no routers; all demands
 * equal; NICs on leaves with their links up (with several planes: one working port per plane each);
 * leaves wired to every spine of their pod with the same multiplicity, spines of a plane wired to
 * every superspine of the plane with the same multiplicity, every fabric arc at least the demand.
 * Complexity: O(F · (L + P)) worst case for F flows, L leaves, P pods.
 */
final class ClosExact {
    private static final double EPS = 1e-9;

    private ClosExact() {
    }

    static int[][] assign(DenseFabric ix, int[] src, int[] dst, double[] demand) {
        return assign(ix, src, dst, demand, false);
    }

    /**
     * The same; with {@code homePortsOnly} (some flow must keep its NICs' home ports) every flow is
     * assigned from its home ports, on one plane when those are all in one (else null).
     */
    static int[][] assign(DenseFabric ix, int[] src, int[] dst, double[] demand, boolean homePortsOnly) {
        int f = src.length;
        if (ix.direct || f == 0) {
            return null;
        }
        double d0 = demand[0];
        for (int i = 0; i < f; i++) {
            if (Math.abs(demand[i] - d0) > EPS * d0) {
                return null;
            }
        }
        int[] plane = ix.closDerived.planes(ix);
        int planes = 0;
        for (int n = 0; n < ix.nodeCount; n++) {
            planes = Math.max(planes, plane[n] + 1);
        }
        if (planes <= 1 || homePortsOnly) {
            int[] up = new int[f];
            int[] down = new int[f];
            for (int i = 0; i < f; i++) {
                up[i] = ix.nicUpArc[src[i]];
                down[i] = ix.nicDownArc[dst[i]];
                if (up[i] < 0 || down[i] < 0 || (planes > 1
                        && (plane[ix.arcTo[up[i]]] != plane[ix.arcTo[up[0]]]
                        || plane[ix.arcFrom[down[i]]] != plane[ix.arcTo[up[0]]]))) {
                    return null;
                }
            }
            return planes <= 1 ? assignIn(ix, null, -1, up, down, d0)
                    : assignIn(ix, plane, plane[ix.arcTo[up[0]]], up, down, d0);
        }
        return assignPlanes(ix, plane, planes, src, dst, d0);
    }

    /**
     * Fabric planes: switches numbered by connected component (over working switch-to-switch links),
     * counting only components that hold some NIC's attachment switch (an isolated spine is no plane);
     * -1 for NICs and for switches outside those components.
     */
    static int[] planes(DenseFabric ix) {
        int[] comp = new int[ix.nodeCount];
        Arrays.fill(comp, -1);
        int next = 0;
        int[] queue = new int[ix.nodeCount];
        for (int nic = 0; nic < ix.nodeCount; nic++) {
            for (int port : ix.nicPorts[nic]) {
                int root = ix.arcTo[port];
                if (comp[root] >= 0) {
                    continue;
                }
                int head = 0;
                int tail = 0;
                queue[tail++] = root;
                comp[root] = next;
                while (head < tail) {
                    int u = queue[head++];
                    for (int a : ix.out[u]) {
                        int w = ix.arcTo[a];
                        if (ix.roles[w].isSwitch() && comp[w] < 0) {
                            comp[w] = next;
                            queue[tail++] = w;
                        }
                    }
                }
                next++;
            }
        }
        return comp;
    }

    /**
     * Multi-plane NICs (one port into each of P disjoint planes, e.g. a two-plane rail fabric): the
     * NICs are grouped by the tuple of leaves they attach to (a "virtual leaf" with P x U uplinks);
     * a first colouring of virtual leaf x virtual leaf with the max degree rounded up to a multiple
     * of P colours picks each flow's plane (colour mod P), so each plane sees at most
     * ceil(D / P) flows per leaf each way; then each plane is assigned on its own as a one-plane
     * Clos from the flows' ports in it. Together: ceil(D / (P x U)) flows per uplink, which the
     * busiest virtual leaf needs anyway. Null unless every NIC of a flow has exactly one working
     * port into every plane, on a leaf.
     */
    private static int[][] assignPlanes(DenseFabric ix, int[] plane, int planes, int[] src, int[] dst, double d0) {
        int f = src.length;
        Map<Integer, int[]> ports = new HashMap<>();
        Map<String, Integer> vleaf = new HashMap<>();
        int[] l = new int[f];
        int[] r = new int[f];
        for (int i = 0; i < f; i++) {
            for (int end = 0; end < 2; end++) {
                int nic = end == 0 ? src[i] : dst[i];
                int[] p = ports.get(nic);
                if (p == null) {
                    p = new int[planes];
                    Arrays.fill(p, -1);
                    for (int a : ix.nicPorts[nic]) {
                        int c = plane[ix.arcTo[a]];
                        if (c < 0 || p[c] >= 0 || ix.roles[ix.arcTo[a]] != Role.LEAF) {
                            return null;
                        }
                        p[c] = a;
                    }
                    for (int a : p) {
                        if (a < 0) {
                            return null;
                        }
                    }
                    ports.put(nic, p);
                }
                int[] leaves = new int[planes];
                for (int c = 0; c < planes; c++) {
                    leaves[c] = ix.arcTo[p[c]];
                }
                int slot = vleaf.computeIfAbsent(Arrays.toString(leaves), k -> vleaf.size());
                if (end == 0) {
                    l[i] = slot;
                } else {
                    r[i] = slot;
                }
            }
        }
        int[] colour = BipartiteEdgeColouring.colour(vleaf.size(), vleaf.size(), l, r,
                coloursFor(vleaf.size(), l, r, planes));
        int[][] paths = new int[f][];
        for (int c = 0; c < planes; c++) {
            IntList mine = new IntList();
            for (int i = 0; i < f; i++) {
                if (colour[i] % planes == c) {
                    mine.add(i);
                }
            }
            int[] up = new int[mine.size()];
            int[] down = new int[mine.size()];
            for (int j = 0; j < up.length; j++) {
                up[j] = ports.get(src[mine.get(j)])[c];
                down[j] = ports.get(dst[mine.get(j)])[c] ^ 1;
            }
            int[][] sub = up.length == 0 ? new int[0][] : assignIn(ix, plane, c, up, down, d0);
            if (sub == null) {
                return null;
            }
            for (int j = 0; j < up.length; j++) {
                paths[mine.get(j)] = sub[j];
            }
        }
        return paths;
    }

    /**
     * One plane (all switches when {@code planeOf} is null, else those with {@code planeOf[n] == which}):
     * flow i leaves by arc {@code up[i]} (NIC to leaf) and arrives by {@code down[i]} (leaf to NIC).
     */
    private static int[][] assignIn(DenseFabric ix, int[] planeOf, int which, int[] up, int[] down, double d0) {
        int f = up.length;
        for (int i = 0; i < f; i++) {
            if (!ix.usable[up[i]] || !ix.usable[down[i]]) {
                return null;
            }
            if (ix.roles[ix.arcTo[up[i]]] != Role.LEAF || ix.roles[ix.arcFrom[down[i]]] != Role.LEAF) {
                return null;
            }
        }
        Structure st = ix.closDerived.structure(ix, d0, planeOf, which);
        if (st == null) {
            return null;
        }
        int[][] paths = new int[f][];
        // Level 1: leaves x leaves, colour = (plane, parallel link).
        IntList inter = new IntList();
        for (int i = 0; i < f; i++) {
            int ls = ix.arcTo[up[i]];
            int ld = ix.arcFrom[down[i]];
            if (ls == ld) {
                paths[i] = new int[] {up[i], down[i]};
            } else {
                inter.add(i);
            }
        }
        int n1 = inter.size();
        int[] l = new int[n1];
        int[] r = new int[n1];
        for (int k = 0; k < n1; k++) {
            int i = inter.get(k);
            l[k] = st.leafSlot[ix.arcTo[up[i]]];
            r[k] = st.leafSlot[ix.arcFrom[down[i]]];
        }
        int u1 = st.planes * st.m1;
        int[] col1 = BipartiteEdgeColouring.colour(st.leaves.length, st.leaves.length, l, r,
                coloursFor(st.leaves.length, l, r, u1));
        for (int k = 0; k < n1; k++) {
            col1[k] %= u1; // colour classes share uplinks round-robin: ceil(degree / uplinks) flows each
        }
        // Level 2, per plane: pods x pods for the flows leaving their pod.
        int[] col2 = new int[n1];
        if (st.pods > 1) {
            for (int p = 0; p < st.planes; p++) {
                IntList mine = new IntList();
                for (int k = 0; k < n1; k++) {
                    if (col1[k] / st.m1 == p && st.podOfLeaf[l[k]] != st.podOfLeaf[r[k]]) {
                        mine.add(k);
                    }
                }
                int[] pl = new int[mine.size()];
                int[] pr = new int[mine.size()];
                for (int j = 0; j < pl.length; j++) {
                    pl[j] = st.podOfLeaf[l[mine.get(j)]];
                    pr[j] = st.podOfLeaf[r[mine.get(j)]];
                }
                int u2 = st.supers[p].length * st.m2;
                int[] c = BipartiteEdgeColouring.colour(st.pods, st.pods, pl, pr, coloursFor(st.pods, pl, pr, u2));
                for (int j = 0; j < pl.length; j++) {
                    col2[mine.get(j)] = c[j] % u2;
                }
            }
        }
        for (int k = 0; k < n1; k++) {
            int i = inter.get(k);
            int plane = col1[k] / st.m1;
            int k1 = col1[k] % st.m1;
            int podS = st.podOfLeaf[l[k]];
            int podD = st.podOfLeaf[r[k]];
            int upLeaf = st.leafUp[l[k]][plane * st.m1 + k1];
            int downLeaf = st.leafUp[r[k]][plane * st.m1 + k1] ^ 1;
            if (podS == podD) {
                paths[i] = new int[] {up[i], upLeaf, downLeaf, down[i]};
            } else {
                int q = col2[k]; // superspine supers[plane][q / m2], parallel link q % m2
                int upSpine = st.spineUp[podS][plane][q];
                int downSpine = st.spineUp[podD][plane][q] ^ 1;
                paths[i] = new int[] {up[i], upLeaf, upSpine, downSpine, downLeaf,
                    down[i]};
            }
        }
        return paths;
    }

    /** Colours for a bipartite multigraph: its max degree rounded up to a multiple of the uplink count. */
    private static int coloursFor(int vertices, int[] l, int[] r, int uplinks) {
        int[] dl = new int[vertices];
        int[] dr = new int[vertices];
        int max = 1;
        for (int e = 0; e < l.length; e++) {
            max = Math.max(max, Math.max(++dl[l[e]], ++dr[r[e]]));
        }
        return (max + uplinks - 1) / uplinks * uplinks;
    }

    /**
     * {@link #planes} and {@link Structure#of} of one snapshot, computed on first ask: both read only the
     * snapshot's arrays (roles, usable adjacency, capacities), so they hold for the {@link DenseFabric}'s life
     * (a change of link states makes a new one). Results are shared and read only.
     */
    static final class Derived {
        private volatile int[] planes;
        private final Map<List<Object>, Optional<Structure>> structures = new ConcurrentHashMap<>();

        int[] planes(DenseFabric ix) {
            int[] p = planes;
            if (p == null) {
                p = ClosExact.planes(ix);
                planes = p;
            }
            return p;
        }

        /** {@code planeOf} is this snapshot's {@link #planes} or null, so {@code which} names the plane. */
        Structure structure(DenseFabric ix, double demand, int[] planeOf, int which) {
            List<Object> key = List.of(demand, planeOf == null ? -1 : which);
            return structures.computeIfAbsent(key, k -> Optional.ofNullable(Structure.of(ix, demand, planeOf, which)))
                    .orElse(null);
        }
    }

    /**
     * The pod/plane structure of a Clos, or null when the fabric is not a clean rearrangeable one. Shared
     * through {@link Derived}: never written after {@link #of}.
     */
    static final class Structure {
        int[] leaves;
        /** Per node: its index in {@link #leaves}, -1 for other nodes. */
        int[] leafSlot;
        int[] podOfLeaf;
        int pods;
        int planes;
        /** spine[pod][plane]. */
        int[][] spine;
        /** supers[plane] = superspines of the plane, in fabric order. */
        int[][] supers;
        int m1;
        int m2;
        /** leafUp[leaf slot][plane * m1 + k]: {@link #parallel} from the leaf to its pod's spine of the plane. */
        int[][] leafUp;
        /** spineUp[pod][plane][q * m2 + k]: {@link #parallel} from that spine to superspine supers[plane][q]. */
        int[][][] spineUp;

        /** The k-th usable arc from {@code from} to {@code to}, in fabric order. */
        int parallel(DenseFabric ix, int from, int to, int k) {
            for (int a : ix.out[from]) {
                if (ix.arcTo[a] == to && k-- == 0) {
                    return a;
                }
            }
            throw new IllegalStateException("missing parallel link " + ix.nodeIds[from] + " -> " + ix.nodeIds[to]);
        }

        /** The structure of the whole fabric ({@code planeOf} null) or of the switches of plane {@code which}. */
        static Structure of(DenseFabric ix, double demand, int[] planeOf, int which) {
            Structure st = new Structure();
            List<Integer> leafList = new ArrayList<>();
            st.leafSlot = new int[ix.nodeCount];
            Arrays.fill(st.leafSlot, -1);
            for (int n = 0; n < ix.nodeCount; n++) {
                if (ix.roles[n] == Role.LEAF && (planeOf == null || planeOf[n] == which)) {
                    st.leafSlot[n] = leafList.size();
                    leafList.add(n);
                }
            }
            st.leaves = leafList.stream().mapToInt(Integer::intValue).toArray();
            // Pods: leaves grouped by the exact multiset of spines they reach.
            Map<String, Integer> podKey = new LinkedHashMap<>();
            List<int[]> podSpines = new ArrayList<>();
            st.podOfLeaf = new int[st.leaves.length];
            st.m1 = -1;
            for (int li = 0; li < st.leaves.length; li++) {
                Map<Integer, Integer> mult = neighbours(ix, st.leaves[li], Role.SPINE, demand);
                if (mult == null || mult.isEmpty()) {
                    return null;
                }
                for (int m : mult.values()) {
                    if (st.m1 == -1) {
                        st.m1 = m;
                    } else if (st.m1 != m) {
                        return null;
                    }
                }
                int[] sp = mult.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
                String key = Arrays.toString(sp);
                Integer pod = podKey.get(key);
                if (pod == null) {
                    pod = podKey.size();
                    podKey.put(key, pod);
                    podSpines.add(sp);
                }
                st.podOfLeaf[li] = pod;
            }
            st.pods = podKey.size();
            boolean[] spineSeen = new boolean[ix.nodeCount];
            for (int[] sp : podSpines) {
                if (sp.length != podSpines.get(0).length) {
                    return null;
                }
                for (int s : sp) {
                    if (spineSeen[s]) {
                        return null; // a spine shared by two pods: not a clean Clos
                    }
                    spineSeen[s] = true;
                }
            }
            st.planes = podSpines.get(0).length;
            st.spine = new int[st.pods][st.planes];
            if (st.pods == 1) {
                st.spine[0] = podSpines.get(0);
                st.supers = new int[st.planes][0];
                st.m2 = 1;
                return st.withArcTables(ix);
            }
            // Planes: spines grouped by the superspines they reach; one spine per pod per plane.
            Map<String, Integer> planeKey = new LinkedHashMap<>();
            List<int[]> planeSupers = new ArrayList<>();
            st.m2 = -1;
            for (int p = 0; p < st.pods; p++) {
                boolean[] used = new boolean[st.planes];
                for (int s : podSpines.get(p)) {
                    Map<Integer, Integer> mult = neighbours(ix, s, Role.SUPERSPINE, demand);
                    if (mult == null || mult.isEmpty()) {
                        return null;
                    }
                    for (int m : mult.values()) {
                        if (st.m2 == -1) {
                            st.m2 = m;
                        } else if (st.m2 != m) {
                            return null;
                        }
                    }
                    int[] sup = mult.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
                    String key = Arrays.toString(sup);
                    Integer plane = planeKey.get(key);
                    if (plane == null) {
                        plane = planeKey.size();
                        if (plane >= st.planes) {
                            return null;
                        }
                        planeKey.put(key, plane);
                        planeSupers.add(sup);
                    }
                    if (used[plane]) {
                        return null;
                    }
                    used[plane] = true;
                    st.spine[p][plane] = s;
                }
            }
            boolean[] superSeen = new boolean[ix.nodeCount];
            st.supers = new int[st.planes][];
            for (int p = 0; p < st.planes; p++) {
                st.supers[p] = planeSupers.get(p);
                for (int q : st.supers[p]) {
                    if (superSeen[q]) {
                        return null;
                    }
                    superSeen[q] = true;
                }
            }
            return st.withArcTables(ix);
        }

        /** The parallel-link tables the assignment reads per flow, filled once with the structure. */
        private Structure withArcTables(DenseFabric ix) {
            leafUp = new int[leaves.length][planes * m1];
            for (int li = 0; li < leaves.length; li++) {
                for (int p = 0; p < planes; p++) {
                    for (int k = 0; k < m1; k++) {
                        leafUp[li][p * m1 + k] = parallel(ix, leaves[li], spine[podOfLeaf[li]][p], k);
                    }
                }
            }
            spineUp = new int[pods][planes][];
            for (int pod = 0; pod < pods; pod++) {
                for (int p = 0; p < planes; p++) {
                    spineUp[pod][p] = new int[supers[p].length * m2];
                    for (int q = 0; q < supers[p].length; q++) {
                        for (int k = 0; k < m2; k++) {
                            spineUp[pod][p][q * m2 + k] = parallel(ix, spine[pod][p], supers[p][q], k);
                        }
                    }
                }
            }
            return this;
        }

        /**
         * Usable parallel-link counts from {@code n} to its neighbours of {@code role}; null when an
         * arc towards them (either way) is slower than the demand or a neighbour of another switch
         * role is attached above.
         */
        private static Map<Integer, Integer> neighbours(DenseFabric ix, int n, Role role, double demand) {
            Map<Integer, Integer> mult = new LinkedHashMap<>();
            for (int a : ix.out[n]) {
                int w = ix.arcTo[a];
                if (ix.tier[w] <= ix.tier[n]) {
                    continue;
                }
                if (ix.roles[w] != role || ix.capacityGbps[a] < demand * (1 - EPS)) {
                    return null;
                }
                mult.merge(w, 1, Integer::sum);
            }
            return mult;
        }
    }
}
