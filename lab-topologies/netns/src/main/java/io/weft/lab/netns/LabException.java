package io.weft.lab.netns;

/** A lab step failed: the message names the command (or input field) and what the kernel said. */
public final class LabException extends Exception {
    private static final long serialVersionUID = 1L;

    public LabException(String message) {
        super(message);
    }
}
