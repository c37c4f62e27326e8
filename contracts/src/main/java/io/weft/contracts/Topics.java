package io.weft.contracts;

import java.util.List;

/**
 * The Kafka topic catalogue of contracts/topics.json as Java constants: the one place Java code
 * names a topic. The constants are compile-time constants on purpose: the ONOS bundle and other
 * Java 11 users inline them without loading this class. {@code TopicsTest} holds this list and the
 * JSON file equal in both directions.
 */
public final class Topics {
    /** Compacted fabric snapshots, keyed by fabric id. */
    public static final String FABRIC = "weft.fabric";
    /** gnmic events (interface and queue counters, oper-status), keyed by gnmic target. */
    public static final String TELEMETRY_INTERFACES = "weft.telemetry.interfaces";
    /** NIC flow reports ({@link FlowReport}), keyed by NIC id. */
    public static final String TELEMETRY_FLOWS = "weft.telemetry.flows";
    /** Hotspot and link down/up events ({@link HotspotEvent}), keyed by link id. */
    public static final String HOTSPOTS = "weft.hotspots";
    /** Compacted latest load per link direction ({@link LinkLoad}), keyed by {@link DirectionKey}. */
    public static final String LINKS_LOAD = "weft.links.load";
    /** Telemetry records the collector could not use. */
    public static final String TELEMETRY_DEADLETTER = "weft.telemetry.deadletter";

    private static final List<String> ALL = List.of(FABRIC, TELEMETRY_INTERFACES, TELEMETRY_FLOWS, HOTSPOTS,
            LINKS_LOAD, TELEMETRY_DEADLETTER);

    private Topics() {
    }

    /** Every topic of the catalogue, in the order of contracts/topics.json. */
    public static List<String> all() {
        return ALL;
    }
}
