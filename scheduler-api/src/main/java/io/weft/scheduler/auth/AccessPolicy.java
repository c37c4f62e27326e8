package io.weft.scheduler.auth;

import java.util.EnumSet;
import java.util.Set;

import io.weft.auth.Caller;
import io.weft.auth.Scope;

/**
 * Who may call what, in one place so that it can be read (and tested) at a glance. Paths outside
 * {@code /v1/} (health, metrics, the OpenAPI document) need no token.
 *
 * <pre>
 *   /v1/jobs/**                 GET: scheduler, operator    POST/DELETE: scheduler
 *   /v1/agents/{nic}/**         agent bound to {nic}; operator may GET (read all)
 *   /v1/fabric/**               GET: scheduler, operator    POST (drain/undrain/respread): operator
 *   /v1/events                  GET: scheduler, operator
 * </pre>
 */
public final class AccessPolicy {
    private static final Set<Scope> READERS = EnumSet.of(Scope.SCHEDULER, Scope.OPERATOR);

    private AccessPolicy() {
    }

    public static boolean needsToken(String path) {
        return path.startsWith("/v1/") || path.equals("/v1");
    }

    /** Null when allowed, else the reason for a 403 (it names the token, never its value). */
    public static String deny(String method, String path, Caller caller) {
        boolean read = "GET".equals(method) || "HEAD".equals(method);
        String[] seg = path.substring(1).split("/");
        String area = seg.length > 1 ? seg[1] : "";
        switch (area) {
            case "jobs":
                if (read ? READERS.contains(caller.scope()) : caller.scope() == Scope.SCHEDULER) {
                    return null;
                }
                return refuse(caller, read ? "scheduler or operator" : "scheduler");
            case "agents":
                String nic = seg.length > 2 ? seg[2] : "";
                if (caller.mayActFor(nic) || (read && caller.scope() == Scope.OPERATOR)) {
                    return null;
                }
                if (caller.scope() == Scope.AGENT) {
                    return "token '" + caller.name() + "' is not bound to NIC '" + nic + "'";
                }
                return refuse(caller, read ? "agent or operator" : "agent");
            case "fabric":
                if (read ? READERS.contains(caller.scope()) : caller.scope() == Scope.OPERATOR) {
                    return null;
                }
                return refuse(caller, read ? "scheduler or operator" : "operator");
            case "events":
                return READERS.contains(caller.scope()) ? null : refuse(caller, "scheduler or operator");
            default:
                return null;
        }
    }

    private static String refuse(Caller caller, String needed) {
        return io.weft.auth.BearerCheck.refuse(caller, needed);
    }
}
