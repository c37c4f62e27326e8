package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Agent reports naming the profile entries the agent refused: accepted and refused like every
 * other side (contracts/vectors/flow-reports.json), and shown on /v1/events when they change.
 */
class FlowReportRejectionsTest extends ApiTestSupport {
    private static final Path VECTORS = Path.of("../contracts/vectors/flow-reports.json").toAbsolutePath().normalize();

    @Test
    void theSharedVectorsAreAcceptedOrRefusedNamingTheField() throws Exception {
        JsonNode cases = JSON.readTree(Files.readString(VECTORS)).get("cases");
        assertThat(cases.size()).isGreaterThanOrEqualTo(4);
        for (JsonNode c : cases) {
            Reply r = post("/v1/agents/nic1/reports", AGENT_12, JSON.writeValueAsString(c.get("report")));
            String name = c.get("name").asString();
            if (c.get("valid").asBoolean()) {
                assertThat(r.status()).as(name + ": " + r.raw().body()).isEqualTo(202);
            } else {
                assertThat(r.status()).as(name + ": " + r.raw().body()).isEqualTo(400);
                assertThat(r.body().get("field").asString()).as(name).isEqualTo(c.get("field").asString());
            }
        }
    }

    @Test
    void aChangeOfANicsRejectionsIsAnEvent() throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        var response = HTTP.sendAsync(builder("/v1/events", OPERATOR).header("Accept", "text/event-stream").GET()
                .build(), HttpResponse.BodyHandlers.ofLines()).get(10, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        Thread reader = new Thread(() -> response.body().forEach(lines::add), "sse-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            assertThat(next(lines, "event:hello")).isNotNull();
            ObjectNode report = (ObjectNode) JSON.readTree(Files.readString(VECTORS)).get("cases").get(1).get("report");
            report.put("nic", "nic2");
            assertThat(post("/v1/agents/nic2/reports", AGENT_12, JSON.writeValueAsString(report)).status())
                    .isEqualTo(202);
            assertThat(next(lines, "event:agent-rejected")).isNotNull();
            String data = next(lines, "data:");
            assertThat(data).contains("\"nic\":\"nic2\"").contains("\"entry\":\"j1/0#srv6\"")
                    .contains("\"field\":\"peers[0].entries[0].carriers[0]\"").contains("\"peer\":\"nic4\"");

            // The same list again is no news; a report without rejections clears them (one event).
            assertThat(post("/v1/agents/nic2/reports", AGENT_12, JSON.writeValueAsString(report)).status())
                    .isEqualTo(202);
            report.remove("rejected");
            assertThat(post("/v1/agents/nic2/reports", AGENT_12, JSON.writeValueAsString(report)).status())
                    .isEqualTo(202);
            assertThat(next(lines, "event:agent-rejected")).isNotNull();
            assertThat(next(lines, "data:")).as("the event after the repeat is the clearing one")
                    .contains("\"rejected\":[]");
        } finally {
            response.body().close();
        }
    }

    /** The next line containing {@code text} (bounded wait), or null. */
    private static String next(BlockingQueue<String> lines, String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            String l = lines.poll(200, TimeUnit.MILLISECONDS);
            if (l != null && l.replace(" ", "").contains(text)) {
                return l.replace(" ", "");
            }
        }
        return null;
    }
}
