package io.weft.telemetry;

import java.util.List;

/**
 * The samples of one weft.telemetry.interfaces record (gnmic sends one JSON array per subscription
 * response, one event per interface or queue), passed on as one unit: the topology then pays its
 * per-record cost (node hops, record contexts) once per record rather than once per event.
 *
 * @param samples in the order of the record's events; may be empty (an empty array)
 */
public record Samples(List<InterfaceSample> samples) implements Parsed {
    public Samples {
        samples = List.copyOf(samples);
    }
}
