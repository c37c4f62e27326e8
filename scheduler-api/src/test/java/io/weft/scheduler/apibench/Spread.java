package io.weft.scheduler.apibench;

/**
 * One round's samples in ms, summarised: how many, the earliest, nearest-rank p50 and p99 (as
 * {@link ApiBench#pct}), the latest. Both clients report these: the NIO client from its samples, the
 * fan-out probe from its own (it sends the figures, not the samples).
 */
record Spread(int n, double firstMs, double p50Ms, double p99Ms, double maxMs) {
    static final Spread NONE = new Spread(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    static Spread of(double[] sorted) {
        return sorted.length == 0 ? NONE : new Spread(sorted.length, sorted[0], ApiBench.pct(sorted, 50),
                ApiBench.pct(sorted, 99), sorted[sorted.length - 1]);
    }
}
