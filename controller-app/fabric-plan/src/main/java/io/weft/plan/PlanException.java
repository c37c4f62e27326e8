package io.weft.plan;

/**
 * The plan (or an encoding derived from it) cannot be made. The message is one line naming the
 * culprit (a node, a link, a field) so tools can print it as is, without a stack trace.
 */
public class PlanException extends Exception {
    private static final long serialVersionUID = 1L;

    public PlanException(String message) {
        super(message);
    }
}
