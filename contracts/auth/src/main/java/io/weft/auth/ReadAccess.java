package io.weft.auth;

import java.util.Locale;

/**
 * Whether a service's read endpoints need a token. State-changing endpoints always do. {@code open}
 * suits a loopback demo; a deployment reachable by others sets {@code token}.
 */
public enum ReadAccess {
    /** GET and HEAD are served to anyone who can reach the port. */
    OPEN,
    /** GET and HEAD need a known token of a scope allowed to read. */
    TOKEN;

    public static ReadAccess parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        switch (t) {
            case "open":
                return OPEN;
            case "token":
                return TOKEN;
            default:
                throw new IllegalArgumentException("reads: must be open or token, got '" + text + "'");
        }
    }

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
