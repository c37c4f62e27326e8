package io.weft.simulator;

/** A flow or event the simulation cannot take; the message starts with the offending field. */
public final class SimulationException extends Exception {
    private static final long serialVersionUID = 1L;

    public SimulationException(String message) {
        super(message);
    }
}
