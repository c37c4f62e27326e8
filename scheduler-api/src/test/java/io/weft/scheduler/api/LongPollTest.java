package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class LongPollTest extends ApiTestSupport {

    @Test
    void waitingAgentWakesUpWithTheNewProfileWhenAJobTouchesItsNic() throws Exception {
        Reply now = get("/v1/agents/nic2/paths", AGENT_12);
        assertThat(now.status()).isEqualTo(200);
        long v0 = now.body().get("version").asLong();

        CompletableFuture<HttpResponse<String>> poll = HTTP.sendAsync(
                builder("/v1/agents/nic2/paths?since=" + v0 + "&wait=15", AGENT_12).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        awaitWaiters(1);
        assertThat(poll).isNotDone();

        long before = java.time.Instant.now().toEpochMilli() * 1000;
        JsonNode job = createRing("wake-up", 50, "nic2", "nic3");
        long published = java.time.Instant.now().toEpochMilli() * 1000 + 1000;
        HttpResponse<String> woke = poll.get(20, TimeUnit.SECONDS);
        assertThat(woke.statusCode()).isEqualTo(200);
        // When the version was published (after its commit): agents and the api bench time the fan-out from it.
        assertThat(Long.parseLong(woke.headers().firstValue("Weft-Published-Us").orElse("0")))
                .isBetween(before, published);
        assertThat(woke.headers().firstValue("Weft-Version").orElse("")).isEqualTo(
                Long.toString(JSON.readTree(woke.body()).get("version").asLong()));
        JsonNode profile = JSON.readTree(woke.body());
        assertThat(profile.get("nic").asString()).isEqualTo("nic2");
        assertThat(profile.get("version").asLong()).isGreaterThan(v0);
        JsonNode peer = peer(profile, "nic3");
        assertThat(peer).as("profile has peer nic3: " + profile).isNotNull();
        assertThat(peer.get("minActive").asInt()).isEqualTo(1);
        // The agent routes to the peer's planned address; it cannot read /v1/fabric with its token.
        String planned = null;
        for (JsonNode n : get("/v1/fabric", OPERATOR).body().at("/plan/nics")) {
            if (n.get("id").asString().equals("nic3")) {
                planned = n.get("address").asString();
            }
        }
        assertThat(planned).as("plan has nic3").isNotNull();
        assertThat(peer.get("address").asString()).isEqualTo(planned);
        String jobId = job.get("id").asString();
        JsonNode flow = job.get("flows").get(0);
        boolean srv6 = false;
        boolean ev = false;
        for (JsonNode e : peer.get("entries")) {
            if (!e.get("jobId").asString().equals(jobId)) {
                continue;
            }
            assertThat(e.get("state").asString()).isEqualTo("GOOD");
            if (e.get("format").asString().equals("srv6")) {
                srv6 = true;
                assertThat(e.get("value").asString()).isEqualTo(flow.get("carriers").get(0).asString());
            } else {
                ev = true;
                assertThat(e.get("format").asString()).isEqualTo("udp-sport");
                assertThat(e.get("value").asString()).isEqualTo(Integer.toString(flow.get("ev").asInt()));
            }
        }
        assertThat(srv6).isTrue();
        assertThat(ev).isTrue();

        // Release: the agent hears of it through a newer version without the job's entries.
        long v1 = profile.get("version").asLong();
        delete("/v1/jobs/" + jobId, SCHEDULER);
        Reply after = get("/v1/agents/nic2/paths?since=" + v1 + "&wait=5", AGENT_12);
        assertThat(after.status()).isEqualTo(200);
        assertThat(after.body().get("version").asLong()).isGreaterThan(v1);
        assertThat(after.body().toString()).doesNotContain(jobId);
    }

    @Test
    void pollWithNothingNewerTimesOutWith304AndLeavesNoWaiter() {
        long v = get("/v1/agents/nic1/paths", AGENT_12).body().get("version").asLong();
        Reply r = get("/v1/agents/nic1/paths?since=" + v + "&wait=1", AGENT_12);
        assertThat(r.status()).isEqualTo(v == 0 ? 204 : 304);
        assertThat(r.header("Weft-Version")).isEqualTo(Long.toString(v));
        assertThat(r.raw().body()).isEmpty();
        awaitWaiters(0);
    }

    @Test
    void everyAgentOfANicWakesWithTheSameProfileAndNoWaiterIsLeft() throws Exception {
        long v0 = get("/v1/agents/nic1/paths", AGENT_12).body().get("version").asLong();
        java.util.List<CompletableFuture<HttpResponse<String>>> polls = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            polls.add(HTTP.sendAsync(builder("/v1/agents/nic1/paths?since=" + v0 + "&wait=15", AGENT_12).GET().build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        awaitWaiters(20);

        JsonNode job = createRing("fan-out", 5, "nic1", "nic4");
        String first = null;
        for (CompletableFuture<HttpResponse<String>> poll : polls) {
            HttpResponse<String> r = poll.get(20, TimeUnit.SECONDS);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(ct -> assertThat(ct)
                    .startsWith("application/json"));
            first = first == null ? r.body() : first;
            assertThat(r.body()).isEqualTo(first);
        }
        JsonNode profile = JSON.readTree(first);
        assertThat(profile.get("version").asLong()).isGreaterThan(v0);
        assertThat(profile.toString()).contains(job.get("id").asString());
        awaitWaiters(0);
        delete("/v1/jobs/" + job.get("id").asString(), SCHEDULER);
    }

    @Test
    void pollsAreCountedByAnswerAndWhetherTheyWaited() {
        String before = get("/actuator/prometheus", null).raw().body();
        assertThat(get("/v1/agents/nic1/paths", AGENT_12).status()).isEqualTo(200);
        String after = get("/actuator/prometheus", null).raw().body();
        assertThat(count(after, "profile", "false")).isEqualTo(count(before, "profile", "false") + 1);
    }

    @Test
    void unknownNicIs404NamingIt() {
        Reply r = get("/v1/agents/nic99/paths", OPERATOR);
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.body().get("field").asString()).isEqualTo("nic");
    }

    static JsonNode peer(JsonNode profile, String nic) {
        for (JsonNode p : profile.get("peers")) {
            if (p.get("peer").asString().equals(nic)) {
                return p;
            }
        }
        return null;
    }

    /** Waits (bounded) until the waiters gauge reads {@code n}. */
    void awaitWaiters(int n) {
        java.util.regex.Pattern gauge =
                java.util.regex.Pattern.compile("(?m)^weft_longpoll_waiters\\{[^}]*} ([0-9.]+)");
        for (int i = 0; i < 200; i++) {
            Matcher m = gauge.matcher(get("/actuator/prometheus", null).raw().body());
            if (m.find() && (int) Double.parseDouble(m.group(1)) == n) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        throw new AssertionError("long-poll waiters never reached " + n);
    }

    /** weft_agent_polls_seconds_count for one answer and waited tag; 0 before the first such poll. */
    static double count(String prometheus, String answer, String waited) {
        var m = java.util.regex.Pattern.compile("weft_agent_polls_seconds_count\\{([^}]*)} (\\S+)").matcher(prometheus);
        while (m.find()) {
            if (m.group(1).contains("answer=\"" + answer + "\"") && m.group(1).contains("waited=\"" + waited + "\"")) {
                return Double.parseDouble(m.group(2));
            }
        }
        return 0;
    }
}
