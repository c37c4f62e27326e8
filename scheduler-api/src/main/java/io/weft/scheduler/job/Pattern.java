package io.weft.scheduler.job;

import com.fasterxml.jackson.annotation.JsonValue;

/** How a job's flows follow from its endpoint list (or are listed outright). */
public enum Pattern {
    RING("ring"),
    /** Recursive halving-doubling (butterfly). */
    TREE("tree"),
    ALL_TO_ALL("all-to-all"),
    PIPELINE("pipeline"),
    EXPLICIT("explicit");

    private final String jsonName;

    Pattern(String jsonName) {
        this.jsonName = jsonName;
    }

    @JsonValue
    public String jsonName() {
        return jsonName;
    }

    public static Pattern fromJson(String s) {
        for (Pattern p : values()) {
            if (p.jsonName.equals(s)) {
                return p;
            }
        }
        throw new IllegalArgumentException(s);
    }

    @Override
    public String toString() {
        return jsonName;
    }
}
