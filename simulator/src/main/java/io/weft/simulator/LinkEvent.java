package io.weft.simulator;

/**
 * A change to one link at a time: FAIL and RESTORE (both directions), THROTTLE (capacity times
 * {@code value} in [0, 1]; 1 undoes it), BACKGROUND ({@code value} Gbit/s of unrouted load on the
 * direction leaving {@code fromNode}, or on both when it is null).
 */
public record LinkEvent(double atS, String linkId, Kind kind, double value, String fromNode) {
    public enum Kind { FAIL, RESTORE, THROTTLE, BACKGROUND }

    public LinkEvent {
        if (!(atS >= 0) || Double.isInfinite(atS)) {
            throw new IllegalArgumentException("atS: " + atS + " is not a finite time >= 0");
        }
        if (linkId == null) {
            throw new IllegalArgumentException("link: an event needs a link id");
        }
        if (kind == null) {
            throw new IllegalArgumentException("action: an event needs an action");
        }
    }

    public static LinkEvent fail(double atS, String linkId) {
        return new LinkEvent(atS, linkId, Kind.FAIL, 0, null);
    }

    public static LinkEvent restore(double atS, String linkId) {
        return new LinkEvent(atS, linkId, Kind.RESTORE, 0, null);
    }

    public static LinkEvent throttle(double atS, String linkId, double factor) {
        return new LinkEvent(atS, linkId, Kind.THROTTLE, factor, null);
    }

    public static LinkEvent background(double atS, String linkId, String fromNode, double gbps) {
        return new LinkEvent(atS, linkId, Kind.BACKGROUND, gbps, fromNode);
    }
}
