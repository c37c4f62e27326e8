package io.weft.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.weft.fabric.Role;

/**
 * Candidate paths between switches, derived from the fabric's structure and cached per snapshot.
 *
 * <p>Clos (leaf/spine/superspine, incl. rail-optimized): all shortest valley-free paths, found by
 * climbing from both ends over up arcs (each side's "up cone") and meeting at the lowest common
 * ancestor tier; parallel links appear as distinct arcs. Complexity per pair: the size of the two
 * up cones (a fat-tree k=32 leaf reaches 16 aggs and 256 cores), not of the fabric.
 *
 * <p>Direct networks (routers: Dragonfly, Slim Fly): all minimal router paths, plus Valiant paths
 * through one intermediate router ({@link #intermediates}), which the engine uses only when they
 * lower the maximum load. Not thread-safe: one instance per engine.
 */
final class CandidatePaths {
    private final DenseFabric ix;
    /** cache[switchOrdinal(s)][switchOrdinal(d)]; rows allocated on first use; NONE marks "no path". */
    private final PathDag[][] cache;
    private final int[] ordinal;
    private int cached;
    private static final PathDag NONE = PathDag.trivial(-1);
    private final int[] distS;
    private final int[] distD;
    private final boolean[] goodS;
    private final boolean[] goodD;
    private final int[] slotU;
    private final int[] slotD;
    private final int[] routers;

    CandidatePaths(DenseFabric ix) {
        this.ix = ix;
        distS = new int[ix.nodeCount];
        distD = new int[ix.nodeCount];
        goodS = new boolean[ix.nodeCount];
        goodD = new boolean[ix.nodeCount];
        slotU = new int[ix.nodeCount];
        slotD = new int[ix.nodeCount];
        Arrays.fill(distS, -1);
        Arrays.fill(distD, -1);
        Arrays.fill(slotU, -1);
        Arrays.fill(slotD, -1);
        ordinal = new int[ix.nodeCount];
        int switches = 0;
        for (int n = 0; n < ix.nodeCount; n++) {
            ordinal[n] = ix.roles[n].isSwitch() ? switches++ : -1;
        }
        cache = new PathDag[switches][];
        List<Integer> r = new ArrayList<>();
        for (int n = 0; n < ix.nodeCount; n++) {
            if (ix.roles[n] == Role.ROUTER) {
                r.add(n);
            }
        }
        routers = r.stream().mapToInt(Integer::intValue).toArray();
        dist = ix.direct && switches <= MAX_DIST_MATRIX ? allPairs(switches) : null;
    }

    /** Above this many switches the all-pairs matrix (4 bytes per pair) is not kept: BFS per pair. */
    private static final int MAX_DIST_MATRIX = 2048;
    /** Direct networks: hop distance between switch ordinals (-1 unreachable), or null. */
    private final int[][] dist;

    private int[][] allPairs(int switches) {
        int[][] m = new int[switches][];
        for (int n = 0; n < ix.nodeCount; n++) {
            if (ordinal[n] < 0) {
                continue;
            }
            int[] seen = bfs(n, distS);
            int[] row = new int[switches];
            Arrays.fill(row, -1);
            for (int v : seen) {
                row[ordinal[v]] = distS[v];
                distS[v] = -1;
            }
            m[ordinal[n]] = row;
        }
        return m;
    }

    /** All minimal paths from the distance matrix: touches only the nodes on them. */
    private PathDag minimalFromMatrix(int s, int d) {
        int[] toD = dist[ordinal[d]];
        int len = toD[ordinal[s]];
        if (len < 0) {
            return null;
        }
        IntList uNode = new IntList();
        IntList upArc = new IntList();
        IntList upFrom = new IntList();
        IntList upTo = new IntList();
        uNode.add(s);
        slotU[s] = 0;
        try {
            // uNode is in layer order: node i sits at distance len - toD[i] from s.
            for (int i = 0; i < uNode.size(); i++) {
                int v = uNode.get(i);
                int left = toD[ordinal[v]];
                for (int a : ix.out[v]) {
                    int w = ix.arcTo[a];
                    if (ordinal[w] < 0 || ix.tier[w] == 0 || toD[ordinal[w]] != left - 1) {
                        continue;
                    }
                    if (slotU[w] < 0) {
                        slotU[w] = uNode.size();
                        uNode.add(w);
                    }
                    upArc.add(a);
                    upFrom.add(i);
                    upTo.add(slotU[w]);
                }
            }
            int[] none = new int[0];
            return new PathDag(s, d, len, uNode.toArray(), upArc.toArray(), upFrom.toArray(), upTo.toArray(),
                    new int[] {slotU[d]}, new int[] {0}, new int[] {d}, none, none, none, 0);
        } finally {
            for (int i = 0; i < uNode.size(); i++) {
                slotU[uNode.get(i)] = -1;
            }
        }
    }

