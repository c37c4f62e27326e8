package io.weft.placement;

/** Operational state of a link as placement sees it. Only UP links carry new or existing flows. */
public enum LinkState {
    UP,
    /** Failed: flows on it must move (or are reported as unplaceable). */
    DOWN,
    /** Taken out of service on purpose (maintenance): treated like DOWN by placement. */
    DRAINED;

    public boolean usable() {
        return this == UP;
    }
}
