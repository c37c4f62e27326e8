package io.weft.scheduler.job;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.weft.fabric.Arc;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlacementResult;
import io.weft.placement.Unplaced;
import io.weft.scheduler.job.PathLedger.PathChange;

/** Turns an engine result into the path changes to record, each with its reason. */
public final class Changes {
    private Changes() {
    }

    public static PathChange placed(PlacedFlow p, String reason) {
        List<String> arcs = new ArrayList<>(p.path().size());
        for (Arc a : p.path()) {
            arcs.add(a.key());
        }
        return new PathChange(p.flow().id(), p.flow().job(), p.flow().srcNic(), arcs, p.encoding().carriers(),
                p.encoding().usids(), p.encoding().ev(), PathLedger.GOOD, reason);
    }

    public static PathChange denied(Unplaced u, String reason) {
        return new PathChange(u.flow().id(), u.flow().job(), u.flow().srcNic(), List.of(), List.of(), List.of(), null,
                PathLedger.DENIED, reason + ": " + u.reason());
    }

    /**
     * Every flow the result gave a new path or left without one. Flows of {@code ownJob} get
     * {@code ownReason}, other jobs' flows that the engine moved get {@code movedReason}.
     */
    public static List<PathChange> of(PlacementResult r, PlacementEngine engine, String ownJob, String ownReason,
                                      String movedReason) {
        List<PathChange> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (PlacedFlow p : r.placed()) {
            if (seen.add(p.flow().id())) {
                out.add(placed(p, p.flow().job().equals(ownJob) ? ownReason : movedReason));
            }
        }
        for (String id : r.moved()) {
            PlacedFlow p = engine.placed(id);
            if (p != null && seen.add(id)) {
                out.add(placed(p, p.flow().job().equals(ownJob) ? ownReason : movedReason));
            }
        }
        for (Unplaced u : r.unplaced()) {
            if (seen.add(u.flow().id())) {
                out.add(denied(u, "no-path"));
            }
        }
        return out;
    }
}
