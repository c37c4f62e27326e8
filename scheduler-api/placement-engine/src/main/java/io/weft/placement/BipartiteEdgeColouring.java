package io.weft.placement;

import java.util.Arrays;

/**
 * Proper edge colouring of a bipartite multigraph with Δ colours (Kőnig's line colouring theorem),
 * by alternating-path recolouring: for edge (u, v) take a colour a free at u and b free at v; if a
 * is not free at v, swap a and b along the a/b path starting at v (it cannot end at u in a bipartite
 * graph), after which a is free at both ends. O(E · V) worst case, O(E · Δ) typical.
 */
final class BipartiteEdgeColouring {
    private BipartiteEdgeColouring() {
    }

    /**
     * @param left left endpoint per edge (0..leftCount-1)
     * @param right right endpoint per edge (0..rightCount-1)
     * @param colours number of colours, at least the maximum degree
     * @return colour per edge, or null when some vertex has more edges than colours
     */
    static int[] colour(int leftCount, int rightCount, int[] left, int[] right, int colours) {
        int[] degL = new int[leftCount];
        int[] degR = new int[rightCount];
        for (int e = 0; e < left.length; e++) {
            if (++degL[left[e]] > colours || ++degR[right[e]] > colours) {
                return null;
            }
        }
        // atL[u * colours + c] = edge with colour c at left vertex u, or -1.
        int[] atL = new int[leftCount * colours];
        int[] atR = new int[rightCount * colours];
        Arrays.fill(atL, -1);
        Arrays.fill(atR, -1);
        int[] colour = new int[left.length];
        int[] path = new int[16];
        for (int e = 0; e < left.length; e++) {
            int u = left[e];
            int v = right[e];
            int a = free(atL, u, colours);
            int b = free(atR, v, colours);
            if (atR[v * colours + a] != -1) {
                // Walk the a/b alternating path from v: v -a- u1 -b- v2 -a- u2 ...
                int n = 0;
                int x = v;
                boolean onRight = true;
                int c = a;
                while (true) {
                    int f = onRight ? atR[x * colours + c] : atL[x * colours + c];
                    if (f == -1) {
                        break;
                    }
                    if (n == path.length) {
                        path = Arrays.copyOf(path, n * 2);
                    }
                    path[n++] = f;
                    x = onRight ? left[f] : right[f];
                    onRight = !onRight;
                    c = c == a ? b : a;
                }
                for (int i = 0; i < n; i++) {
                    int f = path[i];
                    atL[left[f] * colours + colour[f]] = -1;
                    atR[right[f] * colours + colour[f]] = -1;
                }
                for (int i = 0; i < n; i++) {
                    int f = path[i];
                    colour[f] = colour[f] == a ? b : a;
                    atL[left[f] * colours + colour[f]] = f;
                    atR[right[f] * colours + colour[f]] = f;
                }
                if (atL[u * colours + a] != -1 || atR[v * colours + a] != -1) {
                    throw new IllegalStateException("alternating path did not free colour " + a);
                }
            }
            colour[e] = a;
            atL[u * colours + a] = e;
            atR[v * colours + a] = e;
        }
        return colour;
    }

    private static int free(int[] at, int x, int colours) {
        for (int c = 0; c < colours; c++) {
            if (at[x * colours + c] == -1) {
                return c;
            }
        }
        throw new IllegalStateException("no free colour at a vertex of degree < colours");
    }
}
