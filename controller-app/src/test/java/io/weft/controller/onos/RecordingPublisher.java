package io.weft.controller.onos;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Records every snapshot it is asked to publish. Can be told to fail the next publishes (a broker
 * that is down) and to answer {@link #lastPublished} with a seed (what a previous owner wrote).
 */
class RecordingPublisher implements SnapshotPublisher {
    final List<ObjectNode> snapshots = new ArrayList<>();
    final List<Long> versions = new ArrayList<>();
    int failures;
    int attempts;
    ObjectNode seed;
    boolean closed;

    @Override
    public synchronized void publish(String fabricId, long version, ObjectNode snapshot) throws Exception {
        attempts++;
        if (failures > 0) {
            failures--;
            throw new IllegalStateException("broker down");
        }
        versions.add(version);
        snapshots.add(snapshot);
    }

    @Override
    public ObjectNode lastPublished(String fabricId) {
        return seed != null && seed.path("fabricId").asText().equals(fabricId) ? seed : null;
    }

    @Override
    public String describe() {
        return "a recording";
    }

    @Override
    public void close() {
        closed = true;
    }

    synchronized ObjectNode last() {
        return snapshots.get(snapshots.size() - 1);
    }
}
