package io.weft.contracts;

/**
 * A contract value that breaks its schema. The message starts with the offending field in bean-path
 * style ({@code flows[0].bytes}, {@code kind}; {@code $} for the value itself), then says why.
 * An IllegalArgumentException, so callers that already refuse bad input that way need no change.
 */
public final class ContractException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String field;

    public ContractException(String field, String reason) {
        super(field + ": " + reason);
        this.field = field;
    }

    /** The offending field, bean-path style; {@code $} for the whole value. */
    public String field() {
        return field;
    }
}
