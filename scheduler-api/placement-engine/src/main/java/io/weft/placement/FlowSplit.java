package io.weft.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits a commodity's path flows among its flows so that each flow uses at most {@code limit}
 * paths: the commodity (a switch pair) may carry its flow on more paths than one flow may use.
 *
 * <p>Up to {@code limit} paths every flow takes every path, in proportion (one group: the
 * rounding may then move any flow's units between all of them). Beyond, the paths (heaviest first)
 * are laid end to end and the flows after them, each taking the stretch it covers: a flow spans one
 * path more than the path ends inside its stretch, so with P paths and n flows there are at most
 * P + n − 1 pieces and each path is shared by at most two flows that also use another path. The
 * path flows are reproduced exactly unless a flow covers more than {@code limit} paths (many small
 * ones): it keeps its {@code limit} largest pieces, scaled to its demand, and {@link #exact} is
 * false. Flows with the same paths form one group, as the rounding takes them. O((P + n) log P).
 */
final class FlowSplit {
    /** Flows (indices into the commodity's flows), their paths (indices into x) and the flow on each. */
    record Group(int[] flows, int[] paths, double[] amounts) {
    }

    private FlowSplit() {
    }

    /** Relative flow below which a path or a piece counts as empty. */
    private static final double EPS = 1e-9;

    /** The groups; {@code exact[0]} is set false when a flow had to drop pieces. */
    static List<Group> split(double[] x, double[] demands, int limit, boolean[] exact) {
        double total = Arrays.stream(demands).sum();
        List<Integer> positive = new ArrayList<>();
        for (int p = 0; p < x.length; p++) {
            if (x[p] > EPS * total) {
                positive.add(p);
            }
        }
        if (positive.isEmpty()) {
            throw new IllegalStateException("a commodity with demand " + total + " carries no flow");
        }
        positive.sort((a, b) -> Double.compare(x[b], x[a]));
        if (positive.size() <= limit || demands.length == 1) {
            int[] flows = new int[demands.length];
            Arrays.setAll(flows, j -> j);
            int[] paths = positive.stream().mapToInt(Integer::intValue).limit(limit).toArray();
            double[] amounts = new double[paths.length];
            double kept = 0;
            for (int k = 0; k < paths.length; k++) {
                amounts[k] = x[paths[k]];
                kept += amounts[k];
            }
            for (int k = 0; k < paths.length; k++) {
                amounts[k] *= total / kept; // the heaviest paths take over what a cut left
            }
            if (positive.size() > limit) {
                exact[0] = false;
            }
            return List.of(new Group(flows, paths, amounts));
        }
        double[] left = new double[positive.size()];
        double sum = 0;
        for (int k = 0; k < left.length; k++) {
            left[k] = x[positive.get(k)];
            sum += left[k];
        }
        for (int k = 0; k < left.length; k++) {
            left[k] *= total / sum; // the path flows sum to the demand up to the solver's tolerance
        }
        Map<String, List<Object[]>> byPaths = new LinkedHashMap<>(); // path set -> {flow, pieces}
        int at = 0;
        for (int j = 0; j < demands.length; j++) {
            double need = demands[j];
            List<double[]> pieces = new ArrayList<>(); // {path index k, amount}
            while (need > EPS * demands[j] && at < left.length) {
                double take = Math.min(need, left[at]);
                if (take > EPS * demands[j]) {
                    pieces.add(new double[] {at, take});
                }
                need -= take;
                left[at] -= take;
                if (left[at] <= EPS * demands[j]) {
                    at++;
                }
            }
            if (pieces.isEmpty()) { // only rounding dust was left: the last path
                pieces.add(new double[] {left.length - 1, demands[j]});
            }
            if (pieces.size() > limit) {
                pieces.sort((a, b) -> Double.compare(b[1], a[1]));
                pieces = new ArrayList<>(pieces.subList(0, limit));
                exact[0] = false;
            }
            double got = pieces.stream().mapToDouble(pc -> pc[1]).sum();
            pieces.sort((a, b) -> Double.compare(a[0], b[0]));
            StringBuilder key = new StringBuilder();
            for (double[] pc : pieces) {
                pc[1] *= demands[j] / got;
                key.append((int) pc[0]).append(',');
            }
            byPaths.computeIfAbsent(key.toString(), k -> new ArrayList<>()).add(new Object[] {j, pieces});
        }
        List<Group> groups = new ArrayList<>();
        for (List<Object[]> members : byPaths.values()) {
            @SuppressWarnings("unchecked")
            List<double[]> first = (List<double[]>) members.get(0)[1];
            int[] paths = new int[first.size()];
            double[] amounts = new double[paths.length];
            int[] flows = new int[members.size()];
            for (int m = 0; m < flows.length; m++) {
                flows[m] = (Integer) members.get(m)[0];
                @SuppressWarnings("unchecked")
                List<double[]> pieces = (List<double[]>) members.get(m)[1];
                for (int k = 0; k < paths.length; k++) {
                    paths[k] = positive.get((int) pieces.get(k)[0]);
                    amounts[k] += pieces.get(k)[1];
                }
            }
            groups.add(new Group(flows, paths, amounts));
        }
        return groups;
    }
}
