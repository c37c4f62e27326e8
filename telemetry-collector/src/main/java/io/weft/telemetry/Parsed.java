package io.weft.telemetry;

/**
 * What parsing one weft.telemetry.interfaces record yields: its samples (one per event) or, for a
 * record that cannot be used, its dead letter. Sealed so that the topology's split is exhaustive.
 */
public sealed interface Parsed permits Samples, DeadLetter, InterfaceSample {
}
