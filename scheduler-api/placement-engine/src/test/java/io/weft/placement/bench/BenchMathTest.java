package io.weft.placement.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import io.weft.fabric.Fabric;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.placement.Candidates;
import io.weft.placement.DenseFabric;
import org.junit.jupiter.api.Test;

/** The benchmark's yardsticks checked against answers computed independently. */
class BenchMathTest {

    /** E[max load] of n balls thrown uniformly into m bins, exactly: P(max <= k) by polynomial DP. */
    static double expectedMaxBin(int n, int m) {
        double[] fact = new double[n + 1];
        fact[0] = 1;
        for (int i = 1; i <= n; i++) {
            fact[i] = fact[i - 1] * i;
        }
        double e = 0;
        double prevCdf = 0;
        for (int k = 1; k <= n; k++) {
            // [x^n] (sum_{j<=k} x^j / j!)^m, times n! / m^n.
            double[] poly = new double[n + 1];
            poly[0] = 1;
            for (int bin = 0; bin < m; bin++) {
                double[] next = new double[n + 1];
                for (int d = 0; d <= n; d++) {
                    if (poly[d] == 0) {
                        continue;
                    }
                    for (int j = 0; j <= k && d + j <= n; j++) {
                        next[d + j] += poly[d] / fact[j];
                    }
                }
                poly = next;
            }
            double cdf = poly[n] * fact[n] / Math.pow(m, n);
            e += k * (cdf - prevCdf);
            prevCdf = cdf;
        }
        return e;
    }

    /** Brute force over all m^n assignments, to check the DP. */
    static double expectedMaxBinByEnumeration(int n, int m) {
        long total = (long) Math.pow(m, n);
        long sum = 0;
        int[] bins = new int[m];
        for (long code = 0; code < total; code++) {
            java.util.Arrays.fill(bins, 0);
            long c = code;
            int max = 0;
            for (int i = 0; i < n; i++) {
                max = Math.max(max, ++bins[(int) (c % m)]);
                c /= m;
            }
            sum += max;
        }
        return sum / (double) total;
    }

    @Test
    void ballsIntoBinsDpMatchesEnumeration() {
        for (int n = 1; n <= 6; n++) {
            for (int m = 1; m <= 6; m++) {
                assertThat(expectedMaxBin(n, m)).as("n=%d m=%d", n, m).isCloseTo(expectedMaxBinByEnumeration(n, m),
                        within(1e-9));
            }
        }
        assertThat(expectedMaxBin(8, 8)).isCloseTo(expectedMaxBinByEnumeration(8, 8), within(1e-9));
    }

    @Test
    void ecmpOnEightFlowsOverEightUplinksMatchesBallsIntoBins() {
        // 8 line-rate flows leaf1 -> leaf2 over 8 spines: the max load is the fullest uplink.
        Fabric f = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 8, 8));
        DenseFabric ix = DenseFabric.of(f);
        int[] src = new int[8];
        int[] dst = new int[8];
        double[] dem = new double[8];
        for (int i = 0; i < 8; i++) {
            src[i] = ix.node("leaf1-nic" + (i + 1));
            dst[i] = ix.node("leaf2-nic" + (i + 1));
            dem[i] = 400;
        }
        Ecmp.Result r = Ecmp.run(new Candidates(ix), src, dst, dem, 40_000, false);
        double exact = expectedMaxBin(8, 8);
        assertThat(exact).isCloseTo(2.6, within(0.2));
        // 40,000 seeds: standard error about 0.004.
        assertThat(r.expectedMaxLoad()).isCloseTo(exact, within(0.02));
        Ecmp.Result hundred = Ecmp.run(new Candidates(ix), src, dst, dem, 100, true);
        assertThat(hundred.expectedMaxLoad()).isCloseTo(exact, within(0.25));
        assertThat(hundred.expectedSlowestGbps()).isLessThan(400);
    }

    @Test
    void maxMinFairOnAHandDrawnExample() {
        // Arc 0 (cap 10) shared by flows A and B; arc 1 (cap 4) carries B and C.
        double[] cap = {10, 4};
        double[] r = MaxMinFair.rates(cap, List.of(new int[] {0}, new int[] {0, 1}, new int[] {1}),
                new double[] {100, 100, 100});
        assertThat(r[1]).isCloseTo(2, within(1e-9));
        assertThat(r[2]).isCloseTo(2, within(1e-9));
        assertThat(r[0]).isCloseTo(8, within(1e-9));
        double[] capped = MaxMinFair.rates(cap, List.of(new int[] {0}, new int[] {0, 1}), new double[] {1, 100});
        assertThat(capped).containsExactly(new double[] {1, 4}, within(1e-9));
    }

    @Test
    void lpBoundSplitsThreeFlowsOverTwoSpines() {
        Fabric f = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 2, 3));
        DenseFabric ix = DenseFabric.of(f);
        int[] src = {ix.node("leaf1-nic1"), ix.node("leaf1-nic2"), ix.node("leaf1-nic3")};
        int[] dst = {ix.node("leaf2-nic1"), ix.node("leaf2-nic2"), ix.node("leaf2-nic3")};
        LowerBound.Bound b = LowerBound.of(new Candidates(ix), src, dst, new double[] {400, 400, 400}, false);
        assertThat(b.kind()).isEqualTo("lp");
        assertThat(b.value()).isCloseTo(1.5, within(1e-6));
        assertThat(LowerBound.cutBound(ix, src, dst, new double[] {400, 400, 400})).isCloseTo(1.5, within(1e-9));
    }

    /**
     * Weighted max-min: with one path of weight 1 it is the plain progressive filling; a flow split
     * half and half over two arcs of 100 next to a flow alone on one of them: both freeze when that
     * arc fills at rate r/2 + r = 100, so r = 66.7 for both.
     */
    @Test
    void weightedMaxMinFairRates() {
        double[] cap = {100, 100};
        double[] plain = MaxMinFair.rates(cap, List.of(new int[] {0}, new int[] {0, 1}, new int[] {1}),
                new double[] {1000, 1000, 1000});
        double[] weighted = MaxMinFair.weightedRates(cap, List.of(new int[][] {{0}}, new int[][] {{0, 1}},
                new int[][] {{1}}), List.of(new double[] {1}, new double[] {1}, new double[] {1}),
                new double[] {1000, 1000, 1000});
        assertThat(weighted).containsExactly(plain, within(1e-9));
        double[] split = MaxMinFair.weightedRates(cap, List.of(new int[][] {{0}, {1}}, new int[][] {{0}}),
                List.of(new double[] {0.5, 0.5}, new double[] {1}), new double[] {1000, 1000});
        assertThat(split).containsExactly(new double[] {200.0 / 3, 200.0 / 3}, within(1e-9));
    }
}
