package io.weft.southbound.gnmi;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.gnmi.proto.Path;

/**
 * One subtree Weft owns on a switch: a replace op of the device intent.
 * {@link #key()} is the canonical path string the provisioner diffs by.
 */
public final class IntentOp {
    private final String key;
    private final Path path;
    private final JsonNode value;

    IntentOp(String key, Path path, JsonNode value) {
        this.key = key;
        this.path = path;
        this.value = value;
    }

    public String key() {
        return key;
    }

    public Path path() {
        return path;
    }

    public JsonNode value() {
        return value;
    }
}