    /** Per switch ordinal: switches reachable from it, nearest first (built on first use). */
    private int[][] byDistance;

    /**
     * Direct networks with a distance matrix: the switches reachable from {@code node} (itself
     * first), in non-decreasing hop distance; null without a matrix. The minimal paths from
     * {@code node} to every switch are exactly the walks that go one hop further at each step in
     * this order, which lets the engine cost one leg of every Valiant detour in one pass.
     */
    int[] byDistance(int node) {
        if (dist == null) {
            return null;
        }
        if (byDistance == null) {
            byDistance = new int[dist.length][];
        }
        int o = ordinal[node];
        if (byDistance[o] == null) {
            int[] row = dist[o];
            List<Integer> reach = new ArrayList<>();
            for (int n = 0; n < ix.nodeCount; n++) {
                if (ordinal[n] >= 0 && row[ordinal[n]] >= 0) {
                    reach.add(n);
                }
            }
            reach.sort((x, y) -> row[ordinal[x]] != row[ordinal[y]]
                    ? Integer.compare(row[ordinal[x]], row[ordinal[y]]) : Integer.compare(x, y));
            byDistance[o] = reach.stream().mapToInt(Integer::intValue).toArray();
        }
        return byDistance[o];
    }

    /**
     * Per switch ordinal: {start offsets by node, arcs}, the minimal-walk arcs out of each node (built on first use).
     */
    private int[][][] forward;

    /**
     * Direct networks with a distance matrix: for every node v, the arcs v -> w into a transit
     * switch w one hop further from {@code root} than v, as {@code {start, arcs}}: the arcs of v
     * are {@code arcs[start[v] .. start[v + 1])}. These are exactly the arcs a minimal walk from
     * {@code root} may take, so a DP over them needs no distance test; null without a matrix.
     */
    int[][] forwardArcs(int root) {
        if (dist == null) {
            return null;
        }
        if (forward == null) {
            forward = new int[dist.length][][];
        }
        int o = ordinal[root];
        if (forward[o] == null) {
            int[] row = dist[o];
            int[] tord = transitOrdinals();
            int[] start = new int[ix.nodeCount + 1];
            IntList arcs = new IntList();
            for (int v = 0; v < ix.nodeCount; v++) {
                start[v] = arcs.size();
                if (tord[v] < 0 || row[tord[v]] < 0) {
                    continue;
                }
                int next = row[tord[v]] + 1;
                for (int a : ix.out[v]) {
                    int ow = tord[ix.arcTo[a]];
                    if (ow >= 0 && row[ow] == next) {
                        arcs.add(a);
                    }
                }
            }
            start[ix.nodeCount] = arcs.size();
            forward[o] = new int[][] {start, arcs.toArray()};
        }
        return forward[o];
    }

    /**
     * Hop distance between two switches from the matrix (-1 unreachable); only when {@link #byDistance} is not null.
     */
    int distance(int from, int to) {
        return dist[ordinal[from]][ordinal[to]];
    }

    private int[] transitOrdinal;

    /**
     * Per node: its ordinal in the distance matrix when a minimal path may cross it (the same test
     * as {@link #transit}), else -1; with {@link #distanceRow} it keeps the Valiant scan to array reads.
     */
    int[] transitOrdinals() {
        if (transitOrdinal == null) {
            int[] t = new int[ix.nodeCount];
            for (int n = 0; n < t.length; n++) {
                t[n] = transit(n) ? ordinal[n] : -1;
            }
            transitOrdinal = t;
        }
        return transitOrdinal;
    }

