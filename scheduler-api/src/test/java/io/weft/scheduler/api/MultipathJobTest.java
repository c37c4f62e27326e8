package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The multipath job option through the API. On the 2x2 example every NIC has a full uplink's worth
 * of spine capacity, so one path per flow always reaches the NIC bound and the planner keeps it
 * (spreading itself is shown on an oversubscribed fabric in {@code MultipathPlacementTest}); what
 * holds here for any answer: the planner's summary is stored and served, every flow's shares sum to
 * 1 and carry its demand, and each NIC's profile has one entry per path weighted by its share.
 */
class MultipathJobTest extends ApiTestSupport {
    static final String FLOWS = "\"pattern\":\"explicit\",\"flows\":["
            + "{\"src\":\"nic1\",\"dst\":\"nic3\",\"demandGbps\":100},"
            + "{\"src\":\"nic2\",\"dst\":\"nic4\",\"demandGbps\":100}]";

    @Test
    void aMultipathJobCarriesThePlannersAnswerAndWeightedEntries() {
        Reply r = post("/v1/jobs", SCHEDULER, "{\"name\":\"mp\"," + FLOWS
                + ",\"multipath\":{\"maxPaths\":4,\"granularity\":8}}");
        assertThat(r.status()).as(r.raw().body()).isEqualTo(201);
        JsonNode job = r.body();
        String id = job.get("id").asString();
        JsonNode mp = job.get("multipath");
        assertThat(mp.get("maxPaths").asInt()).isEqualTo(4);
        assertThat(mp.get("granularity").asInt()).isEqualTo(8);
        assertThat(mp.get("maxPathsPerFlow").asInt()).isBetween(1, 4);
        assertThat(mp.get("maxLoad").asDouble()).isLessThanOrEqualTo(mp.get("singlePathMaxLoad").asDouble() + 1e-9);
        assertThat(mp.get("lowerBound").asDouble()).isLessThanOrEqualTo(mp.get("maxLoad").asDouble() + 1e-9);
        assertThat(mp.get("granularBound").asDouble()).isBetween(mp.get("lowerBound").asDouble(),
                mp.get("maxLoad").asDouble() + 1e-9);

        Map<Integer, Double> weight = new HashMap<>();
        Map<Integer, Double> demand = new HashMap<>();
        for (JsonNode f : job.get("flows")) {
            assertThat(f.get("state").asString()).isEqualTo("GOOD");
            int k = f.get("index").asInt();
            weight.merge(k, f.has("weight") ? f.get("weight").asDouble() : 1.0, Double::sum);
            demand.merge(k, f.get("demandGbps").asDouble(), Double::sum);
        }
        assertThat(weight).containsOnlyKeys(0, 1);
        weight.values().forEach(w -> assertThat(w).isCloseTo(1.0, within(1e-12)));
        demand.values().forEach(d -> assertThat(d).isCloseTo(100.0, within(1e-9)));
        assertThat(get("/v1/jobs/" + id, SCHEDULER).body()).isEqualTo(job);

        // nic1's profile: one entry per path of its flow to nic3, each weighted by its demand share.
        List<JsonNode> entries = new ArrayList<>();
        for (JsonNode peer : get("/v1/agents/nic1/paths", AGENT_12).body().get("peers")) {
            for (JsonNode e : peer.get("entries")) {
                if (e.get("jobId").asString().equals(id) && e.get("format").asString().equals("srv6")) {
                    assertThat(peer.get("peer").asString()).isEqualTo("nic3");
                    assertThat(peer.get("minActive").asInt()).isEqualTo(1);
                    entries.add(e);
                }
            }
        }
        List<JsonNode> slices = new ArrayList<>();
        job.get("flows").forEach(f -> {
            if (f.get("index").asInt() == 0) {
                slices.add(f);
            }
        });
        assertThat(entries).hasSameSizeAs(slices);
        for (int i = 0; i < slices.size(); i++) {
            assertThat(entries.get(i).get("id").asString()).isEqualTo(slices.get(i).get("id").asString() + "#srv6");
            assertThat(entries.get(i).get("weight").asInt())
                    .isEqualTo((int) Math.round(slices.get(i).get("demandGbps").asDouble() * 1000));
        }
        assertThat(delete("/v1/jobs/" + id, SCHEDULER).status()).isEqualTo(200);
    }

    @Test
    void maxPathsOneIsOnePathPerFlowAndSaysWhy() {
        Reply r = post("/v1/jobs", SCHEDULER, "{\"name\":\"mp1\"," + FLOWS
                + ",\"multipath\":{\"maxPaths\":1,\"granularity\":16}}");
        assertThat(r.status()).as(r.raw().body()).isEqualTo(201);
        assertThat(r.body().get("multipath").get("fallback").asString()).contains("maxPaths 1");
        assertThat(r.body().get("flows")).hasSize(2);
        r.body().get("flows").forEach(f -> assertThat(f.has("weight")).isFalse());
        assertThat(delete("/v1/jobs/" + r.body().get("id").asString(), SCHEDULER).status()).isEqualTo(200);
    }

    @Test
    void aJobWithoutMultipathHasNoMultipathAnswer() {
        JsonNode job = createRing("plain", 10, "nic1", "nic3");
        assertThat(job.has("multipath")).isFalse();
        delete("/v1/jobs/" + job.get("id").asString(), SCHEDULER);
    }
}
