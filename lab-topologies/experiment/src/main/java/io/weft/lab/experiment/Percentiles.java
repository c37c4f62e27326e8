package io.weft.lab.experiment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Nearest-rank percentiles of a few runs' figures (no interpolation: every value reported was measured). */
final class Percentiles {
    private Percentiles() {
    }

    /** The smallest value with at least p % of the values at or below it; -1 for none. */
    static long nearestRank(List<Long> values, double p) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> v = new ArrayList<>(values);
        Collections.sort(v);
        return v.get(rank(v.size(), p));
    }

    /** As {@link #nearestRank}, for doubles; NaN for none. */
    static double nearestRankDouble(List<Double> values, double p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> v = new ArrayList<>(values);
        Collections.sort(v);
        return v.get(rank(v.size(), p));
    }

    private static int rank(int n, double p) {
        return Math.max(0, (int) Math.ceil(p / 100 * n) - 1);
    }
}
