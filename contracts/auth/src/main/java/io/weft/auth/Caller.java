package io.weft.auth;

import java.util.Set;

/**
 * The authenticated client of one request: the token's name (safe to log and store), its scope
 * and, for agents, the NIC ids it is bound to. Never holds the token value.
 */
public record Caller(String name, Scope scope, Set<String> nics) {
    /** Request attribute under which a servlet filter leaves the authenticated caller. */
    public static final String ATTRIBUTE = "io.weft.auth.Caller";

    public Caller {
        nics = Set.copyOf(nics);
    }

    public boolean mayActFor(String nic) {
        return scope == Scope.AGENT && nics.contains(nic);
    }
}
