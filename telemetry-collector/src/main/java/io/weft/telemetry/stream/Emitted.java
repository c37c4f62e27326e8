package io.weft.telemetry.stream;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** What the link processor emits: a record for one of the output topics, with its key. */
public sealed interface Emitted permits HotspotEvent, LinkLoad {
    String key();

    /** Writes the contract JSON object (streamed: this runs once per sample). */
    void write(JsonGenerator g) throws IOException;

    /** The contract JSON as UTF-8 bytes. */
    default byte[] toJsonBytes() {
        return Json.bytes(this::write);
    }

    /** The contract JSON as a tree (tests, logs). */
    default ObjectNode toTree() {
        return Json.tree(toJsonBytes());
    }
}
