package io.weft.auth;

import java.util.Objects;
import java.util.Set;

/**
 * The authenticated client of one request: the token's name (safe to log and store), its scope
 * and, for agents, the NIC ids it is bound to. Never holds the token value.
 *
 * <p>A value class rather than a record: this library is Java 11 bytecode so that the ONOS bundle
 * (ONOS 2.7 runs on Java 11) checks tokens with the same code as the other services.
 */
public final class Caller {
    /** Request attribute under which a servlet filter leaves the authenticated caller. */
    public static final String ATTRIBUTE = "io.weft.auth.Caller";

    private final String name;
    private final Scope scope;
    private final Set<String> nics;

    public Caller(String name, Scope scope, Set<String> nics) {
        this.name = name;
        this.scope = scope;
        this.nics = Set.copyOf(nics);
    }

    public String name() {
        return name;
    }

    public Scope scope() {
        return scope;
    }

    public Set<String> nics() {
        return nics;
    }

    public boolean mayActFor(String nic) {
        return scope == Scope.AGENT && nics.contains(nic);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Caller && Objects.equals(name, ((Caller) o).name) && scope == ((Caller) o).scope
                && nics.equals(((Caller) o).nics);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, scope, nics);
    }

    @Override
    public String toString() {
        return "Caller[name=" + name + ", scope=" + scope + ", nics=" + nics + "]";
    }
}
