package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AuthScopeTest extends ApiTestSupport {

    @Test
    void missingOrUnknownTokenIs401ProblemNamingTheHeader() {
        for (Reply r : new Reply[] {get("/v1/jobs", null), get("/v1/jobs", "not-a-known-token-at-all"),
                get("/v1/agents/nic1/paths", null)}) {
            assertThat(r.status()).isEqualTo(401);
            assertThat(r.contentType()).startsWith("application/problem+json");
            assertThat(r.body().get("field").asString()).isEqualTo("Authorization");
            assertThat(r.header("WWW-Authenticate")).startsWith("Bearer");
        }
    }

    @Test
    void agentTokenCannotReadAnotherNic() {
        assertThat(get("/v1/agents/nic1/paths", AGENT_12).status()).isEqualTo(200);
        assertThat(get("/v1/agents/nic2/paths", AGENT_12).status()).isEqualTo(200);
        Reply other = get("/v1/agents/nic3/paths", AGENT_12);
        assertThat(other.status()).isEqualTo(403);
        assertThat(other.contentType()).startsWith("application/problem+json");
        assertThat(other.body().get("detail").asString()).contains("a12").contains("nic3")
                .doesNotContain(AGENT_12);
        assertThat(post("/v1/agents/nic1/reports", AGENT_3, "{}").status()).isEqualTo(403);
    }

    @Test
    void scopesSeparateSchedulersAgentsAndOperators() {
        String job =
                "{\"name\":\"scoped\",\"pattern\":\"pipeline\",\"endpoints\":[\"nic1\",\"nic2\"],\"demandGbps\":1}";
        assertThat(post("/v1/jobs", AGENT_12, job).status()).isEqualTo(403);
        assertThat(post("/v1/jobs", OPERATOR, job).status()).isEqualTo(403);
        assertThat(get("/v1/jobs", AGENT_12).status()).isEqualTo(403);
        assertThat(post("/v1/fabric/links/leaf1-spine1/drain", SCHEDULER, "").status()).isEqualTo(403);
        assertThat(post("/v1/fabric/links/leaf1-spine1/drain", AGENT_12, "").status()).isEqualTo(403);
        assertThat(post("/v1/fabric/links/leaf1-spine1/drain", null, "").status()).isEqualTo(401);
        assertThat(post("/v1/fabric/links/leaf1-spine1/undrain", "not-a-known-token-0123", "").status()).isEqualTo(401);
        assertThat(get("/v1/fabric", AGENT_3).status()).isEqualTo(403);
        assertThat(get("/v1/fabric", SCHEDULER).status()).isEqualTo(200);
        // Operators read every NIC's paths but cannot report for one.
        assertThat(get("/v1/agents/nic4/paths", OPERATOR).status()).isEqualTo(200);
        assertThat(post("/v1/agents/nic4/reports", OPERATOR, "{}").status()).isEqualTo(403);
    }

    @Test
    void healthMetricsAndApiDocsNeedNoToken() {
        assertThat(get("/actuator/health", null).status()).isEqualTo(200);
        assertThat(get("/v3/api-docs", null).status()).isEqualTo(200);
        Reply prom = get("/actuator/prometheus", null);
        assertThat(prom.status()).isEqualTo(200);
        assertThat(prom.raw().body()).contains("weft_longpoll_waiters").contains("weft_placement_latency_seconds")
                .contains("weft_versions_issued_total");
    }
}
