package io.weft.controller.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.fabric.FabricJson;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LinkEventListenerTest {

    @Test
    void linkDownAndUpEventsSetTheLinkStateAndHotspotsAreSkipped(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("fabric.json");
        TestFabrics.write(file, TestFabrics.leafSpine("fab", 2, 2, 400));
        List<String> problems = new ArrayList<>();
        SnapshotKeeper controller = new SnapshotKeeper(file, new SnapshotStore(dir), null, line -> { }, problems::add);
        controller.start();
        // Never started: handle() is called directly, no broker needed.
        LinkEventListener listener = new LinkEventListener("127.0.0.1:9", "fab", controller, problems::add);
        try {
            listener.handle(event("hotspot-start", "leaf1-spine1"));
            assertThat(controller.current().version()).isEqualTo(1);

            listener.handle(event("link-down", "leaf1-spine1"));
            assertThat(state(controller, "leaf1-spine1")).isEqualTo("down");
            listener.handle(event("link-up", "leaf1-spine1"));
            assertThat(state(controller, "leaf1-spine1")).isEqualTo("up");

            assertThatThrownBy(() -> listener.handle(event("link-flap", "leaf1-spine1")))
                    .hasMessage("kind: unknown \"link-flap\"");
            listener.handle(new ConsumerRecord<>(LinkEventListener.TOPIC, 0, 17L, "k", "{not json"));
            assertThat(problems).singleElement().asString().startsWith("weft.hotspots offset 17: skipped:");
        } finally {
            listener.close();
        }
    }

    private static JsonNode event(String kind, String linkId) {
        return FabricJson.mapper().createObjectNode().put("schemaVersion", 1).put("kind", kind).put("linkId", linkId)
                .put("direction", "spine1");
    }

    private static String state(SnapshotKeeper c, String linkId) throws Exception {
        return FabricJson.mapper().readTree(c.current().json()).path("linkStates").path(linkId).asText();
    }
}
