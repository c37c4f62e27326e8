package io.weft.simulator;

import java.util.Arrays;

/**
 * Max-min fair rates by progressive filling (Bertsekas and Gallager, Data Networks, 2nd ed.,
 * 6.5.2): every flow's rate rises together from 0; when a link direction is full, its flows stop
 * rising; a flow also stops at its demand. The result is the unique max-min fair allocation: no
 * flow can get more without taking from a flow that has no more than it.
 *
 * <p>Implementation: all rising flows share one water level, so a direction with capacity c,
 * frozen load u and n rising flows fills at level (c - u) / n. Freezing a flow at the current
 * level never lowers another direction's fill level, so each arc keeps one entry in a binary heap
 * whose key is a lower bound of its level: an entry that reaches the top with an outdated key is
 * filed again at its current level, one with the current key is the next bottleneck. Arcs whose
 * level rises many times but never becomes the minimum cost nothing extra. Each flow freezes
 * once: O(F·L + (A + F + R) log(A + F)) for F flows of L arcs over A arcs, R re-filings. Routes come in compressed-row
 * form (one int array for all flows), so a
 * solve allocates a handful of primitive arrays and no object per flow or per flow-arc.
 *
 * <p>Not thread-safe: a solver reuses its buffers between calls.
 */
public final class MaxMinSolver {
    private int[] arcStart = new int[0];
    private int[] arcFlows = new int[0];
    private int[] rising = new int[0];
    private double[] used = new double[0];
    private double[] level = new double[0];
    private boolean[] frozen = new boolean[0];
    private double[] heapKey = new double[0];
    private int[] heapId = new int[0];
    private int heapSize;

    /**
     * @param flows        number of flows
     * @param routeStart   flows + 1 offsets into {@code routeArcs}; flow f crosses
     *                     routeArcs[routeStart[f] .. routeStart[f+1]), at least one arc each
     * @param routeArcs    arc ids (0 .. capacityGbps.length - 1); an arc at most once per flow
     * @param demandGbps   per flow, the most it would send (Double.POSITIVE_INFINITY: no limit);
     *                     null means no flow has a limit
     * @param capacityGbps per arc, what the flows share (0 for a failed arc)
     * @param ratesGbps    out: per flow, its max-min fair rate
     */
    public void solve(int flows, int[] routeStart, int[] routeArcs, double[] demandGbps, double[] capacityGbps,
                      double[] ratesGbps) {
        int arcs = capacityGbps.length;
        prepare(flows, arcs, routeStart[flows]);
        // Transpose the routes: which flows cross each arc.
        Arrays.fill(rising, 0, arcs, 0);
        for (int i = 0; i < routeStart[flows]; i++) {
            rising[routeArcs[i]]++;
        }
        arcStart[0] = 0;
        for (int a = 0; a < arcs; a++) {
            arcStart[a + 1] = arcStart[a] + rising[a];
        }
        int[] fill = Arrays.copyOf(arcStart, arcs);
        for (int f = 0; f < flows; f++) {
            for (int i = routeStart[f]; i < routeStart[f + 1]; i++) {
                arcFlows[fill[routeArcs[i]]++] = f;
            }
        }
        Arrays.fill(used, 0, arcs, 0);
        Arrays.fill(frozen, 0, flows, false);
        heapSize = 0;
        for (int a = 0; a < arcs; a++) {
            if (rising[a] > 0) {
                level[a] = capacityGbps[a] / rising[a];
                push(level[a], a);
            }
        }
        if (demandGbps != null) {
            for (int f = 0; f < flows; f++) {
                if (demandGbps[f] < Double.POSITIVE_INFINITY) {
                    push(Math.max(0, demandGbps[f]), arcs + f);
                }
            }
        }
        double water = 0;
        int left = flows;
        while (left > 0) {
            if (heapSize == 0) {
                throw new IllegalStateException("progressive filling ran out of bottlenecks with " + left
                        + " flows still rising (a flow without arcs?)");
            }
            double key = heapKey[0];
            int id = heapId[0];
            pop();
            if (id >= arcs) {
                int f = id - arcs;
                if (!frozen[f]) {
                    water = Math.max(water, key);
                    freeze(f, water, routeStart, routeArcs, capacityGbps, ratesGbps);
                    left--;
                }
                continue;
            }
            if (rising[id] == 0) {
                continue; // all its flows froze elsewhere
            }
            if (key < level[id]) {
                push(level[id], id); // its level rose since it was filed: file it again, at the new level
                continue;
            }
            water = Math.max(water, key);
            for (int i = arcStart[id]; i < arcStart[id + 1]; i++) {
                int f = arcFlows[i];
                if (!frozen[f]) {
                    freeze(f, water, routeStart, routeArcs, capacityGbps, ratesGbps);
                    left--;
                }
            }
        }
    }

    private void freeze(int f, double rate, int[] routeStart, int[] routeArcs, double[] cap, double[] rates) {
        frozen[f] = true;
        rates[f] = rate;
        for (int i = routeStart[f]; i < routeStart[f + 1]; i++) {
            int a = routeArcs[i];
            used[a] += rate;
            if (--rising[a] > 0) {
                // Rounding may put the new level a hair under the water; it cannot really be lower.
                level[a] = Math.max(rate, (cap[a] - used[a]) / rising[a]);
            }
        }
    }

    private void prepare(int flows, int arcs, int routeLength) {
        if (arcStart.length < arcs + 1) {
            arcStart = new int[arcs + 1];
            rising = new int[arcs];
            used = new double[arcs];
            level = new double[arcs];
        }
        if (arcFlows.length < routeLength) {
            arcFlows = new int[routeLength];
        }
        if (frozen.length < flows) {
            frozen = new boolean[flows];
        }
        int heap = arcs + flows;
        if (heapKey.length < heap) {
            heapKey = new double[heap];
            heapId = new int[heap];
        }
    }

    private void push(double key, int id) {
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (heapKey[parent] <= key) {
                break;
            }
            heapKey[i] = heapKey[parent];
            heapId[i] = heapId[parent];
            i = parent;
        }
        heapKey[i] = key;
        heapId[i] = id;
    }

    private void pop() {
        double key = heapKey[--heapSize];
        int id = heapId[heapSize];
        int i = 0;
        int half = heapSize >>> 1;
        while (i < half) {
            int c = 2 * i + 1;
            if (c + 1 < heapSize && heapKey[c + 1] < heapKey[c]) {
                c++;
            }
            if (key <= heapKey[c]) {
                break;
            }
            heapKey[i] = heapKey[c];
            heapId[i] = heapId[c];
            i = c;
        }
        heapKey[i] = key;
        heapId[i] = id;
    }
}
