package io.weft.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.Test;

/** One good and a few bad values per topic schema, so that a too-loose or too-tight schema shows. */
class ValueSchemasTest {

    @Test
    void snapshotRefsResolveIntoTheFabricSchema() {
        ObjectNode snapshot = snapshot();
        assertThat(errorsOutsidePlan(snapshot)).isEmpty();

        ((ObjectNode) snapshot.get("fabric")).remove("links");
        assertThat(errorsOutsidePlan(snapshot)).anySatisfy(l -> assertThat(l).startsWith("$.fabric"));
    }

    @Test
    void snapshotRefResolvesIntoThePlanSchema() {
        ObjectNode snapshot = snapshot();
        snapshot.put("plan", "not a plan");
        assertThat(errors("schemas/fabric-snapshot.schema.json", snapshot)).contains("$.plan");
    }

    @Test
    void snapshotRejectsUnknownLinkStatesAndAMissingVersion() {
        ObjectNode snapshot = snapshot();
        ((ObjectNode) snapshot.get("linkStates")).put("leaf1-spine1", "flapping");
        assertThat(errorsOutsidePlan(snapshot)).contains("$.linkStates['leaf1-spine1']");

        ObjectNode noVersion = snapshot();
        noVersion.remove("version");
        assertThat(errorsOutsidePlan(noVersion)).contains("$");
    }

    @Test
    void hotspotEvents() {
        ObjectNode e = obj("{\"schemaVersion\":1,\"eventId\":\"5f0c1a9e-8d1b-4d43-9a43-3c1e0f7f0a11\","
                + "\"kind\":\"hotspot-start\",\"linkId\":\"leaf1-spine1\",\"direction\":\"spine1\","
                + "\"sampleTimestampNs\":\"1700000000123456789\",\"detectedAt\":\"2026-11-21T12:00:00.125Z\","
                + "\"utilisation\":0.93,\"dropRate\":0.001,\"ecnFraction\":0.2,\"threshold\":0.85}");
        assertThat(errors("schemas/hotspot-event.schema.json", e)).isEmpty();
        e.putNull("utilisation").putNull("dropRate").putNull("ecnFraction").putNull("threshold")
                .put("kind", "link-down");
        assertThat(errors("schemas/hotspot-event.schema.json", e)).isEmpty();
        e.put("kind", "warm");
        assertThat(errors("schemas/hotspot-event.schema.json", e)).contains("$.kind");
        e.put("kind", "link-up").put("sampleTimestampNs", 1700000000123456789L);
        assertThat(errors("schemas/hotspot-event.schema.json", e)).contains("$.sampleTimestampNs");
    }

    @Test
    void linkLoad() {
        ObjectNode l = obj("{\"schemaVersion\":1,\"fabricId\":\"ls-2x2\",\"linkId\":\"leaf1-spine1\","
                + "\"toNode\":\"spine1\",\"timestampNs\":\"1700000000123456789\",\"rateGbps\":212.5,"
                + "\"capacityGbps\":400,\"utilisation\":0.53,\"dropRate\":null,\"ecnFraction\":0,"
                + "\"operStatus\":\"UP\",\"hot\":false}");
        assertThat(errors("schemas/link-load.schema.json", l)).isEmpty();
        l.put("dropRate", 1.5);
        assertThat(errors("schemas/link-load.schema.json", l)).contains("$.dropRate");
        l.put("dropRate", 0).put("extra", 1);
        assertThat(errors("schemas/link-load.schema.json", l)).contains("$");
    }

    @Test
    void flowReportsCarryEitherAnEvOrACarrier() {
        String flow = "{\"flowId\":\"j1-f0\",\"jobId\":\"j1\",\"dstNic\":\"nic3\",%s\"bytes\":\"18446744073709551615\","
                + "\"rateGbps\":390.5,\"ecnMarked\":\"12\",\"cnpCount\":\"3\",\"rttUs\":8.5,\"drops\":\"0\"}";
        String report = "{\"schemaVersion\":1,\"nic\":\"nic1\",\"timestampNs\":\"1700000000123456789\",\"flows\":[%s]}";
        String ev = String.format(report, String.format(flow, "\"ev\":49920,"));
        String carrier = String.format(report, String.format(flow, "\"carrier\":\"fcbb:bb00:1:12:2:e000::\","));
        String both = String.format(report, String.format(flow, "\"ev\":49920,\"carrier\":\"fcbb:bb00:1::\","));
        String neither = String.format(report, String.format(flow, ""));
        String bigEv = String.format(report, String.format(flow, "\"ev\":65536,"));
        assertThat(errors("schemas/flow-report.schema.json", SchemaSupport.parse(ev))).isEmpty();
        assertThat(errors("schemas/flow-report.schema.json", SchemaSupport.parse(carrier))).isEmpty();
        assertThat(errors("schemas/flow-report.schema.json", SchemaSupport.parse(both))).contains("$.flows[0]");
        assertThat(errors("schemas/flow-report.schema.json", SchemaSupport.parse(neither))).contains("$.flows[0]");
        assertThat(errors("schemas/flow-report.schema.json", SchemaSupport.parse(bigEv))).contains("$.flows[0].ev");
    }

    @Test
    void deadLetters() {
        ObjectNode d = obj("{\"schemaVersion\":1,\"sourceTopic\":\"weft.telemetry.interfaces\",\"partition\":3,"
                + "\"offset\":42,\"key\":\"leaf1\",\"error\":\"bad-counter\","
                + "\"detail\":\"values./interfaces/interface/state/counters/in-octets: -1 is not a uint64\","
                + "\"receivedAt\":\"2026-11-21T12:00:00Z\",\"record\":\"{}\"}");
        assertThat(errors("schemas/deadletter.schema.json", d)).isEmpty();
        d.put("error", "oops");
        assertThat(errors("schemas/deadletter.schema.json", d)).contains("$.error");
    }

    private static ObjectNode snapshot() {
        ObjectNode s = SchemaSupport.MAPPER.createObjectNode();
        s.put("schemaVersion", 1).put("fabricId", "ls-2x2").put("version", 7)
                .put("generatedAt", "2026-11-21T12:00:00Z");
        JsonNode fabric = SchemaSupport.json("examples/leaf-spine-2x2.json");
        s.set("fabric", fabric);
        s.putObject("plan");
        ObjectNode states = s.putObject("linkStates");
        fabric.get("links").forEach(l -> states.put(l.get("id").asText(), "up"));
        states.put("leaf1-spine2", "drained");
        return s;
    }

    /** Instance locations of errors, ignoring the plan (its schema belongs to the plan's owner). */
    private static Set<String> errorsOutsidePlan(JsonNode snapshot) {
        return errors("schemas/fabric-snapshot.schema.json", snapshot).stream()
                .filter(l -> !l.startsWith("$.plan"))
                .collect(Collectors.toSet());
    }

    private static Set<String> errors(String schema, JsonNode value) {
        Set<ValidationMessage> errors = SchemaSupport.validate(schema, value);
        return errors.stream().map(e -> e.getInstanceLocation().toString()).collect(Collectors.toSet());
    }

    private static ObjectNode obj(String json) {
        return (ObjectNode) SchemaSupport.parse(json);
    }
}
