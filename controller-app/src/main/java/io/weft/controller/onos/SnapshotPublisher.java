package io.weft.controller.onos;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Where a new fabric snapshot (contract weft.fabric) goes: {@link LoggingSnapshotPublisher} when
 * no Kafka is configured, {@link KafkaSnapshotPublisher} (compacted topic weft.fabric keyed by
 * fabric id, as the standalone controller does) when {@code kafkaBootstrap} is set.
 */
public interface SnapshotPublisher extends AutoCloseable {
    /**
     * Called on the planning thread with each new snapshot, versions strictly increasing.
     * Throws when the snapshot may not have reached its destination (the caller retries).
     */
    void publish(String fabricId, long version, ObjectNode snapshot) throws Exception;

    /**
     * The last snapshot published for this fabric by anyone (e.g. the previous plan owner), or
     * null when unknown; seeds a new plan owner so that SIDs and versions carry on.
     */
    default ObjectNode lastPublished(String fabricId) throws Exception {
        return null;
    }

    /** Where snapshots go, for log lines. */
    String describe();

    @Override
    default void close() {
    }
}
