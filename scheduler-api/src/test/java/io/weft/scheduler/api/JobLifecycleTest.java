package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

class JobLifecycleTest extends ApiTestSupport {
    @Autowired
    JdbcClient jdbc;
    @Autowired
    TransactionTemplate tx;

    @Test
    void createReadListHistoryRelease() {
        JsonNode job = createRing("lifecycle", 100, "nic1", "nic3", "nic2", "nic4");
        String id = job.get("id").asString();
        assertThat(job.get("state").asString()).isEqualTo("ACTIVE");
        assertThat(job.get("encoding").asString()).isEqualTo("both");
        JsonNode flows = job.get("flows");
        assertThat(flows).hasSize(4);
        for (JsonNode f : flows) {
            List<String> nodes = strings(f.get("nodes"));
            assertThat(nodes.get(0)).isEqualTo(f.get("src").asString());
            assertThat(nodes.get(nodes.size() - 1)).isEqualTo(f.get("dst").asString());
            assertThat(f.get("links")).hasSize(nodes.size() - 1);
            assertThat(f.get("carriers").get(0).asString()).startsWith("fcbb:bb00:");
            assertThat(f.get("state").asString()).isEqualTo("GOOD");
            assertThat(f.get("version").asLong()).isPositive();
        }
        // Two 100G flows leave leaf1 for leaf2 over two spines: disjoint, so max load 0.25.
        assertThat(job.get("quality").get("maxLinkLoad").asDouble()).isLessThanOrEqualTo(0.25 + 1e-9);

        Reply read = get("/v1/jobs/" + id, SCHEDULER);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.body()).isEqualTo(job);
        assertThat(get("/v1/jobs/" + id, OPERATOR).status()).isEqualTo(200);

        Reply list = get("/v1/jobs?state=ACTIVE&size=500", SCHEDULER);
        assertThat(list.status()).isEqualTo(200);
        assertThat(ids(list.body().get("items"))).contains(id);

        Reply history = get("/v1/jobs/" + id + "/history", OPERATOR);
        assertThat(history.body().get("changes")).hasSize(4);
        assertThat(history.body().get("changes").get(0).get("reason").asString()).isEqualTo("placed");

        Reply released = delete("/v1/jobs/" + id, SCHEDULER);
        assertThat(released.status()).isEqualTo(200);
        assertThat(released.body().get("state").asString()).isEqualTo("RELEASED");
        assertThat(released.body().get("flows").get(0).get("state").asString()).isEqualTo("DENIED");
        assertThat(ids(get("/v1/jobs?state=ACTIVE&size=500", SCHEDULER).body().get("items"))).doesNotContain(id);
        assertThat(ids(get("/v1/jobs?state=RELEASED&size=500", SCHEDULER).body().get("items"))).contains(id);
        assertThat(get("/v1/jobs/" + id + "/history", OPERATOR).body().get("changes")).hasSize(8);

        // Releasing twice is harmless and changes nothing.
        Reply again = delete("/v1/jobs/" + id, SCHEDULER);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body().get("state").asString()).isEqualTo("RELEASED");
        assertThat(get("/v1/jobs/" + id + "/history", OPERATOR).body().get("changes")).hasSize(8);
    }

    /**
     * A released job's flows leave the index agents' profile reads use, and the profile query's
     * filter on flows (as in ProfileReader) can use that partial index (a drift would bring back
     * reads that grow with every job ever placed). With tiny tables the planner may prefer the
     * active jobs' index instead, so only the flows part is explained.
     */
    @Test
    void releasedFlowsLeaveTheProfileIndex() {
        String id = createRing("index", 10, "nic1", "nic3").get("id").asString();
        assertThat(jdbc.sql("select count(*) from flows where job_id = ? and not released").param(id)
                .query(Long.class).single()).isEqualTo(2);
        assertThat(delete("/v1/jobs/" + id, SCHEDULER).status()).isEqualTo(200);
        assertThat(jdbc.sql("select count(*) from flows where job_id = ? and not released").param(id)
                .query(Long.class).single()).isZero();

        List<String> plan = tx.execute(status -> {
            jdbc.sql("set local enable_seqscan = off").update();
            return jdbc.sql("explain select f.id from flows f "
                            + "where f.src_nic = any(?) and not f.released and f.retired_at is null")
                    .param(new String[] {"nic1", "nic3"}).query(String.class).list();
        });
        assertThat(String.join("\n", plan)).contains("flows_served_by_src");
    }

    @Test
    void admissionLimitRefusesWithReasonAndReservesNothing() {
        String before = get("/v1/fabric", OPERATOR).body().get("reservations").toString();
        Reply r = post("/v1/jobs", SCHEDULER, "{\"name\":\"too-hot\",\"pattern\":\"ring\",\"endpoints\":"
                + "[\"nic1\",\"nic3\"],\"demandGbps\":300,\"maxLinkLoad\":0.5}");
        assertThat(r.status()).isEqualTo(409);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.body().get("field").asString()).isEqualTo("maxLinkLoad");
        assertThat(r.body().get("detail").asString()).contains("above the limit 0.5000");
        assertThat(get("/v1/fabric", OPERATOR).body().get("reservations").toString()).isEqualTo(before);
    }

    @Test
    void idempotentRetryReturnsTheSameJobOnce() {
        String body = "{\"name\":\"retry\",\"pattern\":\"pipeline\",\"endpoints\":[\"nic2\",\"nic4\"],"
                + "\"demandGbps\":10,\"qpSlices\":2}";
        Reply first = post("/v1/jobs", SCHEDULER, body, "Idempotency-Key", "retry-key-1");
        Reply second = post("/v1/jobs", SCHEDULER, body, "Idempotency-Key", "retry-key-1");
        assertThat(first.status()).isEqualTo(201);
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.body().get("id")).isEqualTo(first.body().get("id"));
        assertThat(first.body().get("flows")).hasSize(2);
        long named = count(get("/v1/jobs?size=500", SCHEDULER).body().get("items"), "retry");
        assertThat(named).isEqualTo(1);

        Reply other = post("/v1/jobs", SCHEDULER, body.replace("10", "20"), "Idempotency-Key", "retry-key-1");
        assertThat(other.status()).isEqualTo(422);
        assertThat(other.body().get("field").asString()).isEqualTo("Idempotency-Key");
        delete("/v1/jobs/" + first.body().get("id").asString(), SCHEDULER);
    }

    static List<String> strings(JsonNode arr) {
        List<String> out = new ArrayList<>();
        arr.forEach(n -> out.add(n.asString()));
        return out;
    }

    static List<String> ids(JsonNode items) {
        List<String> out = new ArrayList<>();
        items.forEach(n -> out.add(n.get("id").asString()));
        return out;
    }

    static long count(JsonNode items, String name) {
        long c = 0;
        for (JsonNode n : items) {
            if (n.get("name").asString().equals(name)) {
                c++;
            }
        }
        return c;
    }
}
