package io.weft.scheduler.fabric;

import java.util.ArrayList;
import java.util.List;

import io.weft.fabric.Arc;
import io.weft.placement.PlacementEngine;
import io.weft.placement.Quality;

/**
 * The engine's reservations at one moment, copied for readers: every link direction with reserved
 * demand, and the placement's quality. Immutable; readers never see the engine itself.
 */
public record Reservations(List<Reserved> directions, Quality quality) {

    /**
     * One link direction with reserved demand.
     *
     * @param elephants flows on this direction counted as elephants by the engine
     */
    public record Reserved(String link, String from, String to, double reservedGbps, double capacityGbps,
                           int elephants) {
    }

    public Reservations {
        directions = List.copyOf(directions);
    }

    /** Copies the engine's state; only the single writer calls this (it holds the engine). */
    static Reservations of(PlacementEngine engine) {
        double[] loads = engine.arcLoadsGbps();
        int[] elephants = engine.arcElephants();
        List<Reserved> out = new ArrayList<>();
        for (int a = 0; a < loads.length; a++) {
            if (loads[a] > 0) {
                Arc arc = engine.index().arc(a);
                out.add(new Reserved(arc.link().id(), arc.from(), arc.to(), loads[a], arc.link().capacityGbps(),
                        elephants[a]));
            }
        }
        return new Reservations(out, engine.quality());
    }
}
