package io.weft.placement;

/**
 * All candidate paths between two switches, kept implicitly as a layered DAG rather than a list:
 * a fat-tree k=32 has 256 shortest paths between two pods but only ~550 arcs in this DAG, and the
 * best path under any per-arc cost is found by one pass over it.
 *
 * <p>Two phases. The "up" phase holds states reached from the source ({@code uNode}) and the arcs
 * between them in non-decreasing distance from the source. At a peak ({@code peakU[i]} to
 * {@code peakD[i]}) a path turns into the "down" phase, whose states ({@code dNode}) lead to the
 * destination ({@code dTarget}) by arcs in non-increasing distance to it. A Clos path climbs to the
 * lowest common ancestor tier and comes back down (valley-free); a direct network (Dragonfly, Slim
 * Fly) has only an up phase and one peak, the destination.
 */
final class PathDag {
    final int src;
    final int dst;
    /** Switch-to-switch hops on every path of this DAG. */
    final int hops;
    final int[] uNode;
    final int[] upArc;
    final int[] upFrom;
    final int[] upTo;
    final int[] peakU;
    final int[] peakD;
    final int[] dNode;
    final int[] downArc;
    final int[] downFrom;
    final int[] downTo;
    final int dTarget;

    PathDag(int src, int dst, int hops, int[] uNode, int[] upArc, int[] upFrom, int[] upTo, int[] peakU,
            int[] peakD, int[] dNode, int[] downArc, int[] downFrom, int[] downTo, int dTarget) {
        this.src = src;
        this.dst = dst;
        this.hops = hops;
        this.uNode = uNode;
        this.upArc = upArc;
        this.upFrom = upFrom;
        this.upTo = upTo;
        this.peakU = peakU;
        this.peakD = peakD;
        this.dNode = dNode;
        this.downArc = downArc;
        this.downFrom = downFrom;
        this.downTo = downTo;
        this.dTarget = dTarget;
    }

    /** Source and destination are the same switch: the single empty path. */
    static PathDag trivial(int sw) {
        int[] none = new int[0];
        return new PathDag(sw, sw, 0, new int[] {sw}, none, none, none, new int[] {0}, new int[] {0},
                new int[] {sw}, none, none, none, 0);
    }

    /** Number of distinct paths (saturating at Long.MAX_VALUE). */
    long pathCount() {
        long[] u = new long[uNode.length];
        long[] d = new long[dNode.length];
        u[0] = 1;
        for (int i = 0; i < upArc.length; i++) {
            u[upTo[i]] = sat(u[upTo[i]] + u[upFrom[i]]);
        }
        for (int i = 0; i < peakU.length; i++) {
            d[peakD[i]] = sat(d[peakD[i]] + u[peakU[i]]);
        }
        for (int i = 0; i < downArc.length; i++) {
            d[downTo[i]] = sat(d[downTo[i]] + d[downFrom[i]]);
        }
        return d[dTarget];
    }

    private static long sat(long v) {
        return v < 0 ? Long.MAX_VALUE : v;
    }

    /** Per-state ranges into the arc arrays (they are grouped by source state) and paths-to-target counts. */
    int[] upStart;
    int[] peakStart;
    int[] downStart;
    double[] toU;
    double[] toD;

    /** Builds the per-state index on first use (sampling and enumeration only; the engine needs none). */
    void index() {
        if (upStart != null) {
            return;
        }
        int nu = uNode.length;
        int nd = dNode.length;
        int[] us = starts(upFrom, nu);
        int[] ps = starts(peakU, nu);
        int[] ds = starts(downFrom, nd);
        double[] tu = new double[nu];
        double[] td = new double[nd];
        td[dTarget] = 1;
        for (int i = downArc.length - 1; i >= 0; i--) {
            td[downFrom[i]] += td[downTo[i]];
        }
        for (int i = 0; i < peakU.length; i++) {
            tu[peakU[i]] += td[peakD[i]];
        }
        for (int i = upArc.length - 1; i >= 0; i--) {
            tu[upFrom[i]] += tu[upTo[i]];
        }
        toU = tu;
        toD = td;
        peakStart = ps;
        downStart = ds;
        upStart = us;
    }

    private static int[] starts(int[] from, int n) {
        int[] s = new int[n + 1];
        for (int f : from) {
            s[f + 1]++;
        }
        for (int i = 0; i < n; i++) {
            s[i + 1] += s[i];
        }
        for (int i = 1; i < from.length; i++) {
            if (from[i] < from[i - 1]) {
                throw new IllegalStateException("DAG arcs not grouped by source state");
            }
        }
        return s;
    }

    /** Every arc index that lies on some path of this DAG. */
    int arcCount() {
        return upArc.length + downArc.length;
    }
}
