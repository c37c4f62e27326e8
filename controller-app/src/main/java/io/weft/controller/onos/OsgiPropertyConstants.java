package io.weft.controller.onos;

/** Names and defaults of the component properties (ONOS convention: one place, name/default pairs). */
public final class OsgiPropertyConstants {
    /** Quiet time after an event before re-planning, so a burst of link events costs one plan. */
    public static final String REPLAN_DEBOUNCE_MS = "replanDebounceMs";
    public static final int REPLAN_DEBOUNCE_MS_DEFAULT = 200;

    /** Kafka bootstrap servers for the weft.fabric topic; empty: snapshots are only logged. */
    public static final String KAFKA_BOOTSTRAP = "kafkaBootstrap";
    public static final String KAFKA_BOOTSTRAP_DEFAULT = "";

    /** Wait before publishing again a snapshot that did not reach Kafka. */
    public static final String PUBLISH_RETRY_MS = "publishRetryMs";
    public static final int PUBLISH_RETRY_MS_DEFAULT = 5000;

    /** Deadline of every gNMI Capabilities, Get and Set (a dead switch holds one worker this long). */
    public static final String GNMI_TIMEOUT_MS = "gnmiTimeoutMs";
    public static final int GNMI_TIMEOUT_MS_DEFAULT = 5000;

    /** Every switch is read back this often; what drifted (a restart with an empty config) is pushed again. */
    public static final String GNMI_RESYNC_MS = "gnmiResyncMs";
    public static final int GNMI_RESYNC_MS_DEFAULT = 30000;

    /** Switches synced at once. */
    public static final String GNMI_MAX_IN_FLIGHT = "gnmiMaxInFlight";
    public static final int GNMI_MAX_IN_FLIGHT_DEFAULT = 16;

    private OsgiPropertyConstants() {
    }
}
