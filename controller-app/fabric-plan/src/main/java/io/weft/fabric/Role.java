package io.weft.fabric;

import java.util.Locale;

/** What a node is in the fabric. Switch roles carry SRv6 locators; NICs are traffic endpoints. */
public enum Role {
    NIC, LEAF, SPINE, SUPERSPINE, ROUTER;

    /** The name used in fabric files and snapshots. */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean isSwitch() {
        return this != NIC;
    }

    /** Parses a fabric-file role name; returns null when unknown so callers can name the field. */
    public static Role fromJson(String name) {
        for (Role r : values()) {
            if (r.jsonName().equals(name)) {
                return r;
            }
        }
        return null;
    }
}
