package io.weft.controller.onos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs a one-line summary of each snapshot and keeps the latest one for the CLI. */
public final class LoggingSnapshotPublisher implements SnapshotPublisher {
    private final Logger log = LoggerFactory.getLogger(getClass());
    private volatile ObjectNode latest;

    @Override
    public void publish(String fabricId, long version, ObjectNode snapshot) {
        latest = snapshot;
        log.info("Fabric {} snapshot v{}: {} nodes, {} links", fabricId, version,
                snapshot.path("fabric").path("nodes").size(), snapshot.path("fabric").path("links").size());
    }

    /** The last snapshot published, or null. */
    public ObjectNode latest() {
        return latest;
    }
}
