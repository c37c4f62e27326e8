package io.weft.telemetry;

import java.util.Locale;

/**
 * Rates from successive samples of one 64-bit octet counter (one direction of one interface or
 * queue), as specified by contracts/vectors/counter-rates.json:
 * <ul>
 *   <li>the first sample is the baseline (no rate);</li>
 *   <li>a sample with the baseline's timestamp is a duplicate, an older one is out of order: both
 *       are ignored and the baseline stays;</li>
 *   <li>a value at or above the baseline gives delta = value - baseline; a gap (lost samples) simply
 *       gives the rate over the longer interval;</li>
 *   <li>a value below the baseline is either a 64-bit wrap (delta = 2^64 - baseline + value) or a
 *       counter reset (reboot, clear counters). The wrap is believed only when its rate is at most
 *       1.5 x line rate; otherwise it is a reset: the sample becomes the new baseline, with no rate.</li>
 * </ul>
 * rateGbps = delta x 8 / dt_ns (bits per ns = Gbit/s). Values are unsigned 64-bit integers held in
 * a long. Not thread-safe: one instance per counter, fed in partition order.
 */
public final class CounterRate {
    /** A wrap faster than this many times the line rate is taken for a reset. */
    public static final double WRAP_MAX_LINE_RATE_FACTOR = 1.5;

    /** What a sample turned out to be. */
    public enum Kind {
        FIRST, DUPLICATE, OUT_OF_ORDER, OK, WRAP, RESET;

        /** The name used in the contracts, e.g. {@code out-of-order}. */
        public String jsonName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** True when the sample produced a delta and a rate. */
        public boolean hasRate() {
            return this == OK || this == WRAP;
        }
    }

    /**
     * The outcome of one sample.
     *
     * @param deltaOctets unsigned octets since the baseline; 0 when {@code kind.hasRate()} is false
     * @param rateGbps    the rate since the baseline; NaN when {@code kind.hasRate()} is false
     */
    public record Result(Kind kind, long deltaOctets, double rateGbps) {
        static final Result FIRST = new Result(Kind.FIRST, 0, Double.NaN);
        static final Result DUPLICATE = new Result(Kind.DUPLICATE, 0, Double.NaN);
        static final Result OUT_OF_ORDER = new Result(Kind.OUT_OF_ORDER, 0, Double.NaN);
        static final Result RESET = new Result(Kind.RESET, 0, Double.NaN);

        /** The delta as a decimal string, or null when there is none. */
        public String deltaDecimal() {
            return kind.hasRate() ? Long.toUnsignedString(deltaOctets) : null;
        }
    }

    private final double capacityGbps;
    private boolean started;
    private long lastTimestampNs;
    private long lastValue;

    /** @param capacityGbps line rate of the counted direction, used to tell a wrap from a reset */
    public CounterRate(double capacityGbps) {
        if (!(capacityGbps > 0) || Double.isInfinite(capacityGbps)) {
            throw new IllegalArgumentException("capacityGbps: must be a positive number (got " + capacityGbps + ")");
        }
        this.capacityGbps = capacityGbps;
    }

    /**
     * Feeds one sample.
     *
     * @param timestampNs sample time in ns since the epoch
     * @param value       the counter, unsigned 64-bit
     */
    public Result update(long timestampNs, long value) {
        if (!started) {
            rebase(timestampNs, value);
            started = true;
            return Result.FIRST;
        }
        if (timestampNs == lastTimestampNs) {
            return Result.DUPLICATE;
        }
        if (timestampNs < lastTimestampNs) {
            return Result.OUT_OF_ORDER;
        }
        long dtNs = timestampNs - lastTimestampNs;
        // value - last is the right unsigned delta in both cases: modulo 2^64 it is 2^64 - last + value on a wrap.
        long delta = value - lastValue;
        double rateGbps = unsignedToDouble(delta) * 8 / dtNs;
        Kind kind;
        if (Long.compareUnsigned(value, lastValue) >= 0) {
            kind = Kind.OK;
        } else if (rateGbps <= WRAP_MAX_LINE_RATE_FACTOR * capacityGbps) {
            kind = Kind.WRAP;
        } else {
            rebase(timestampNs, value);
            return Result.RESET;
        }
        rebase(timestampNs, value);
        return new Result(kind, delta, rateGbps);
    }

    /**
     * A counter that carries on from a saved baseline (state restored from a store), as if the
     * sample (timestampNs, value) had just been fed.
     */
    public static CounterRate resume(double capacityGbps, long timestampNs, long value) {
        CounterRate r = new CounterRate(capacityGbps);
        r.rebase(timestampNs, value);
        r.started = true;
        return r;
    }

    /** True once a first sample was fed (there is a baseline). */
    public boolean started() {
        return started;
    }

    /** The baseline's timestamp (meaningful when {@link #started()}). */
    public long lastTimestampNs() {
        return lastTimestampNs;
    }

    /** The baseline's value, unsigned 64-bit (meaningful when {@link #started()}). */
    public long lastValue() {
        return lastValue;
    }

    private void rebase(long timestampNs, long value) {
        lastTimestampNs = timestampNs;
        lastValue = value;
    }

    static double unsignedToDouble(long v) {
        double d = (double) (v & Long.MAX_VALUE);
        return v < 0 ? d + 0x1p63 : d;
    }

    public double capacityGbps() {
        return capacityGbps;
    }
}
