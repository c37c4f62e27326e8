package io.weft.telemetry.stream;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** What the link processor emits: a record for one of the output topics, with its key. */
public sealed interface Emitted permits HotspotEvent, LinkLoad {
    String key();

    ObjectNode toTree();
}
