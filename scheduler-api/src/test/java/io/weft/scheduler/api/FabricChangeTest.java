package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import io.weft.contracts.LinkState;
import io.weft.contracts.Topics;
import io.weft.devstack.junit.DevstackExtension;
import io.weft.fabric.FabricJson;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.plan.SnapshotJson;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class FabricChangeTest extends ApiTestSupport {
    @Test
    void drainMovesFlowsOffTheLinkAndUndrainReopensIt() {
        JsonNode job = createRing("drain", 100, "nic1", "nic4");
        String id = job.get("id").asString();
        String spineLink = fabricLink(job.get("flows").get(0));

        long controllerVersion = get("/v1/fabric", OPERATOR).body().get("version").asLong();
        Reply drained = post("/v1/fabric/links/" + spineLink + "/drain", OPERATOR, "");
        assertThat(drained.status()).as(drained.raw().body()).isEqualTo(200);
        assertThat(drained.body().get("state").asString()).isEqualTo("drained");
        assertThat(drained.body().get("moved").asInt()).isGreaterThanOrEqualTo(1);
        // The controller owns the state: its snapshot version carries the drain, and the answer names the
        // flows that snapshot moved here.
        assertThat(drained.body().get("version").asLong()).isGreaterThan(controllerVersion);
        assertThat(drained.body().get("movedFlows").toString()).contains(job.get("flows").get(0).get("id").asString());
        assertThat(get("/v1/fabric", OPERATOR).body().get("version").asLong())
                .isGreaterThanOrEqualTo(drained.body().get("version").asLong());

        JsonNode after = get("/v1/jobs/" + id, SCHEDULER).body();
        for (JsonNode f : after.get("flows")) {
            assertThat(LinkIds.of(f)).doesNotContain(spineLink);
            assertThat(f.get("state").asString()).isEqualTo("GOOD");
        }
        assertThat(get("/v1/fabric", OPERATOR).body().get("linkStates").get(spineLink).asString()).isEqualTo("drained");
        assertThat(get("/v1/jobs/" + id + "/history", OPERATOR).body().toString()).contains("drain:" + spineLink);

        Reply again = post("/v1/fabric/links/" + spineLink + "/drain", OPERATOR, "");
        assertThat(again.body().get("moved").asInt()).as("draining a drained link moves nothing").isZero();
        assertThat(again.body().get("version").asLong()).isEqualTo(drained.body().get("version").asLong());

        Reply undrained = post("/v1/fabric/links/" + spineLink + "/undrain", OPERATOR, "");
        assertThat(undrained.body().get("state").asString()).isEqualTo("up");
        assertThat(get("/v1/fabric", OPERATOR).body().get("linkStates").get(spineLink).asString()).isEqualTo("up");
        assertThat(post("/v1/fabric/links/no-such-link/drain", OPERATOR, "").body().get("field").asString())
                .isEqualTo("id");
        delete("/v1/jobs/" + id, SCHEDULER);
    }

    @Test
    void linkDownInAFabricSnapshotReplacesTheFlowsCrossingIt() throws Exception {
        JsonNode job = createRing("link-down", 100, "nic2", "nic3");
        String id = job.get("id").asString();
        String down = fabricLink(job.get("flows").get(0));
        long nicVersion = get("/v1/agents/nic2/paths", AGENT_12).body().get("version").asLong();

        // The collector's link-down reaches the controller (the owner of link states) on weft.hotspots; its
        // listener joins asynchronously and starts at the topic's end, so the event is re-sent until seen.
        for (int i = 0; i < 200 && !linkState(down).equals("down"); i++) {
            hotspot("link-down", down);
            Thread.sleep(100);
        }

        JsonNode moved = null;
        for (int i = 0; i < 200 && moved == null; i++) {
            JsonNode j = get("/v1/jobs/" + id, SCHEDULER).body();
            if (!LinkIds.of(j.get("flows").get(0)).contains(down)) {
                moved = j;
            } else {
                Thread.sleep(50);
            }
        }
        assertThat(moved).as("flow left the down link " + down).isNotNull();
        for (JsonNode f : moved.get("flows")) {
            assertThat(LinkIds.of(f)).doesNotContain(down);
        }
        assertThat(get("/v1/jobs/" + id + "/history", OPERATOR).body().toString()).contains("link-down:" + down);
        assertThat(get("/v1/agents/nic2/paths?since=" + nicVersion + "&wait=5", AGENT_12).status()).isEqualTo(200);
        assertThat(get("/v1/fabric", OPERATOR).body().get("linkStates").get(down).asString()).isEqualTo("down");

        for (int i = 0; i < 200 && !linkState(down).equals("up"); i++) {
            hotspot("link-up", down);
            Thread.sleep(100);
        }
        assertThat(get("/v1/fabric", OPERATOR).body().get("linkStates").get(down).asString()).isEqualTo("up");
        delete("/v1/jobs/" + id, SCHEDULER);
    }

    @Test
    void aReplacedFabricIsInstalledThoughItsVersionsStartAgain() throws Exception {
        JsonNode job = createRing("new-fabric", 100, "nic1", "nic3");
        String id = job.get("id").asString();
        String down = fabricLink(job.get("flows").get(0));
        FabricPlan plan = Planner.plan(FabricJson.read(FABRIC), null);
        String oldId = plan.fabric().id();
        String newId = oldId + "-rebuilt";
        // The controller's current snapshot, published again at the end so that its next versions apply.
        JsonNode current = get("/v1/fabric", OPERATOR).body();
        long currentVersion = current.get("version").asLong();
        Map<String, LinkState> currentStates = new LinkedHashMap<>();
        current.get("linkStates").properties()
                .forEach(e -> currentStates.put(e.getKey(), LinkState.fromJson(e.getKey(), e.getValue().asString())));

        // The controller replaces the fabric: a new id whose versions restart at 1, far below the
        // versions of the old one, with one link down so that the placement visibly changes.
        Map<String, LinkState> states = new LinkedHashMap<>();
        plan.fabric().links().forEach(l -> states.put(l.id(), l.id().equals(down) ? LinkState.DOWN : LinkState.UP));
        try {
            replaceFabric(id, down, plan, newId, states);
        } finally {
            // Back to the controller's fabric (other tests share this service and place on it), even when
            // an assertion above failed: a fabric change again, at the version the controller last
            // published, so that its next snapshots are newer.
            send(oldId, SnapshotJson.toTree(plan, currentStates, currentVersion).toString());
            JsonNode back = awaitFabric(oldId);
            assertThat(back.get("linkStates").get(down).asString()).isEqualTo("up");
            delete("/v1/jobs/" + id, SCHEDULER);
        }
    }

    private void replaceFabric(String id, String down, FabricPlan plan, String newId, Map<String, LinkState> states)
            throws Exception {
        send(newId, renamed(plan, states, 1, newId));

        // A reader sees the new fabric only once the jobs' re-placement on it is committed.
        JsonNode fabric = awaitFabric(newId);
        assertThat(fabric.get("version").asLong()).isEqualTo(1);
        assertThat(fabric.get("linkStates").get(down).asString()).isEqualTo("down");
        JsonNode after = get("/v1/jobs/" + id, SCHEDULER).body();
        for (JsonNode f : after.get("flows")) {
            assertThat(f.get("state").asString()).isEqualTo("GOOD");
            assertThat(LinkIds.of(f)).doesNotContain(down);
        }
        assertThat(get("/v1/jobs/" + id + "/history", OPERATOR).body().toString()).contains("fabric-changed");

        // Within the new fabric versions still count: a stale v1 taking down the link the flow now
        // crosses is ignored (no move), and v2 after it is applied.
        String now = fabricLink(after.get("flows").get(0));
        Map<String, LinkState> staleStates = new LinkedHashMap<>(states);
        staleStates.put(now, LinkState.DOWN);
        send(newId, renamed(plan, staleStates, 1, newId));
        send(newId, renamed(plan, states, 2, newId));
        for (int i = 0; i < 200 && get("/v1/fabric", OPERATOR).body().get("version").asLong() != 2; i++) {
            Thread.sleep(50);
        }
        JsonNode v2 = get("/v1/fabric", OPERATOR).body();
        assertThat(v2.get("fabricId").asString()).isEqualTo(newId);
        assertThat(v2.get("version").asLong()).isEqualTo(2);
        assertThat(get("/v1/jobs/" + id + "/history", OPERATOR).body().toString()).doesNotContain("link-down:" + now);
    }

    /** A snapshot of the plan's fabric under another fabric id. */
    private static String renamed(FabricPlan plan, Map<String, LinkState> states, long version, String fabricId) {
        com.fasterxml.jackson.databind.node.ObjectNode tree = SnapshotJson.toTree(plan, states, version);
        tree.put("fabricId", fabricId);
        ((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("fabric")).put("id", fabricId);
        return tree.toString();
    }

    private JsonNode awaitFabric(String fabricId) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            JsonNode f = get("/v1/fabric", OPERATOR).body();
            if (f.get("fabricId").asString().equals(fabricId)) {
                return f;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("scheduler never placed on fabric " + fabricId);
    }

    /** The first leaf-spine link of a flow's path (the one a drain or failure should move it off). */
    private static String fabricLink(JsonNode flow) {
        for (String l : LinkIds.of(flow)) {
            if (l.contains("spine")) {
                return l;
            }
        }
        throw new AssertionError("flow crosses no spine: " + flow);
    }

    private String linkState(String link) {
        return get("/v1/fabric", OPERATOR).body().get("linkStates").get(link).asString();
    }

    /** A link-down or link-up event as the telemetry collector writes it (contracts/schemas/hotspot-event). */
    private static void hotspot(String kind, String linkId) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, DevstackExtension.endpoints().kafkaBootstrapServers());
        String event = FabricJson.mapper().createObjectNode().put("schemaVersion", 1)
                .put("eventId", UUID.randomUUID().toString()).put("kind", kind).put("linkId", linkId)
                .put("direction", "spine1").put("sampleTimestampNs", "1").put("detectedAt", "2026-01-01T00:00:00Z")
                .putNull("utilisation").putNull("dropRate").putNull("ecnFraction").putNull("threshold").toString();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(Topics.HOTSPOTS, linkId, event)).get();
        }
    }

    private static void send(String key, String value) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, DevstackExtension.endpoints().kafkaBootstrapServers());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(Topics.FABRIC, key, value)).get();
        }
    }

    static final class LinkIds {
        static java.util.List<String> of(JsonNode flow) {
            java.util.List<String> out = new java.util.ArrayList<>();
            flow.get("links").forEach(n -> out.add(n.asString()));
            return out;
        }
    }
}
