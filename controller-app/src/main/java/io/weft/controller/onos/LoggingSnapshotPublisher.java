package io.weft.controller.onos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs a one-line summary of each snapshot (no Kafka configured); the CLI reads the plan itself. */
public final class LoggingSnapshotPublisher implements SnapshotPublisher {
    private final Logger log = LoggerFactory.getLogger(getClass());

    @Override
    public void publish(String fabricId, long version, ObjectNode snapshot) {
        log.info("Fabric {} snapshot v{}: {} nodes, {} links (not published: kafkaBootstrap is not set)",
                fabricId, version, snapshot.path("fabric").path("nodes").size(),
                snapshot.path("fabric").path("links").size());
    }

    @Override
    public String describe() {
        return "the ONOS log";
    }
}
