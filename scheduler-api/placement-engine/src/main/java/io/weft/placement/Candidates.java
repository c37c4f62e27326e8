package io.weft.placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The engine's candidate paths between two NICs, made explicit for tools: the LP lower bound and the
 * ECMP baseline of the benchmark, and anyone who wants to list alternatives. Paths are NIC-to-NIC
 * arc indices of the {@link DenseFabric}; a multi-port NIC's paths start at every working port and
 * end at every working port of the destination that the fabric connects to it (a plane's switches
 * reach only that plane's ports). Not thread-safe.
 */
public final class Candidates {
    private final DenseFabric ix;
    private final CandidatePaths cands;

    public Candidates(DenseFabric ix) {
        this.ix = ix;
        this.cands = new CandidatePaths(ix);
    }

    public DenseFabric index() {
        return ix;
    }

    /** Number of shortest (Clos: valley-free; direct: minimal) paths, 0 when none survives. */
    public long countShortest(int srcNic, int dstNic) {
        long n = 0;
        for (int[] pair : portPairs(srcNic, dstNic)) {
            long c = cands.between(ix.arcTo[pair[0]], ix.arcFrom[pair[1]]).pathCount();
            n = n + c < 0 ? Long.MAX_VALUE : n + c;
        }
        return n;
    }

    /**
     * Up to {@code limit} candidate paths: all shortest ones first, then (direct networks, when
     * {@code valiant}) the paths through one intermediate router, loop-free, in router order.
     */
    public List<int[]> enumerate(int srcNic, int dstNic, boolean valiant, int limit) {
        List<int[]> out = new ArrayList<>();
        List<int[]> pairs = portPairs(srcNic, dstNic);
        for (int[] pair : pairs) {
            PathDag g = cands.between(ix.arcTo[pair[0]], ix.arcFrom[pair[1]]);
            for (int[] mid : all(g, limit - out.size())) {
                out.add(wrap(pair[0], mid, new int[0], pair[1]));
            }
        }
        if (valiant && ix.direct) {
            for (int[] pair : pairs) {
                int up = pair[0];
                int down = pair[1];
                int s = ix.arcTo[up];
                int d = ix.arcFrom[down];
                for (int i : cands.intermediates()) {
                    if (i == s || i == d || out.size() >= limit) {
                        continue;
                    }
                    PathDag g1 = cands.between(s, i);
                    PathDag g2 = g1 == null ? null : cands.between(i, d);
                    if (g2 == null) {
                        continue;
                    }
                    for (int[] a : all(g1, limit)) {
                        for (int[] b : all(g2, limit)) {
                            int[] p = wrap(up, a, b, down);
                            if (out.size() < limit && loopFree(p)) {
                                out.add(p);
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    /** One shortest path drawn uniformly at random (ECMP with an ideal hash), or null. */
    public int[] sampleShortest(int srcNic, int dstNic, Random rnd) {
        List<int[]> pairs = portPairs(srcNic, dstNic);
        if (pairs.isEmpty()) {
            return null;
        }
        // A multi-port NIC spreads over its ports (uniformly over the connected port pairs) first.
        int[] pair = pairs.size() == 1 ? pairs.get(0) : pairs.get(rnd.nextInt(pairs.size()));
        PathDag g = cands.between(ix.arcTo[pair[0]], ix.arcFrom[pair[1]]);
        g.index();
        IntList mid = new IntList();
        int u = 0;
        int dSlot = -1;
        while (dSlot < 0) {
            double r = rnd.nextDouble() * g.toU[u];
            int next = -1;
            for (int i = g.peakStart[u]; i < g.peakStart[u + 1]; i++) {
                r -= g.toD[g.peakD[i]];
                if (r < 0) {
                    dSlot = g.peakD[i];
                    next = -2;
                    break;
                }
            }
            for (int i = g.upStart[u]; i < g.upStart[u + 1] && next == -1; i++) {
                r -= g.toU[g.upTo[i]];
                if (r < 0) {
                    mid.add(g.upArc[i]);
                    next = g.upTo[i];
                }
            }
            if (next == -1) {
                // Rounding left r a hair above 0: take the last option.
                if (g.upStart[u + 1] > g.upStart[u]) {
                    int i = g.upStart[u + 1] - 1;
                    mid.add(g.upArc[i]);
                    next = g.upTo[i];
                } else if (g.peakStart[u + 1] > g.peakStart[u]) {
                    dSlot = g.peakD[g.peakStart[u + 1] - 1];
                    next = -2;
                } else {
                    throw new IllegalStateException("sampling fell off the DAG");
                }
            }
            if (next >= 0) {
                u = next;
            }
        }
        while (dSlot != g.dTarget) {
            double r = rnd.nextDouble() * g.toD[dSlot];
            int next = -1;
            int last = -1;
            for (int i = g.downStart[dSlot]; i < g.downStart[dSlot + 1]; i++) {
                last = i;
                r -= g.toD[g.downTo[i]];
                if (r < 0) {
                    next = i;
                    break;
                }
            }
            if (next < 0) {
                next = last;
            }
            if (next < 0) {
                throw new IllegalStateException("sampling fell off the DAG");
            }
            mid.add(g.downArc[next]);
            dSlot = g.downTo[next];
        }
        return wrap(pair[0], mid.toArray(), new int[0], pair[1]);
    }

    /** Every (up arc, down arc) pair of working ports of the two NICs that some path connects, in port order. */
    private List<int[]> portPairs(int srcNic, int dstNic) {
        List<int[]> out = new ArrayList<>(1);
        for (int up : ix.nicPorts[srcNic]) {
            for (int p : ix.nicPorts[dstNic]) {
                if (cands.between(ix.arcTo[up], ix.arcTo[p]) != null) {
                    out.add(new int[] {up, p ^ 1});
                }
            }
        }
        return out;
    }

    private boolean loopFree(int[] p) {
        for (int i = 0; i < p.length; i++) {
            for (int j = i + 1; j < p.length; j++) {
                if (ix.arcTo[p[i]] == ix.arcTo[p[j]]) {
                    return false;
                }
            }
        }
        return true;
    }

    private static int[] wrap(int up, int[] a, int[] b, int down) {
        int[] p = new int[a.length + b.length + 2];
        p[0] = up;
        System.arraycopy(a, 0, p, 1, a.length);
        System.arraycopy(b, 0, p, 1 + a.length, b.length);
        p[p.length - 1] = down;
        return p;
    }

    /** Every switch-to-switch path of the DAG (up to {@code limit}), by depth-first search. */
    private static List<int[]> all(PathDag g, int limit) {
        List<int[]> out = new ArrayList<>();
        int[] stack = new int[g.hops];
        upDfs(g, 0, stack, 0, out, limit);
        return out;
    }

    private static void upDfs(PathDag g, int u, int[] stack, int depth, List<int[]> out, int limit) {
        for (int i = 0; i < g.peakU.length && out.size() < limit; i++) {
            if (g.peakU[i] == u) {
                downDfs(g, g.peakD[i], stack, depth, out, limit);
            }
        }
        for (int i = 0; i < g.upArc.length && out.size() < limit; i++) {
            if (g.upFrom[i] == u) {
                stack[depth] = g.upArc[i];
                upDfs(g, g.upTo[i], stack, depth + 1, out, limit);
            }
        }
    }

    private static void downDfs(PathDag g, int d, int[] stack, int depth, List<int[]> out, int limit) {
        if (d == g.dTarget) {
            out.add(java.util.Arrays.copyOf(stack, depth));
            return;
        }
        for (int i = 0; i < g.downArc.length && out.size() < limit; i++) {
            if (g.downFrom[i] == d) {
                stack[depth] = g.downArc[i];
                downDfs(g, g.downTo[i], stack, depth + 1, out, limit);
            }
        }
    }
}
