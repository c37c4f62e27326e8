package io.weft.devstack;

import java.util.Map;

/** One topic of the catalogue: what to create it with. Key and value formats are documented in contracts. */
public record TopicSpec(String name, int partitions, short replicationFactor, Map<String, String> config) {
    public TopicSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name: must be a non-empty string");
        }
        if (partitions < 1) {
            throw new IllegalArgumentException(name + ".partitions: must be >= 1, got " + partitions);
        }
        if (replicationFactor < 1) {
            throw new IllegalArgumentException(name + ".replicationFactor: must be >= 1, got " + replicationFactor);
        }
        config = Map.copyOf(config);
    }
}
