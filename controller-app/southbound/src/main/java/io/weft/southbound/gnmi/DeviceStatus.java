package io.weft.southbound.gnmi;

/**
 * A point-in-time view of one switch, for {@code GET /devices}, metrics and the fabric snapshot.
 * Times are epoch milliseconds; {@code lastSyncMs} is 0 until the first confirmed sync.
 */
public final class DeviceStatus {
    private final String device;
    private final String endpoint;
    private final DeviceState state;
    private final String lastError;
    private final long sinceMs;
    private final long lastSyncMs;
    private final long opsSent;
    private final long sets;
    private final int lastPushOps;

    DeviceStatus(String device, String endpoint, DeviceState state, String lastError, long sinceMs, long lastSyncMs,
                 long opsSent, long sets, int lastPushOps) {
        this.device = device;
        this.endpoint = endpoint;
        this.state = state;
        this.lastError = lastError;
        this.sinceMs = sinceMs;
        this.lastSyncMs = lastSyncMs;
        this.opsSent = opsSent;
        this.sets = sets;
        this.lastPushOps = lastPushOps;
    }

    public String device() {
        return device;
    }

    /** address:port of the switch's gNMI server. */
    public String endpoint() {
        return endpoint;
    }

    public DeviceState state() {
        return state;
    }

    /**
     * The switch's or the transport's error text while REJECTED, UNREACHABLE or PENDING after a mismatch; else null.
     */
    public String lastError() {
        return lastError;
    }

    /** When the device entered its current state. */
    public long sinceMs() {
        return sinceMs;
    }

    public long lastSyncMs() {
        return lastSyncMs;
    }

    /** Replace and delete ops sent in accepted SetRequests since the controller started. */
    public long opsSent() {
        return opsSent;
    }

    /** Accepted SetRequests since the controller started. */
    public long sets() {
        return sets;
    }

    /** Ops in the last accepted SetRequest. */
    public int lastPushOps() {
        return lastPushOps;
    }

    @Override
    public String toString() {
        return device + " " + state + (lastError == null ? "" : " (" + lastError + ")");
    }
}
