package io.weft.controller.onos;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Where a new fabric snapshot (contract weft.fabric) goes. The in-ONOS implementation logs and
 * keeps it ({@link LoggingSnapshotPublisher}); a Kafka publisher (compacted topic keyed by fabric
 * id, as the standalone controller does) is not built for ONOS yet: it needs kafka-clients
 * embedded in the bundle.
 */
public interface SnapshotPublisher {
    /** Called on the planning thread with each new snapshot, versions strictly increasing. */
    void publish(String fabricId, long version, ObjectNode snapshot);
}
