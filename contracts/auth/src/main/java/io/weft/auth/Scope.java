package io.weft.auth;

import java.util.Locale;

/** What a token may do. */
public enum Scope {
    /** AI job schedulers: submit, list, read and release jobs. */
    SCHEDULER,
    /** NIC agents: read paths of, and report for, the NICs the token is bound to. */
    AGENT,
    /** Operators: read everything, drain and undrain links. */
    OPERATOR;

    public static Scope parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("scope '" + text + "' is not one of scheduler, agent, operator");
        }
    }

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
