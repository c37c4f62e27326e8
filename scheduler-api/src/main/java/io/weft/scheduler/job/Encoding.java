package io.weft.scheduler.job;

import com.fasterxml.jackson.annotation.JsonValue;
import io.weft.plan.FabricPlan;

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

    /**
     * Whether a job of this encoding keeps to its NICs' home ports on the plan's fabric: only an
     * EV-only job, and only where EV routing cannot reach every port (a NIC with two ports into one
     * plane receives on one of them). With one port per plane every plane's paths carry an EV.
     */
    public boolean homePortsOnly(FabricPlan plan) {
        return this == EV && !plan.evReachesEveryPort();
    }

    @Override
    public String toString() {
        return jsonName;
    }
}
