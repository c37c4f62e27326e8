package io.weft.controller.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.auth.KafkaClientSecurity;
import io.weft.contracts.Contracts;
import io.weft.fabric.FabricJson;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared hotspot-event vectors (contracts/vectors/hotspot-events.json) through the controller's listener. */
class LinkEventListenerTest {

    @Test
    void linkDownAndUpSetTheLinkStateHotspotsAreSkippedAndInvalidEventsReportedAtTheirField(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("fabric.json");
        TestFabrics.write(file, TestFabrics.leafSpine("fab", 2, 4, 400));
        List<String> problems = new ArrayList<>();
        SnapshotKeeper controller = new SnapshotKeeper(file, new SnapshotStore(dir), null, line -> { }, problems::add);
        controller.start();
        // Never started: handle() is called directly, no broker needed.
        LinkEventListener listener = new LinkEventListener("127.0.0.1:9", KafkaClientSecurity.plaintext(), "fab",
                controller, problems::add);
        JsonNode vectors = FabricJson.mapper().readTree(Contracts.read("vectors/hotspot-events.json"));
        long offset = 0;
        int invalid = 0;
        try {
            for (JsonNode c : vectors.get("cases")) {
                JsonNode value = c.get("value");
                String linkId = value.path("linkId").asText();
                String kind = value.path("kind").asText();
                long versionBefore = controller.current().version();
                listener.handle(new ConsumerRecord<>(LinkEventListener.TOPIC, 0, offset, linkId, value.toString()));
                String name = c.get("name").asText();
                if (!c.get("valid").asBoolean()) {
                    invalid++;
                    assertThat(problems).as(name).hasSize(invalid).last().asString().startsWith(
                            "weft.hotspots offset " + offset + ": skipped: " + c.get("field").asText() + ": ");
                } else if (kind.equals("link-down")) {
                    assertThat(state(controller, linkId)).as(name).isEqualTo("down");
                } else if (kind.equals("link-up")) {
                    assertThat(state(controller, linkId)).as(name).isEqualTo("up");
                } else {
                    assertThat(controller.current().version()).as(name).isEqualTo(versionBefore);
                }
                offset++;
            }
            listener.handle(new ConsumerRecord<>(LinkEventListener.TOPIC, 0, 99L, "k", "{not json"));
            assertThat(problems).hasSize(invalid + 1).last().asString().startsWith("weft.hotspots offset 99: skipped:");
            assertThat(invalid).isPositive();
        } finally {
            listener.close();
        }
    }

    private static String state(SnapshotKeeper c, String linkId) throws Exception {
        return FabricJson.mapper().readTree(c.current().json()).path("linkStates").path(linkId).asText();
    }
}
