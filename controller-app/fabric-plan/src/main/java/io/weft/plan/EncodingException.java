package io.weft.plan;

/**
 * A uSID carrier or entropy value cannot be encoded or decoded. {@link #code()} is the error code
 * used by the shared test vectors (contracts/vectors/), identical in every language.
 */
public final class EncodingException extends PlanException {
    private static final long serialVersionUID = 1L;

    private final String code;

    public EncodingException(String code, String message) {
        super(message);
        this.code = code;
    }

    /** The vector error code, e.g. {@code usid-zero} or {@code index-out-of-range}. */
    public String code() {
        return code;
    }
}
