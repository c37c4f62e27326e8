package io.weft.controller.onos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.plan.Ipv6;

/**
 * Field checks shared by the netcfg classes. Each check appends one message naming the field
 * ("srv6NodeId: must be an integer in 1..57343") so that an operator sees every problem of a
 * config at once in the log, not just "invalid config".
 */
final class ConfigChecks {
    /** Fabric-file id syntax (contracts/fabric.schema.json $defs.id). */
    static final Pattern ID = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$");

    private ConfigChecks() {
    }

    static void onlyFields(JsonNode node, String at, Set<String> allowed, List<String> problems) {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!allowed.contains(name)) {
                problems.add(at + name + ": unknown field (allowed: " + String.join(", ", sorted(allowed)) + ")");
            }
        }
    }

    static void optionalInt(JsonNode node, String at, String field, long min, long max, List<String> problems) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return;
        }
        if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
            problems.add(at + field + ": must be an integer in " + min + ".." + max);
        }
    }

    static void optionalNumber(JsonNode node, String at, String field, List<String> problems) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return;
        }
        if (!v.isNumber() || v.asDouble() <= 0) {
            problems.add(at + field + ": must be a number > 0");
        }
    }

    static void optionalId(JsonNode node, String at, String field, List<String> problems) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return;
        }
        if (!v.isTextual() || !ID.matcher(v.asText()).matches()) {
            problems.add(at + field + ": must match " + ID.pattern());
        }
    }

    static void optionalIpv6(JsonNode node, String at, String field, List<String> problems) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return;
        }
        if (!v.isTextual() || !isIpv6(v.asText())) {
            problems.add(at + field + ": must be an IPv6 address without prefix length");
        }
    }

    /**
     * True for a syntactically valid IPv6 address (no zone, no prefix length, no embedded IPv4);
     * never resolves names. The core's parser, so netcfg accepts exactly what the planner does, and
     * the bundle needs no Guava from ONOS.
     */
    static boolean isIpv6(String s) {
        try {
            Ipv6.parse(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static List<String> sorted(Set<String> s) {
        List<String> l = new ArrayList<>(s);
        Collections.sort(l);
        return l;
    }
}
