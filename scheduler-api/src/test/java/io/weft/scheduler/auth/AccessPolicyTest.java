package io.weft.scheduler.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import io.weft.auth.Caller;
import io.weft.auth.Scope;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AccessPolicyTest {
    private static final Caller SCHED = new Caller("s", Scope.SCHEDULER, Set.of());
    private static final Caller OPS = new Caller("o", Scope.OPERATOR, Set.of());
    private static final Caller AGENT = new Caller("a", Scope.AGENT, Set.of("nic1"));

    @ParameterizedTest(name = "{0} {1} {2} -> {3}")
    @CsvSource({
        "sched, POST,   /v1/jobs,                          allow",
        "sched, GET,    /v1/jobs/j1,                       allow",
        "sched, DELETE, /v1/jobs/j1,                       allow",
        "ops,   GET,    /v1/jobs,                          allow",
        "ops,   POST,   /v1/jobs,                          deny",
        "ops,   DELETE, /v1/jobs/j1,                       deny",
        "agent, GET,    /v1/jobs,                          deny",
        "agent, GET,    /v1/agents/nic1/paths,             allow",
        "agent, POST,   /v1/agents/nic1/reports,           allow",
        "agent, GET,    /v1/agents/nic2/paths,             deny",
        "agent, GET,    /v1/agents/nic10/paths,            deny",
        "ops,   GET,    /v1/agents/nic2/paths,             allow",
        "ops,   POST,   /v1/agents/nic2/reports,           deny",
        "sched, GET,    /v1/agents/nic1/paths,             deny",
        "ops,   POST,   /v1/fabric/links/l1/drain,         allow",
        "sched, POST,   /v1/fabric/links/l1/drain,         deny",
        "sched, GET,    /v1/fabric,                        allow",
        "agent, GET,    /v1/fabric,                        deny",
        "agent, GET,    /v1/events,                        deny",
        "ops,   GET,    /v1/events,                        allow",
    })
    void decides(String who, String method, String path, String expected) {
        Caller c = switch (who) {
            case "sched" -> SCHED;
            case "ops" -> OPS;
            default -> AGENT;
        };
        String denied = AccessPolicy.deny(method, path, c);
        assertThat(denied == null ? "allow" : "deny").as(String.valueOf(denied)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"/v1/jobs, true", "/v3/api-docs, false", "/actuator/prometheus, false", "/v1, true"})
    void onlyTheApiNeedsATokenpath(String path, boolean needs) {
        assertThat(AccessPolicy.needsToken(path)).isEqualTo(needs);
    }
}
