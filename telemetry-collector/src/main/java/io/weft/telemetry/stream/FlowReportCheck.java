package io.weft.telemetry.stream;

import java.math.BigInteger;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The checks of contracts/schemas/flow-report.schema.json that matter to a consumer, by hand (no
 * schema validator on the hot path): required fields, uint64 decimal strings, exactly one of ev /
 * carrier, EV in 0..65535. Messages name the field, JSON-path style.
 */
final class FlowReportCheck {
    private static final Pattern UINT64 = Pattern.compile("0|[1-9][0-9]{0,19}");
    /** {@code rejected} (what the agent refused to apply) is allowed by the contract and not read here. */
    private static final Set<String> REPORT_FIELDS = Set.of("schemaVersion", "nic", "timestampNs", "flows",
            "rejected");
    private static final Set<String> FLOW_FIELDS = Set.of("flowId", "jobId", "dstNic", "ev", "carrier", "bytes",
            "rateGbps", "ecnMarked", "cnpCount", "rttUs", "drops");

    private FlowReportCheck() {
    }

    /** @return the number of flows in the report; throws IllegalArgumentException naming the bad field */
    static int check(JsonNode r) {
        if (r == null || !r.isObject()) {
            throw new IllegalArgumentException("$: a flow report must be a JSON object");
        }
        unknown(r, REPORT_FIELDS, "$");
        if (r.path("schemaVersion").asInt(-1) != 1 || !r.path("schemaVersion").isInt()) {
            throw new IllegalArgumentException("$.schemaVersion: must be 1");
        }
        text(r, "nic", "$");
        uint64(r, "timestampNs", "$");
        JsonNode flows = r.get("flows");
        if (flows == null || !flows.isArray()) {
            throw new IllegalArgumentException("$.flows: required, an array");
        }
        for (int i = 0; i < flows.size(); i++) {
            String at = "$.flows[" + i + "]";
            JsonNode f = flows.get(i);
            if (!f.isObject()) {
                throw new IllegalArgumentException(at + ": must be an object");
            }
            unknown(f, FLOW_FIELDS, at);
            text(f, "flowId", at);
            text(f, "dstNic", at);
            for (String c : new String[] {"bytes", "ecnMarked", "cnpCount", "drops"}) {
                uint64(f, c, at);
            }
            JsonNode rate = f.get("rateGbps");
            if (rate == null || !rate.isNumber() || rate.asDouble() < 0) {
                throw new IllegalArgumentException(at + ".rateGbps: required, a number >= 0");
            }
            boolean ev = f.has("ev");
            if (ev == f.has("carrier")) {
                throw new IllegalArgumentException(at + ": exactly one of ev and carrier is required");
            }
            if (ev && (!f.get("ev").isInt() || f.get("ev").asInt() < 0 || f.get("ev").asInt() > 65535)) {
                throw new IllegalArgumentException(at + ".ev: must be an integer in 0..65535");
            }
            if (!ev && !f.get("carrier").isTextual()) {
                throw new IllegalArgumentException(at + ".carrier: must be an IPv6 address string");
            }
        }
        return flows.size();
    }

    private static void unknown(JsonNode o, Set<String> known, String at) {
        o.fieldNames().forEachRemaining(n -> {
            if (!known.contains(n)) {
                throw new IllegalArgumentException(at + "." + n + ": unknown field");
            }
        });
    }

    private static void text(JsonNode o, String field, String at) {
        JsonNode v = o.get(field);
        if (v == null || !v.isTextual() || v.asText().isEmpty()) {
            throw new IllegalArgumentException(at + "." + field + ": required, a non-empty string");
        }
    }

    private static void uint64(JsonNode o, String field, String at) {
        JsonNode v = o.get(field);
        if (v == null || !v.isTextual() || !UINT64.matcher(v.asText()).matches()
                || new BigInteger(v.asText()).bitLength() > 64) {
            throw new IllegalArgumentException(at + "." + field + ": required, a uint64 as a decimal string");
        }
    }
}
