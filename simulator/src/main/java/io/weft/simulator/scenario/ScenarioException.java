package io.weft.simulator.scenario;

/** A scenario file that cannot be run; the message is one line naming the file and the field. */
public final class ScenarioException extends Exception {
    private static final long serialVersionUID = 1L;

    public ScenarioException(String message) {
        super(message);
    }
}
