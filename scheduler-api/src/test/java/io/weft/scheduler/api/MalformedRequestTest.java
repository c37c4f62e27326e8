package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad input of every kind gets a 4xx problem+json that names the culprit field; never a 5xx. */
class MalformedRequestTest extends ApiTestSupport {
    private static final String RING = "{\"name\":\"bad\",\"pattern\":\"ring\",\"endpoints\":[\"nic1\",\"nic3\"],"
            + "\"demandGbps\":10}";

    static Stream<Arguments> badJobs() {
        return Stream.of(
                Arguments.of("not JSON", "{\"name\":", 400, "body"),
                Arguments.of("empty body", "", 400, "body"),
                Arguments.of("array instead of object", "[1,2]", 400, "body"),
                Arguments.of("wrong type for demand", RING.replace("10}", "\"lots\"}"), 400, "demandGbps"),
                Arguments.of("wrong type for endpoints", RING.replace("[\"nic1\",\"nic3\"]", "\"nic1\""), 400,
                        "endpoints"),
                Arguments.of("unknown pattern", RING.replace("\"ring\"", "\"mesh\""), 400, "pattern"),
                Arguments.of("unknown encoding", RING.replace("}", ",\"encoding\":\"mpls\"}"), 400, "encoding"),
                Arguments.of("unknown field", RING.replace("}", ",\"priority\":3}"), 400, "priority"),
                Arguments.of("missing name", RING.replace("\"name\":\"bad\",", ""), 400, "name"),
                Arguments.of("missing pattern", RING.replace("\"pattern\":\"ring\",", ""), 400, "pattern"),
                Arguments.of("unknown NIC", RING.replace("nic3", "nic99"), 400, "endpoints[1]"),
                Arguments.of("a switch as endpoint", RING.replace("nic3", "spine1"), 400, "endpoints[1]"),
                Arguments.of("empty ring", RING.replace("[\"nic1\",\"nic3\"]", "[]"), 400, "endpoints"),
                Arguments.of("one-NIC ring", RING.replace("[\"nic1\",\"nic3\"]", "[\"nic1\"]"), 400, "endpoints"),
                Arguments.of("duplicate endpoint", RING.replace("nic3", "nic1"), 400, "endpoints[1]"),
                Arguments.of("negative demand", RING.replace("10}", "-5}"), 400, "demandGbps"),
                Arguments.of("zero slices", RING.replace("}", ",\"qpSlices\":0}"), 400, "qpSlices"),
                Arguments.of("fractional slices", RING.replace("}", ",\"qpSlices\":1.5}"), 400, "qpSlices"),
                Arguments.of("huge job", "{\"name\":\"huge\",\"pattern\":\"all-to-all\",\"endpoints\":[\"nic1\","
                        + "\"nic2\",\"nic3\",\"nic4\"],\"demandGbps\":1,\"qpSlices\":8}", 400, "endpoints"),
                Arguments.of("explicit without flows", "{\"name\":\"x\",\"pattern\":\"explicit\",\"demandGbps\":1}",
                        400, "flows"),
                Arguments.of("explicit flow to itself", "{\"name\":\"x\",\"pattern\":\"explicit\",\"flows\":"
                        + "[{\"src\":\"nic1\",\"dst\":\"nic1\",\"demandGbps\":1}]}", 400, "flows[0].dst"),
                Arguments.of("explicit flow missing dst", "{\"name\":\"x\",\"pattern\":\"explicit\",\"flows\":"
                        + "[{\"src\":\"nic1\",\"demandGbps\":1}]}", 400, "flows[0].dst"),
                Arguments.of("unknown tenant", RING.replace("}", ",\"tenant\":\"blue\"}"), 400, "tenant"),
                Arguments.of("tenant not an id", RING.replace("}", ",\"tenant\":\"a b\"}"), 400, "tenant"),
                Arguments.of("control character in name", RING.replace("\"bad\"", "\"b\\u0000d\""), 400, "name"),
                Arguments.of("admission limit not a number", RING.replace("}", ",\"maxLinkLoad\":\"low\"}"), 400,
                        "maxLinkLoad"),
                Arguments.of("multipath granularity not 8 or 16",
                        RING.replace("}", ",\"multipath\":{\"maxPaths\":4,\"granularity\":12}}"), 400,
                        "multipath.granularity"),
                Arguments.of("multipath without maxPaths",
                        RING.replace("}", ",\"multipath\":{\"granularity\":8}}"), 400, "multipath.maxPaths"),
                Arguments.of("multipath maxPaths 0",
                        RING.replace("}", ",\"multipath\":{\"maxPaths\":0,\"granularity\":8}}"), 400,
                        "multipath.maxPaths"),
                Arguments.of("multipath maxPaths 17",
                        RING.replace("}", ",\"multipath\":{\"maxPaths\":17,\"granularity\":16}}"), 400,
                        "multipath.maxPaths"),
                Arguments.of("multipath with QP slices",
                        RING.replace("}", ",\"qpSlices\":2,\"multipath\":{\"maxPaths\":4,\"granularity\":8}}"),
                        400, "qpSlices"),
                Arguments.of("multipath unknown field",
                        RING.replace("}", ",\"multipath\":{\"maxPaths\":4,\"granularity\":8,\"spray\":1}}"), 400,
                        "multipath.spray"),
                Arguments.of("oversize body", "{\"name\":\"" + "x".repeat(70_000) + "\"}", 413, "body"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badJobs")
    void badJobIsRefusedNamingTheField(String why, String body, int status, String field) {
        Reply r = post("/v1/jobs", SCHEDULER, body);
        assertThat(r.status()).as(why + ": " + r.raw().body()).isEqualTo(status);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.body().get("field").asString()).as(why + ": " + r.raw().body()).isEqualTo(field);
        assertThat(r.body().get("detail").asString()).isNotBlank().doesNotContain("Exception");
    }

    static Stream<Arguments> badQueries() {
        return Stream.of(
                Arguments.of("/v1/jobs?page=-1", 400, "page"),
                Arguments.of("/v1/jobs?size=abc", 400, "size"),
                Arguments.of("/v1/jobs?size=100000", 400, "size"),
                Arguments.of("/v1/jobs?state=RUNNING", 400, "state"),
                Arguments.of("/v1/jobs/job-does-not-exist", 404, "id"),
                Arguments.of("/v1/jobs/job-does-not-exist/history", 404, "id"),
                Arguments.of("/v1/agents/nic1/paths?since=-3", 400, "since"),
                Arguments.of("/v1/agents/nic1/paths?wait=soon", 400, "wait"),
                Arguments.of("/v1/jobs?page=", 400, "page"),
                Arguments.of("/v1/jobs?tenant=a%00b", 400, "tenant"),
                Arguments.of("/v1/jobs/job%20one", 400, "id"),
                Arguments.of("/v1/agents/nic1/paths?since=", 400, "since"),
                Arguments.of("/v1/agents/nic%201/paths/stream", 400, "nic"));
    }

    /** Jetty refuses some requests before Spring sees them; they still get problem+json, not HTML. */
    @Test
    void requestRefusedByJettyIsProblemJson() {
        Reply r = get("/v1/jobs/%01x", OPERATOR);
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.body().get("status").asInt()).isEqualTo(400);
        assertThat(r.body().get("detail").asString()).isNotBlank();
    }

    /** TRACE is a 405 like any undeclared method: the servlet default would echo the request, token included. */
    @Test
    void traceIsNotEchoed() {
        // The scheduler token may write /v1/jobs, so the answer is about the method, not the scope.
        Reply r = send(builder("/v1/jobs", SCHEDULER).method("TRACE", HttpRequest.BodyPublishers.noBody()).build());
        assertThat(r.status()).isEqualTo(405);
        assertThat(r.raw().body()).doesNotContain(SCHEDULER);
        assertThat(r.header("Allow")).contains("GET");
    }

    /** The API takes no multipart: a GET claiming a multipart body is answered, not a 500. */
    @Test
    void multipartContentTypeIsNotParsed() {
        Reply r = send(builder("/v1/jobs", OPERATOR).header("Content-Type", "multipart/form-data").GET().build());
        assertThat(r.status()).isEqualTo(200);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badQueries")
    void badQueryIsRefusedNamingTheParameter(String path, int status, String field) {
        Reply r = get(path, OPERATOR);
        assertThat(r.status()).as(path + ": " + r.raw().body()).isEqualTo(status);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.body().get("field").asString()).isEqualTo(field);
    }

    @ParameterizedTest(name = "report: {0}")
    @MethodSource("badReports")
    void badReportIsRefusedNamingTheField(String why, String body, String field) {
        Reply r = post("/v1/agents/nic1/reports", AGENT_12, body);
        assertThat(r.status()).as(why + ": " + r.raw().body()).isEqualTo(400);
        assertThat(r.body().get("field").asString()).as(why).isEqualTo(field);
    }

    static Stream<Arguments> badReports() {
        String ok = "{\"schemaVersion\":1,\"nic\":\"nic1\",\"timestampNs\":\"1\",\"flows\":[{\"flowId\":\"f\","
                + "\"dstNic\":\"nic3\",\"ev\":49152,\"bytes\":\"10\",\"rateGbps\":1.5,\"ecnMarked\":\"0\","
                + "\"cnpCount\":\"0\",\"drops\":\"0\"}]}";
        return Stream.of(
                Arguments.of("counter as number", ok.replace("\"bytes\":\"10\"", "\"bytes\":10"), "flows[0].bytes"),
                Arguments.of("ev out of range", ok.replace("49152", "70000"), "flows[0].ev"),
                Arguments.of("both ev and carrier", ok.replace("\"ev\":49152", "\"ev\":1,\"carrier\":\"fcbb::\""),
                        "flows[0].carrier"),
                Arguments.of("report for another NIC", ok.replace("\"nic\":\"nic1\"", "\"nic\":\"nic2\""), "nic"),
                Arguments.of("wrong schema version", ok.replace("\"schemaVersion\":1", "\"schemaVersion\":2"),
                        "schemaVersion"));
    }
}
