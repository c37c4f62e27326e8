package io.weft.scheduler.reroute;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.weft.contracts.HotspotEvent;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementEngine;
import io.weft.scheduler.job.Changes;
import io.weft.scheduler.job.PathLedger.PathChange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a pass's moves to the engine (inside the single writer's change): each move is pinned only
 * if the flow is still where the decision saw it and its new path avoids every down link; a move that
 * would take an EV-steered flow onto a path without an entropy value is put back. What was pinned is
 * returned with the path changes to record; {@link #undo} takes the pins back when recording fails.
 */
final class MovePins {
    private static final Logger LOG = LoggerFactory.getLogger(MovePins.class);

    /** The moves that happened: to record as path changes, and to describe in the event. */
    record Pinned(List<Move> moves, List<PathChange> changes, List<Map<String, Object>> described) {
        boolean isEmpty() {
            return moves.isEmpty();
        }
    }

    private MovePins() {
    }

    static Pinned apply(PlacementEngine engine, Map<Move, ActiveHotspot> moves, Set<Integer> downArcs,
                        Instant decided) {
        List<PathChange> changes = new ArrayList<>();
        List<Move> pinned = new ArrayList<>();
        List<Map<String, Object>> described = new ArrayList<>();
        for (var e : moves.entrySet()) {
            Move m = e.getKey();
            HotspotEvent cause = e.getValue().start();
            PlacedFlow was = engine.placed(m.flowId());
            PlacedFlow p;
            try {
                p = EnginePin.pin(engine, m.flowId(), m.fromArcs(), m.toArcs(), downArcs);
                if (was != null && was.encoding().ev() != null && p.encoding().ev() == null) {
                    // An EV-steered NIC would lose its only way onto the new path: keep the old one.
                    EnginePin.pin(engine, m.flowId(), m.toArcs(), m.fromArcs());
                    LOG.info("not moving {}: its new path has no entropy value", m.flowId());
                    continue;
                }
            } catch (EnginePin.PinFailure f) {
                LOG.warn("not moving {}: {}", m.flowId(), f.getMessage());
                continue;
            }
            pinned.add(m);
            long sampleToEventMs = LoopTimings.millis(cause.sampledAt(), cause.detectedAt());
            long eventToDecisionMs = LoopTimings.millis(cause.detectedAt(), decided);
            String reason = m.cause() + " sample-to-event-ms=" + sampleToEventMs + " event-to-decision-ms="
                    + eventToDecisionMs;
            changes.add(Changes.placed(p, reason));
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("flowId", m.flowId());
            d.put("jobId", p.flow().job());
            d.put("cause", m.cause());
            d.put("maxUtilAfter", m.maxUtilAfter());
            d.put("sampleToEventMs", sampleToEventMs);
            d.put("eventToDecisionMs", eventToDecisionMs);
            described.add(d);
        }
        return new Pinned(List.copyOf(pinned), List.copyOf(changes), List.copyOf(described));
    }

    /** Puts every pinned flow back on the path it had before the pass (the ledger still holds that one). */
    static void undo(PlacementEngine engine, List<Move> pinned) {
        LOG.error("recording {} moves failed, undoing them", pinned.size());
        putBack(engine, pinned);
    }

    /** Puts every pinned flow back on the path it had before the pass, without a word when all goes well. */
    static void putBack(PlacementEngine engine, List<Move> pinned) {
        for (Move m : pinned) {
            try {
                EnginePin.pin(engine, m.flowId(), m.toArcs(), m.fromArcs());
            } catch (EnginePin.PinFailure f) {
                LOG.error("could not undo the move of {}: {}", m.flowId(), f.getMessage());
            }
        }
    }
}
