package io.weft.scheduler.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

/** What the fast path takes on itself; everything else must fall through to the controller. */
class LongPollsTest {

    @Test
    void onlyTheAgentPathsPathNamesANic() {
        assertThat(LongPolls.nicOf("/v1/agents/nic7/paths")).isEqualTo("nic7");
        assertThat(LongPolls.nicOf("/v1/agents//paths")).isNull();
        assertThat(LongPolls.nicOf("/v1/agents/a/b/paths")).isNull();
        assertThat(LongPolls.nicOf("/v1/agents/nic%2F1/paths")).isNull();
        assertThat(LongPolls.nicOf("/v1/agents/nic7/reports")).isNull();
        assertThat(LongPolls.nicOf("/v1/agents/nic7/paths/")).isNull();
        assertThat(LongPolls.nicOf("/v1/jobs")).isNull();
    }

    @Test
    void sinceIsAbsentAVersionOrLeftToTheController() {
        assertThat(LongPolls.parseSince(null)).isEqualTo(LongPolls.ABSENT);
        assertThat(LongPolls.parseSince("0")).isZero();
        assertThat(LongPolls.parseSince("123456789012")).isEqualTo(123_456_789_012L);
        for (String bad : new String[] {"", "-3", "+3", "1e3", "soon", "1234567890123456789", " 1"}) {
            assertThat(LongPolls.parseSince(bad)).as(bad).isEqualTo(LongPolls.BAD);
        }
    }

    @Test
    void waitDefaultsToZeroAndOutOfRangeIsLeftToTheController() {
        assertThat(LongPolls.parseWait(null)).isZero();
        assertThat(LongPolls.parseWait("30")).isEqualTo(30);
        assertThat(LongPolls.parseWait("86400")).isEqualTo(86_400);
        assertThat(LongPolls.parseWait("86401")).isEqualTo(-1);
        assertThat(LongPolls.parseWait("soon")).isEqualTo(-1);
        assertThat(LongPolls.parseWait("")).isEqualTo(-1);
    }

    @Test
    void acceptHeadersThatExcludeJsonAreLeftToTheController() {
        assertThat(LongPolls.acceptsJson(null)).isTrue();
        assertThat(LongPolls.acceptsJson("*/*")).isTrue();
        assertThat(LongPolls.acceptsJson("application/json")).isTrue();
        assertThat(LongPolls.acceptsJson("text/html,application/*;q=0.8")).isTrue();
        assertThat(LongPolls.acceptsJson("text/html")).isFalse();
        assertThat(LongPolls.acceptsJson("application/xml")).isFalse();
    }

    @Test
    void onlyWaitingAgentPollsAreKeptOutOfRequestObservations() {
        assertThat(LongPollObservations.isLongPoll(get("/v1/agents/nic1/paths", "since=3&wait=30"))).isTrue();
        assertThat(LongPollObservations.isLongPoll(get("/v1/agents/nic1/paths", "since=3"))).isFalse();
        assertThat(LongPollObservations.isLongPoll(get("/v1/agents/nic1/paths", "wait=0"))).isFalse();
        assertThat(LongPollObservations.isLongPoll(get("/v1/jobs", "wait=30"))).isFalse();
        MockHttpServletRequest post = get("/v1/agents/nic1/paths", "wait=30");
        post.setMethod("POST");
        assertThat(LongPollObservations.isLongPoll(post)).isFalse();
    }

    private static MockHttpServletRequest get(String path, String query) {
        MockHttpServletRequest r = new MockHttpServletRequest("GET", path);
        for (String kv : query.split("&")) {
            String[] p = kv.split("=");
            r.addParameter(p[0], p[1]);
        }
        return r;
    }
}
