package io.weft.southbound.gnmi;

/**
 * Tunables of the {@link Provisioner}.
 *
 * @see #defaults()
 */
public final class ProvisionerConfig {
    public static final int DEFAULT_MAX_IN_FLIGHT = 16;
    public static final long DEFAULT_RPC_TIMEOUT_MS = 5_000;
    public static final long DEFAULT_BACKOFF_INITIAL_MS = 250;
    public static final long DEFAULT_BACKOFF_MAX_MS = 10_000;
    public static final long DEFAULT_RESYNC_INTERVAL_MS = 30_000;

    private final int maxInFlight;
    private final long rpcTimeoutMs;
    private final long backoffInitialMs;
    private final long backoffMaxMs;
    private final long resyncIntervalMs;

    /**
     * @param maxInFlight      switches synced at once (one blocking RPC each)
     * @param rpcTimeoutMs     deadline of every Capabilities, Get and Set
     * @param backoffInitialMs first retry delay after a transport failure; doubles per failure
     * @param backoffMaxMs     cap of the retry delay (jitter takes up to half of it off)
     * @param resyncIntervalMs every switch is read back (Get diff) this often: drift and restarts heal
     */
    public ProvisionerConfig(int maxInFlight, long rpcTimeoutMs, long backoffInitialMs, long backoffMaxMs,
                             long resyncIntervalMs) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight: must be >= 1, got " + maxInFlight);
        }
        if (rpcTimeoutMs < 1) {
            throw new IllegalArgumentException("rpcTimeoutMs: must be >= 1, got " + rpcTimeoutMs);
        }
        if (backoffInitialMs < 1 || backoffMaxMs < backoffInitialMs) {
            throw new IllegalArgumentException("backoffInitialMs/backoffMaxMs: need 1 <= initial <= max, got "
                    + backoffInitialMs + "/" + backoffMaxMs);
        }
        if (resyncIntervalMs < 1) {
            throw new IllegalArgumentException("resyncIntervalMs: must be >= 1, got " + resyncIntervalMs);
        }
        this.maxInFlight = maxInFlight;
        this.rpcTimeoutMs = rpcTimeoutMs;
        this.backoffInitialMs = backoffInitialMs;
        this.backoffMaxMs = backoffMaxMs;
        this.resyncIntervalMs = resyncIntervalMs;
    }

    public static ProvisionerConfig defaults() {
        return new ProvisionerConfig(DEFAULT_MAX_IN_FLIGHT, DEFAULT_RPC_TIMEOUT_MS, DEFAULT_BACKOFF_INITIAL_MS,
                DEFAULT_BACKOFF_MAX_MS, DEFAULT_RESYNC_INTERVAL_MS);
    }

    public int maxInFlight() {
        return maxInFlight;
    }

    public long rpcTimeoutMs() {
        return rpcTimeoutMs;
    }

    public long backoffInitialMs() {
        return backoffInitialMs;
    }

    public long backoffMaxMs() {
        return backoffMaxMs;
    }

    public long resyncIntervalMs() {
        return resyncIntervalMs;
    }

    /** The delay before retry number {@code failures} (1 = first retry): capped doubling, "equal jitter". */
    long backoffMs(int failures, double random) {
        long exp = backoffInitialMs << Math.min(Math.max(failures - 1, 0), 20);
        long capped = Math.min(backoffMaxMs, exp);
        return capped / 2 + (long) (random * (capped - capped / 2));
    }
}
