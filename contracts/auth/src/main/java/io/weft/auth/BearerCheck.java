package io.weft.auth;

import java.util.Objects;

/**
 * The one decision every Weft HTTP door makes before it serves a request, apart from the server
 * that carries it: 401 without a known bearer token, 403 when the token's scope does not cover the
 * request, else the authenticated {@link Caller}. Messages name the token, never its value, so they
 * are safe to return and to log.
 */
public final class BearerCheck {
    private static final String PREFIX = "Bearer ";

    /** Which scopes may make one request. */
    @FunctionalInterface
    public interface Policy {
        /** Null when {@code caller} may make the request, else why not (it names no token value). */
        String deny(String method, String path, Caller caller);
    }

    /**
     * The answer for one request.
     *
     * @param status          0 when allowed, else 401 or 403
     * @param caller          the authenticated caller when allowed (null for an open read)
     * @param message         why not, when refused
     * @param wwwAuthenticate the {@code WWW-Authenticate} header of a 401, else null
     */
    public static final class Decision {
        private final int status;
        private final Caller caller;
        private final String message;
        private final String wwwAuthenticate;

        public Decision(int status, Caller caller, String message, String wwwAuthenticate) {
            this.status = status;
            this.caller = caller;
            this.message = message;
            this.wwwAuthenticate = wwwAuthenticate;
        }

        public int status() {
            return status;
        }

        public Caller caller() {
            return caller;
        }

        public String message() {
            return message;
        }

        public String wwwAuthenticate() {
            return wwwAuthenticate;
        }

        public boolean allowed() {
            return status == 0;
        }

        @Override
        public String toString() {
            return "Decision[status=" + status + ", caller=" + caller + ", message=" + message + "]";
        }

        static Decision allow(Caller caller) {
            return new Decision(0, caller, null, null);
        }
    }

    private final TokenStore tokens;
    private final Policy policy;

    public BearerCheck(TokenStore tokens, Policy policy) {
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    /** A request that needs no token (an open read, health) is allowed with no caller. */
    public static Decision open() {
        return Decision.allow(null);
    }

    /**
     * @param authorization the request's {@code Authorization} header, or null
     */
    public Decision check(String method, String path, String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return new Decision(401, null, "a bearer token is required", "Bearer");
        }
        Caller caller = tokens.lookup(authorization.substring(PREFIX.length()).trim()).orElse(null);
        if (caller == null) {
            return new Decision(401, null, "unknown bearer token", "Bearer error=\"invalid_token\"");
        }
        String denied = policy.deny(method, path, caller);
        return denied == null ? Decision.allow(caller) : new Decision(403, caller, denied, null);
    }

    /** GET and HEAD: what {@link ReadAccess#OPEN} leaves open. */
    public static boolean isRead(String method) {
        return "GET".equals(method) || "HEAD".equals(method);
    }

    /** The usual 403 text: what the token is and what the request needs. */
    public static String refuse(Caller caller, String needed) {
        return "token '" + caller.name() + "' has scope " + caller.scope().jsonName() + "; this needs " + needed;
    }
}
