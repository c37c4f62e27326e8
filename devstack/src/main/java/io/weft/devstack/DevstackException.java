package io.weft.devstack;

/** A devstack failure with a one-line message meant for the person who started it. */
public class DevstackException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DevstackException(String message) {
        super(message);
    }

    public DevstackException(String message, Throwable cause) {
        super(message, cause);
    }
}
