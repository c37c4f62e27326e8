package io.weft.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class MaxMinLpTest {
    @Test
    void ratesEqualTheLexicographicLpOnSeededRandomInstances() {
        for (long seed = 1; seed <= 150; seed++) {
            RandomInstance in = RandomInstance.of(1000 + seed, 8, 10);
            double[] got = in.solve();
            double[] lp = LexicographicLp.rates(in.capacityGbps(), in.routes(), in.demandGbps());
            for (int f = 0; f < got.length; f++) {
                assertThat(got[f]).as("seed %d flow %d", 1000 + seed, f).isCloseTo(lp[f], within(1e-5));
            }
        }
    }

    @Test
    void bottleneckRatesEqualTheLpOnLargerInstances() {
        // Up to 30 arcs and 80 flows: many bottleneck levels, ties between arcs of equal share.
        for (long seed = 1; seed <= 40; seed++) {
            RandomInstance in = RandomInstance.of(5000 + seed, 30, 80);
            double[] got = in.solve();
            double[] lp = LexicographicLp.rates(in.capacityGbps(), in.routes(), in.demandGbps());
            for (int f = 0; f < got.length; f++) {
                assertThat(got[f]).as("seed %d flow %d", 5000 + seed, f).isCloseTo(lp[f], within(1e-5));
            }
        }
    }
}
