package io.weft.scheduler.job;

import com.fasterxml.jackson.annotation.JsonValue;

/** Which encodings a job's NICs receive: SRv6 uSID carriers, entropy values (UDP source ports), or both. */
public enum Encoding {
    SRV6("srv6"),
    EV("ev"),
    BOTH("both");

    private final String jsonName;

    Encoding(String jsonName) {
        this.jsonName = jsonName;
    }

    @JsonValue
    public String jsonName() {
        return jsonName;
    }

    public static Encoding fromJson(String s) {
        for (Encoding e : values()) {
            if (e.jsonName.equals(s)) {
                return e;
            }
        }
        throw new IllegalArgumentException(s);
    }

    public boolean wantsSrv6() {
        return this != EV;
    }

    public boolean wantsEv() {
        return this != SRV6;
    }

    @Override
    public String toString() {
        return jsonName;
    }
}
