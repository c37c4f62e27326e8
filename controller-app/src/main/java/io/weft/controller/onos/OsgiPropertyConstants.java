package io.weft.controller.onos;

/** Names and defaults of the component properties (ONOS convention: one place, name/default pairs). */
public final class OsgiPropertyConstants {
    /** Quiet time after an event before re-planning, so a burst of link events costs one plan. */
    public static final String REPLAN_DEBOUNCE_MS = "replanDebounceMs";
    public static final int REPLAN_DEBOUNCE_MS_DEFAULT = 200;

    private OsgiPropertyConstants() {
    }
}