    /**
     * Hop distances from a switch to every switch ordinal (-1 unreachable); only when {@link #byDistance} is not null.
     */
    int[] distanceRow(int node) {
        return dist[ordinal[node]];
    }

    /** True for a switch a minimal path may cross (the same test as the minimal DAGs use). */
    boolean transit(int node) {
        return ordinal[node] >= 0 && ix.tier[node] != 0;
    }

    /** Routers usable as Valiant intermediates (empty for Clos fabrics). */
    int[] intermediates() {
        return routers;
    }

    int cachedPairs() {
        return cached;
    }

    /** The candidate DAG between two switches, or null when no path survives. */
    PathDag between(int s, int d) {
        if (s == d) {
            return PathDag.trivial(s);
        }
        PathDag[] row = cache[ordinal[s]];
        if (row == null) {
            row = new PathDag[cache.length];
            cache[ordinal[s]] = row;
        }
        PathDag dag = row[ordinal[d]];
        if (dag == null) {
            dag = ix.direct ? (dist != null ? minimalFromMatrix(s, d) : minimal(s, d)) : valleyFree(s, d);
            if (dag == null && !ix.direct) {
                // Not a clean Clos between these two (e.g. a peer link): plain shortest paths.
                dag = minimal(s, d);
            }
            row[ordinal[d]] = dag == null ? NONE : dag;
            cached++;
            return dag;
        }
        return dag == NONE ? null : dag;
    }

    private boolean up(int arc) {
        return ix.tier[ix.arcTo[arc]] > ix.tier[ix.arcFrom[arc]];
    }

    /** BFS over up arcs from {@code start}; returns the cone in BFS order, distances in {@code dist}. */
    private int[] cone(int start, int[] dist) {
        return bfs(start, dist, true);
    }

    /**
     * BFS from {@code start} that crosses only up arcs ({@code upOnly}, the Clos cone) or only arcs into
     * switches (NICs never transit); returns the nodes reached in BFS order, distances in {@code dist}.
     */
    private int[] bfs(int start, int[] dist, boolean upOnly) {
        int[] q = new int[16];
        int head = 0;
        int tail = 0;
        q[tail++] = start;
        dist[start] = 0;
        while (head < tail) {
            int u = q[head++];
            for (int a : ix.out[u]) {
                int w = ix.arcTo[a];
                if ((upOnly ? up(a) : ix.tier[w] > 0) && dist[w] < 0) {
                    dist[w] = dist[u] + 1;
                    if (tail == q.length) {
                        q = Arrays.copyOf(q, tail * 2);
                    }
                    q[tail++] = w;
                }
            }
        }
        return Arrays.copyOf(q, tail);
    }

