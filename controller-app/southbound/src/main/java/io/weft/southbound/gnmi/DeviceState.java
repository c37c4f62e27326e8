package io.weft.southbound.gnmi;

/** Where one switch stands against the latest intent. */
public enum DeviceState {
    /** The switch confirmed (by Get) every op of the latest intent. */
    IN_SYNC,
    /** A newer intent than the confirmed one is being pushed, or the read-back differed and a retry is due. */
    PENDING,
    /** No gNMI answer (connection refused, TLS failure, deadline): retried with capped backoff. */
    UNREACHABLE,
    /** The switch answers but refused: missing model/encoding, a Set rejected, bad credentials. */
    REJECTED
}
