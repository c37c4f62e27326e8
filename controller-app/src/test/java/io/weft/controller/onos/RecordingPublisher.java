package io.weft.controller.onos;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/** Records every snapshot it is asked to publish. */
class RecordingPublisher implements SnapshotPublisher {
    final List<ObjectNode> snapshots = new ArrayList<>();
    final List<Long> versions = new ArrayList<>();

    @Override
    public synchronized void publish(String fabricId, long version, ObjectNode snapshot) {
        versions.add(version);
        snapshots.add(snapshot);
    }

    synchronized ObjectNode last() {
        return snapshots.get(snapshots.size() - 1);
    }
}
