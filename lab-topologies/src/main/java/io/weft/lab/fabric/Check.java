package io.weft.lab.fabric;

/** Parameter checks shared by the generators' params records; messages name the parameter. */
final class Check {
    private Check() {
    }

    static int atLeast(String field, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(field + ": must be >= " + min + " (got " + value + ")");
        }
        return value;
    }

    static int between(String field, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(field + ": must be in " + min + ".." + max + " (got " + value + ")");
        }
        return value;
    }

    static double positive(String field, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(field + ": must be a positive number (got " + value + ")");
        }
        return value;
    }

    static long notNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + ": must be >= 0 (got " + value + ")");
        }
        return value;
    }

    /** Generated fabrics are meant to be read by people and tools; refuse sizes no lab or test needs. */
    static final long MAX_NODES = 200_000;

    static void size(String family, long nodes) {
        if (nodes > MAX_NODES) {
            throw new IllegalArgumentException(family + ": parameters give " + nodes
                    + " nodes (max " + MAX_NODES + ")");
        }
    }

    static String id(String field, String value) {
        if (value == null || !value.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,127}")) {
            throw new IllegalArgumentException(field + ": must be 1-128 letters, digits, '.', '_' or '-' "
                    + "starting with a letter or digit (got \"" + value + "\")");
        }
        return value;
    }
}
