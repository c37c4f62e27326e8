package io.weft.plan.walk;

import io.weft.plan.PlanException;

/**
 * A packet cannot be followed to its destination with the planned tables: a dead end, a loop
 * (hop limit), or an ECMP choice the tables do not pin. {@link #switchId()} and {@link #hop()}
 * say where it happened; the message says the same in one line.
 */
public final class WalkException extends PlanException {
    private static final long serialVersionUID = 1L;

    /** Why the walk stopped. */
    public enum Kind { DEAD_END, LOOP, AMBIGUOUS, BAD_INPUT }

    private final Kind kind;
    private final String switchId;
    private final int hop;

    public WalkException(Kind kind, String switchId, int hop, String what) {
        super(kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                + (switchId == null ? "" : " at " + switchId + " (hop " + hop + ")") + ": " + what);
        this.kind = kind;
        this.switchId = switchId;
        this.hop = hop;
    }

    public Kind kind() {
        return kind;
    }

    /** The switch where the walk stopped, or null for bad input. */
    public String switchId() {
        return switchId;
    }

    /** Arcs taken before the walk stopped (the NIC's first arc is hop 1). */
    public int hop() {
        return hop;
    }
}
