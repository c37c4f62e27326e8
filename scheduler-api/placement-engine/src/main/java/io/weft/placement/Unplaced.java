package io.weft.placement;

/** A flow that holds no path (no surviving path, or its path could not be encoded), and why. */
public record Unplaced(Flow flow, String reason) {
}
