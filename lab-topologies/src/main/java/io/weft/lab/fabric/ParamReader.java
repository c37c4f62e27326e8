package io.weft.lab.fabric;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads string parameters (from the command line) for one generator family. Each read marks the
 * name as known; {@link #finish()} then rejects any name nobody asked for, so a typo such as
 * {@code --leafs 4} fails instead of silently using the default.
 */
final class ParamReader {
    private final String family;
    private final Map<String, String> raw;
    private final Set<String> known = new TreeSet<>();

    ParamReader(String family, Map<String, String> raw) {
        this.family = family;
        this.raw = raw;
    }

    boolean has(String name) {
        known.add(name);
        return raw.containsKey(name);
    }

    String string(String name, String dflt) {
        known.add(name);
        return raw.getOrDefault(name, dflt);
    }

    int integer(String name, int dflt) {
        known.add(name);
        String v = raw.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": must be an integer (got \"" + v + "\")");
        }
    }

    long longInt(String name, long dflt) {
        known.add(name);
        String v = raw.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": must be an integer (got \"" + v + "\")");
        }
    }

    double number(String name, double dflt) {
        known.add(name);
        String v = raw.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": must be a number (got \"" + v + "\")");
        }
    }

    void finish() {
        for (String name : new TreeSet<>(raw.keySet())) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown parameter \"" + name + "\" for " + family
                        + " (known: " + String.join(", ", known) + ")");
            }
        }
    }
}
