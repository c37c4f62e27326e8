package io.weft.scheduler.reroute;

import java.util.Arrays;
import java.util.Set;

import io.weft.placement.DenseFabric;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlacementException;

/**
 * Puts one placed flow on the path the policy chose, but only if it is still where the decision
 * saw it (a job release or a snapshot may have moved it since). If the new path cannot be encoded
 * the engine keeps the flow on its old path and the pin fails. Callers hold the engine's lock.
 */
final class EnginePin {

    /** Why a pin did not happen: the path cannot be encoded, or the flow is gone or not where expected. */
    static final class PinFailure extends Exception {
        PinFailure(String message) {
            super(message);
        }
    }

    private EnginePin() {
    }

    /**
     * Moves the flow from {@code expectedFrom} to {@code to}, which must not cross a link known
     * down: neither one the engine's index calls unusable nor one of {@code downArcs} (down by an
     * event the index does not reflect yet). Checked here, at the commit, whatever the decision saw.
     *
     * @throws PinFailure the flow is unknown, no longer on {@code expectedFrom}, {@code to} crosses a
     *                    down or drained link, or {@code to} cannot be encoded
     */
    static PlacedFlow pin(PlacementEngine engine, String flowId, int[] expectedFrom, int[] to, Set<Integer> downArcs)
            throws PinFailure {
        DenseFabric ix = engine.index();
        for (int a : to) {
            if (a < 0 || a >= ix.arcCount()) {
                throw new PinFailure("flow " + flowId + ": path has no arc " + a + " in this fabric");
            }
            if (!ix.usable(a) || downArcs.contains(a)) {
                throw new PinFailure("flow " + flowId + ": path crosses link " + ix.arc(a).link().id()
                        + ", which is down or drained");
            }
        }
        return pin(engine, flowId, expectedFrom, to);
    }

    /**
     * Moves the flow from {@code expectedFrom} to {@code to} without looking at link states: for
     * undoing a move (the engine must go back to what the ledger holds) and for tests.
     *
     * @throws PinFailure the flow is unknown, no longer on {@code expectedFrom}, or {@code to} cannot be encoded
     */
    static PlacedFlow pin(PlacementEngine engine, String flowId, int[] expectedFrom, int[] to) throws PinFailure {
        int[] now = engine.pathArcs(flowId);
        if (now == null || !Arrays.equals(now, expectedFrom)) {
            throw new PinFailure("flow " + flowId + " moved or left since the decision");
        }
        try {
            return engine.pin(flowId, to);
        } catch (PlacementException e) {
            throw new PinFailure(e.getMessage());
        }
    }
}
