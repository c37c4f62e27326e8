package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

import org.junit.jupiter.api.Test;

/** Units per flow sum to g, and no path gets a whole largest unit more than its weight asks. */
class UnitApportionmentTest {
    @Test
    void seededWeightsAndDemandsStayWithinOneUnit() {
        Random rnd = new Random(42);
        for (int trial = 0; trial < 500; trial++) {
            int paths = 1 + rnd.nextInt(8);
            int g = new int[] {1, 2, 8, 16}[rnd.nextInt(4)];
            double[] w = new double[paths];
            double sum = 0;
            for (int p = 0; p < paths; p++) {
                w[p] = rnd.nextDouble();
                sum += w[p];
            }
            for (int p = 0; p < paths; p++) {
                w[p] /= sum;
            }
            double[] d = new double[1 + rnd.nextInt(40)];
            double total = 0;
            double umax = 0;
            for (int f = 0; f < d.length; f++) {
                d[f] = new double[] {100, 200, 400}[rnd.nextInt(3)];
                total += d[f];
                umax = Math.max(umax, d[f] / g);
            }
            int[][] u = UnitApportionment.apportion(w, d, g);
            double[] got = new double[paths];
            for (int f = 0; f < d.length; f++) {
                int n = 0;
                for (int p = 0; p < paths; p++) {
                    n += u[f][p];
                    got[p] += u[f][p] * d[f] / g;
                }
                assertThat(n).isEqualTo(g);
            }
            for (int p = 0; p < paths; p++) {
                assertThat(got[p]).isLessThan(w[p] * total + umax + 1e-9);
            }
        }
    }
}
