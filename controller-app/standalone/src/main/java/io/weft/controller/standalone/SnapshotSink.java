package io.weft.controller.standalone;

import com.fasterxml.jackson.databind.JsonNode;

/** Where snapshots go besides HTTP (Kafka's weft.fabric), and where the last one can be read back. */
interface SnapshotSink extends AutoCloseable {
    /** The latest snapshot published for {@code fabricId}, or null when there is none. */
    JsonNode latest(String fabricId) throws Exception;

    /** Publishes {@code json} keyed by {@code fabricId}; returns once it is stored, throws when it was not. */
    void publish(String fabricId, byte[] json) throws Exception;

    /** Human-readable destination, e.g. "weft.fabric on 127.0.0.1:19092". */
    String describe();

    @Override
    void close();
}