    private PathDag valleyFree(int s, int d) {
        int[] coneS = cone(s, distS);
        int[] coneD = cone(d, distD);
        try {
            int len = Integer.MAX_VALUE;
            for (int v : coneS) {
                if (distD[v] >= 0) {
                    len = Math.min(len, distS[v] + distD[v]);
                }
            }
            if (len == Integer.MAX_VALUE) {
                return null;
            }
            // Nodes on a shortest path, from the far end of each cone back towards its start.
            for (int i = coneS.length - 1; i >= 0; i--) {
                int v = coneS[i];
                boolean g = distD[v] >= 0 && distS[v] + distD[v] == len;
                for (int a : ix.out[v]) {
                    int w = ix.arcTo[a];
                    g |= up(a) && distS[w] == distS[v] + 1 && goodS[w];
                }
                goodS[v] = g;
            }
            for (int i = coneD.length - 1; i >= 0; i--) {
                int v = coneD[i];
                boolean g = distS[v] >= 0 && distS[v] + distD[v] == len;
                for (int a : ix.out[v]) {
                    int w = ix.arcTo[a];
                    g |= up(a) && distD[w] == distD[v] + 1 && goodD[w];
                }
                goodD[v] = g;
            }
            IntList uNode = new IntList();
            for (int v : coneS) {
                if (goodS[v]) {
                    slotU[v] = uNode.size();
                    uNode.add(v);
                }
            }
            IntList upArc = new IntList();
            IntList upFrom = new IntList();
            IntList upTo = new IntList();
            IntList peakU = new IntList();
            IntList peakD = new IntList();
            for (int i = 0; i < uNode.size(); i++) {
                int v = uNode.get(i);
                for (int a : ix.out[v]) {
                    int w = ix.arcTo[a];
                    if (up(a) && distS[w] == distS[v] + 1 && goodS[w]) {
                        upArc.add(a);
                        upFrom.add(i);
                        upTo.add(slotU[w]);
                    }
                }
            }
            // Down states in decreasing distance to d: reverse BFS order of d's cone.
            IntList dNode = new IntList();
            for (int i = coneD.length - 1; i >= 0; i--) {
                int v = coneD[i];
                if (goodD[v]) {
                    slotD[v] = dNode.size();
                    dNode.add(v);
                }
            }
            for (int i = 0; i < uNode.size(); i++) {
                int v = uNode.get(i);
                if (distD[v] >= 0 && distS[v] + distD[v] == len) {
                    peakU.add(i);
                    peakD.add(slotD[v]);
                }
            }
            IntList downArc = new IntList();
            IntList downFrom = new IntList();
            IntList downTo = new IntList();
            for (int i = 0; i < dNode.size(); i++) {
                int v = dNode.get(i);
                for (int a : ix.out[v]) {
                    int w = ix.arcTo[a];
                    if (!up(a) && ix.tier[w] < ix.tier[v] && distD[w] == distD[v] - 1 && distD[w] >= 0 && goodD[w]) {
                        downArc.add(a);
                        downFrom.add(i);
                        downTo.add(slotD[w]);
                    }
                }
            }
            return new PathDag(s, d, len, uNode.toArray(), upArc.toArray(), upFrom.toArray(), upTo.toArray(),
                    peakU.toArray(), peakD.toArray(), dNode.toArray(), downArc.toArray(), downFrom.toArray(),
                    downTo.toArray(), slotD[d]);
        } finally {
            for (int v : coneS) {
                distS[v] = -1;
                goodS[v] = false;
                slotU[v] = -1;
            }
            for (int v : coneD) {
                distD[v] = -1;
                goodD[v] = false;
                slotD[v] = -1;
            }
        }
    }

    /** BFS between switches (NICs never transit); all shortest paths as an up-only DAG. */
    private int[] bfs(int start, int[] dist) {
        return bfs(start, dist, false);
    }

    private PathDag minimal(int s, int d) {
        int[] seenS = bfs(s, distS);
        int[] seenD = bfs(d, distD);
        try {
            if (distS[d] < 0) {
                return null;
            }
            int len = distS[d];
            IntList uNode = new IntList();
            for (int v : seenS) {
                if (distD[v] >= 0 && distS[v] + distD[v] == len) {
                    slotU[v] = uNode.size();
                    uNode.add(v);
                }
            }
            IntList upArc = new IntList();
            IntList upFrom = new IntList();
            IntList upTo = new IntList();
            for (int i = 0; i < uNode.size(); i++) {
                int v = uNode.get(i);
                for (int a : ix.out[v]) {
                    int w = ix.arcTo[a];
                    if (slotU[w] >= 0 && distS[w] == distS[v] + 1 && distD[w] == distD[v] - 1) {
                        upArc.add(a);
                        upFrom.add(i);
                        upTo.add(slotU[w]);
                    }
                }
            }
            int[] none = new int[0];
            return new PathDag(s, d, len, uNode.toArray(), upArc.toArray(), upFrom.toArray(), upTo.toArray(),
                    new int[] {slotU[d]}, new int[] {0}, new int[] {d}, none, none, none, 0);
        } finally {
            for (int v : seenS) {
                distS[v] = -1;
                slotU[v] = -1;
            }
            for (int v : seenD) {
                distD[v] = -1;
            }
        }
    }
}
