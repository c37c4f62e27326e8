package io.weft.controller.standalone;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.fabric.FabricJson;

/** A SnapshotSink in memory: records every publish; can be told to fail like an unreachable broker. */
final class RecordingSink implements SnapshotSink {
    final List<JsonNode> published = new ArrayList<>();
    final Map<String, JsonNode> latest = new LinkedHashMap<>();
    boolean failing;
    boolean closed;

    @Override
    public JsonNode latest(String fabricId) {
        return latest.get(fabricId);
    }

    @Override
    public void publish(String fabricId, byte[] json) throws Exception {
        if (failing) {
            throw new org.apache.kafka.common.errors.TimeoutException("broker unreachable");
        }
        JsonNode tree = FabricJson.mapper().readTree(json);
        published.add(tree);
        latest.put(fabricId, tree);
    }

    @Override
    public String describe() {
        return "memory";
    }

    @Override
    public void close() {
        closed = true;
    }
}
