package io.weft.simulator;

import java.util.List;

import io.weft.fabric.Arc;

/**
 * What happened to one flow so far: its state, when it started and finished (NaN while not
 * finished), its current rate, bytes still to send and its current route (empty while stalled
 * without one).
 */
public record FlowResult(String id, State state, double startS, double finishS, double rateGbps,
                         double remainingBytes, List<Arc> route) {
    public enum State {
        /** Not started yet (startS in the future). */
        PENDING,
        /** Sending (possibly at rate 0 behind a 0-capacity link). */
        ACTIVE,
        /** Its route crosses a failed link, or ECMP found no working next hop. */
        STALLED,
        /** All bytes delivered. */
        DONE
    }

    /** Flow completion time: finish minus start, NaN when not done. */
    public double fctS() {
        return finishS - startS;
    }
}
