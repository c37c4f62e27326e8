package io.weft.contracts;

/**
 * The state of a link in the fabric snapshot's {@code linkStates} (contracts/schemas/fabric-snapshot.schema.json):
 * the controller owns it; the JSON form is the lower-case name.
 */
public enum LinkState {
    /** In service. */
    UP("up"),
    /** Failed (link-down from telemetry): flows on it must move. */
    DOWN("down"),
    /** Taken out of service on purpose by an operator: treated like {@link #DOWN} by placement. */
    DRAINED("drained");

    private final String json;

    LinkState(String json) {
        this.json = json;
    }

    /** The JSON form: {@code up}, {@code down} or {@code drained}. */
    public String json() {
        return json;
    }

    /** Only links that are up carry new or existing flows. */
    public boolean usable() {
        return this == UP;
    }

    /** The state of a JSON value; throws {@link ContractException} naming {@code field} for anything else. */
    public static LinkState fromJson(String field, String value) {
        for (LinkState s : values()) {
            if (s.json.equals(value)) {
                return s;
            }
        }
        throw new ContractException(field, "must be one of up, down, drained (got " + Strict.quote(value) + ")");
    }

    @Override
    public String toString() {
        return json;
    }
}
