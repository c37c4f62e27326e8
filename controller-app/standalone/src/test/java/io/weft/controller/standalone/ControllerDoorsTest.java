package io.weft.controller.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import io.weft.auth.ReadAccess;
import io.weft.fabric.FabricJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every door of the controller's HTTP API with a missing, unknown, wrong-scope and right token: a
 * drain is an operator's only, reads follow {@code --reads}, health and metrics stay open.
 */
class ControllerDoorsTest {
    private static final String OPERATOR = "doors-operator-token-0123456789";
    private static final String SCHEDULER = "doors-scheduler-token-0123456789";
    private static final String AGENT = "doors-agent-token-0123456789";
    private static final String TOKENS = "ops:operator=" + OPERATOR + ";sched:scheduler=" + SCHEDULER
            + ";nic:agent:nic1=" + AGENT;
    private static final String DRAIN = "{\"state\":\"drained\"}";

    private final HttpClient http = HttpClient.newHttpClient();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    @Test
    void drainingALinkNeedsAnOperatorToken() throws Exception {
        try (StandaloneController c = start(ReadAccess.OPEN, TOKENS)) {
            String url = base(c) + "/links/leaf1-spine1/state";
            HttpResponse<String> none = send(url, null, DRAIN);
            assertThat(none.statusCode()).isEqualTo(401);
            assertThat(none.headers().firstValue("WWW-Authenticate")).contains("Bearer");
            HttpResponse<String> unknown = send(url, OPERATOR + "x", DRAIN);
            assertThat(unknown.statusCode()).isEqualTo(401);
            assertThat(unknown.body()).doesNotContain(OPERATOR);
            assertThat(send(url, SCHEDULER, DRAIN).statusCode()).isEqualTo(403);
            HttpResponse<String> agent = send(url, AGENT, DRAIN);
            assertThat(agent.statusCode()).isEqualTo(403);
            assertThat(agent.body()).contains("token 'nic' has scope agent; this needs operator");
            assertThat(c.controller().current().version()).as("nothing refused made a version").isEqualTo(1);

            HttpResponse<String> ok = send(url, OPERATOR, DRAIN);
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
            var answer = FabricJson.mapper().readTree(ok.body());
            assertThat(answer.path("state").asText()).isEqualTo("drained");
            assertThat(answer.path("version").asLong()).isEqualTo(2);
            assertThat(answer.path("changed").asBoolean()).isTrue();
            assertThat(FabricJson.mapper().readTree(send(url, OPERATOR, DRAIN).body()).path("changed").asBoolean())
                    .as("a second drain changes nothing").isFalse();
            // Open reads on loopback: the snapshot without a token.
            assertThat(send(base(c) + "/fabric", null, null).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void withoutAnyTokenConfiguredNobodyDrains() throws Exception {
        try (StandaloneController c = start(null, null)) {
            assertThat(send(base(c) + "/links/leaf1-spine1/state", OPERATOR, DRAIN).statusCode()).isEqualTo(401);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("PUT /links/<id>/state is refused");
        }
    }

    @Test
    void tokenReadsNeedASchedulerOrOperatorButHealthAndMetricsStayOpen() throws Exception {
        try (StandaloneController c = start(ReadAccess.TOKEN, TOKENS)) {
            for (String path : new String[] {"/fabric", "/devices"}) {
                assertThat(send(base(c) + path, null, null).statusCode()).as(path).isEqualTo(401);
                assertThat(send(base(c) + path, "not-a-token-0123456789", null).statusCode()).as(path).isEqualTo(401);
                assertThat(send(base(c) + path, AGENT, null).statusCode()).as(path).isEqualTo(403);
                assertThat(send(base(c) + path, SCHEDULER, null).statusCode()).as(path).isEqualTo(200);
                assertThat(send(base(c) + path, OPERATOR, null).statusCode()).as(path).isEqualTo(200);
            }
            assertThat(send(base(c) + "/healthz", null, null).statusCode()).isEqualTo(200);
            assertThat(send(base(c) + "/metrics", null, null).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void readsDefaultToOpenOnLoopbackOnlyAndParseFromTheCommandLine() {
        Path f = Path.of("f.json");
        assertThat(new ControllerOptions(f, null, "127.0.0.1", 0, dir, 50).reads()).isEqualTo(ReadAccess.OPEN);
        assertThat(new ControllerOptions(f, null, "::1", 0, dir, 50).reads()).isEqualTo(ReadAccess.OPEN);
        assertThat(new ControllerOptions(f, null, "0.0.0.0", 0, dir, 50).reads()).isEqualTo(ReadAccess.TOKEN);
        assertThat(new ControllerOptions(f, null, "controller.example", 0, dir, 50).reads())
                .isEqualTo(ReadAccess.TOKEN);
        ControllerOptions parsed = ControllerOptions.parse(new String[] {"--fabric", "f.json", "--http-host", "0.0.0.0",
            "--reads", "open", "--tokens-file", "t.json"}, null);
        assertThat(parsed.reads()).isEqualTo(ReadAccess.OPEN);
        assertThat(parsed.tokensFile()).isEqualTo(Path.of("t.json"));
    }

    private StandaloneController start(ReadAccess reads, String tokens) throws Exception {
        Path file = dir.resolve("fabric.json");
        TestFabrics.write(file, TestFabrics.leafSpine("doors", 2, 2, 400));
        ControllerOptions o = new ControllerOptions(file, null, "127.0.0.1", 0, dir.resolve("state"), 50,
                ControllerOptions.DEFAULT_GNMI_TIMEOUT_MS, ControllerOptions.DEFAULT_GNMI_RESYNC_MS, null, reads);
        return StandaloneController.start(o, tokens, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static String base(StandaloneController c) {
        return "http://127.0.0.1:" + c.httpPort();
    }

    private HttpResponse<String> send(String url, String token, String putBody) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        b = putBody == null ? b.GET() : b.PUT(HttpRequest.BodyPublishers.ofString(putBody));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
