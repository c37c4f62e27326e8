package io.weft.controller.standalone;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.plan.FabricPlan;

/**
 * One published fabric snapshot.
 *
 * @param fabricId the Kafka key
 * @param version  monotonic per fabric, across controller restarts
 * @param fabric   the fabric part of the snapshot, to tell a real edit from a touched file
 * @param plan     the plan, the "previous" of the next re-plan
 * @param json     the snapshot as served and published (UTF-8 JSON, contracts fabric-snapshot schema)
 */
record Snapshot(String fabricId, long version, JsonNode fabric, FabricPlan plan, byte[] json) {
}
