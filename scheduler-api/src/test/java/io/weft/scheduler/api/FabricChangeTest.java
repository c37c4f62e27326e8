package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

import io.weft.contracts.LinkState;
import io.weft.contracts.Topics;
import io.weft.devstack.junit.DevstackExtension;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;
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
    private static final AtomicLong SNAPSHOT_VERSION = new AtomicLong(System.currentTimeMillis());

    @Test
    void drainMovesFlowsOffTheLinkAndUndrainReopensIt() {
        JsonNode job = createRing("drain", 100, "nic1", "nic4");
        String id = job.get("id").asString();
        String spineLink = fabricLink(job.get("flows").get(0));

        Reply drained = post("/v1/fabric/links/" + spineLink + "/drain", OPERATOR, "");
        assertThat(drained.status()).isEqualTo(200);
        assertThat(drained.body().get("state").asString()).isEqualTo("drained");
        assertThat(drained.body().get("moved").asInt()).isGreaterThanOrEqualTo(1);

        JsonNode after = get("/v1/jobs/" + id, SCHEDULER).body();
        for (JsonNode f : after.get("flows")) {
            assertThat(LinkIds.of(f)).doesNotContain(spineLink);
            assertThat(f.get("state").asString()).isEqualTo("GOOD");
        }
        assertThat(get("/v1/fabric", OPERATOR).body().get("linkStates").get(spineLink).asString()).isEqualTo("drained");
        assertThat(get("/v1/jobs/" + id + "/history", OPERATOR).body().toString()).contains("drain:" + spineLink);

        Reply undrained = post("/v1/fabric/links/" + spineLink + "/undrain", OPERATOR, "");
        assertThat(undrained.body().get("state").asString()).isEqualTo("up");
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

        FabricPlan plan = Planner.plan(FabricJson.read(FABRIC), null);
        Map<String, LinkState> states = new LinkedHashMap<>();
        for (Link l : plan.fabric().links()) {
            states.put(l.id(), l.id().equals(down) ? LinkState.DOWN : LinkState.UP);
        }
        publish(plan, states);

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

        states.replaceAll((k, v) -> LinkState.UP);
        publish(plan, states);
        for (int i = 0; i < 200; i++) {
            if (get("/v1/fabric", OPERATOR).body().get("linkStates").get(down).asString().equals("up")) {
                break;
            }
            Thread.sleep(50);
        }
        assertThat(get("/v1/fabric", OPERATOR).body().get("linkStates").get(down).asString()).isEqualTo("up");
        delete("/v1/jobs/" + id, SCHEDULER);
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

    private static void publish(FabricPlan plan, Map<String, LinkState> states) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, DevstackExtension.endpoints().kafkaBootstrapServers());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
                new StringSerializer())) {
            String value = SnapshotJson.toTree(plan, states, SNAPSHOT_VERSION.incrementAndGet()).toString();
            producer.send(new ProducerRecord<>(Topics.FABRIC, plan.fabric().id(), value)).get();
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
