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

    private OsgiPropertyConstants() {
    }
}
