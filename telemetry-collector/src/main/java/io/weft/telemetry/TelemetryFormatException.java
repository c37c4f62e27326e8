package io.weft.telemetry;

/**
 * A telemetry record that cannot be used. The code is the contract's error code
 * (contracts/vectors/gnmic-events.json) and goes to the dead-letter topic with the record; the
 * message is one line naming the field at fault.
 */
public final class TelemetryFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Error codes of contracts/vectors/gnmic-events.json. */
    public enum Code {
        NOT_JSON("not-json"),
        NOT_EVENT("not-event"),
        NO_TARGET("no-target"),
        NO_INTERFACE("no-interface"),
        BAD_COUNTER("bad-counter");

        private final String code;

        Code(String code) {
            this.code = code;
        }

        /** The code as written in the contracts and the dead-letter record. */
        public String code() {
            return code;
        }
    }

    private final Code code;

    public TelemetryFormatException(Code code, String message) {
        super(message);
        this.code = code;
    }

    public Code code() {
        return code;
    }
}
