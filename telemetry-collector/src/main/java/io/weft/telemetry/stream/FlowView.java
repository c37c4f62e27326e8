package io.weft.telemetry.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The latest state of one NIC flow (per flow and EV or carrier), built from successive reports of
 * weft.telemetry.flows: the report's own fields plus the ECN-mark and CNP rates since the previous
 * report of the same flow (null on its first report, or when a counter went backwards: the flow was
 * restarted). Stored as JSON in the {@code nic-flows} store, key {@code "<nic> <flowId>"} (ids never
 * contain a space).
 */
final class FlowView {
    private FlowView() {
    }

    static String key(String nic, String flowId) {
        return nic + ' ' + flowId;
    }

    /** The view of {@code flow} (an item of a checked report) given the previous view, or null. */
    static ObjectNode of(String nic, long reportNs, JsonNode flow, JsonNode previous) {
        ObjectNode v = Json.MAPPER.createObjectNode();
        v.put("nic", nic);
        v.put("flowId", flow.get("flowId").asText());
        v.set("jobId", flow.has("jobId") ? flow.get("jobId") : Json.MAPPER.nullNode());
        v.put("dstNic", flow.get("dstNic").asText());
        if (flow.has("ev")) {
            v.put("ev", flow.get("ev").asInt());
        } else {
            v.put("carrier", flow.get("carrier").asText());
        }
        v.put("timestampNs", Long.toUnsignedString(reportNs));
        v.put("rateGbps", flow.get("rateGbps").asDouble());
        for (String c : new String[] {"bytes", "ecnMarked", "cnpCount", "drops"}) {
            v.put(c, flow.get(c).asText());
        }
        v.set("rttUs", flow.has("rttUs") ? flow.get("rttUs") : Json.MAPPER.nullNode());
        v.set("ecnMarkedPerS", perSecond(previous, "ecnMarked", flow, reportNs));
        v.set("cnpPerS", perSecond(previous, "cnpCount", flow, reportNs));
        return v;
    }

    private static JsonNode perSecond(JsonNode previous, String counter, JsonNode flow, long reportNs) {
        if (previous == null) {
            return Json.MAPPER.nullNode();
        }
        long dtNs = reportNs - Long.parseUnsignedLong(previous.get("timestampNs").asText());
        long before = Long.parseUnsignedLong(previous.get(counter).asText());
        long now = Long.parseUnsignedLong(flow.get(counter).asText());
        if (dtNs <= 0 || Long.compareUnsigned(now, before) < 0) {
            return Json.MAPPER.nullNode();
        }
        return Json.MAPPER.getNodeFactory().numberNode((now - before) * 1e9 / dtNs);
    }
}
