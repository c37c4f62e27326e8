package io.weft.placement;

/**
 * Bad placement input. {@link #field()} names the culprit the way the job file spells it
 * (e.g. {@code endpoints[3]}, {@code flows[0].demandGbps}, {@code qpSlices}) so callers can show it
 * without a stack trace.
 */
public final class PlacementException extends Exception {
    private static final long serialVersionUID = 1L;
    private final String field;

    public PlacementException(String field, String message) {
        super(field + ": " + message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
