package io.weft.controller.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.FabricJson;
import io.weft.plan.FabricPlan;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotKeeperTest {
    @TempDir
    Path dir;

    private Path file;
    private final RecordingSink sink = new RecordingSink();
    private final List<String> infos = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    @BeforeEach
    void writeFabric() throws Exception {
        file = dir.resolve("fabric.json");
        TestFabrics.write(file, TestFabrics.leafSpine("fab", 3, 2, 400));
    }

    private SnapshotKeeper controller() {
        return new SnapshotKeeper(file, new SnapshotStore(dir.resolve("state")), sink, infos::add, problems::add);
    }

    @Test
    void theFirstPlanIsPublishedAsVersionOneKeyedByFabricId() throws Exception {
        SnapshotKeeper c = controller();
        c.start();

        assertThat(sink.published).hasSize(1);
        JsonNode snapshot = sink.latest("fab");
        assertThat(snapshot.path("fabricId").asText()).isEqualTo("fab");
        assertThat(snapshot.path("version").asLong()).isEqualTo(1);
        assertThat(snapshot.path("fabric").path("nodes")).hasSize(8);
        assertThat(snapshot.path("plan").isObject()).isTrue();
        assertThat(c.current().version()).isEqualTo(1);
        assertThat(FabricJson.mapper().readTree(c.current().json())).isEqualTo(snapshot);
        assertThat(c.status()).containsEntry("status", "ok").containsEntry("kafka", "published");
    }

    @Test
    void anEditIsReplannedWithStableIdsAndTheNextVersion() throws Exception {
        SnapshotKeeper c = controller();
        c.start();
        Map<String, Integer> before = c.current().plan().nodeIds();

        // Remove spine1 and add leaf4: every surviving switch must keep its uN id.
        TestFabrics.write(file, TestFabrics.leafSpine("fab",
                TestFabrics.range("leaf", 1, 4), new String[] {"spine2"}, 400));
        assertThat(c.onFileChanged()).isTrue();

        FabricPlan after = c.current().plan();
        assertThat(c.current().version()).isEqualTo(2);
        assertThat(sink.latest("fab").path("version").asLong()).isEqualTo(2);
        for (String sw : List.of("leaf1", "leaf2", "leaf3", "spine2")) {
            assertThat(after.nodeId(sw)).as(sw).isEqualTo(before.get(sw));
        }
        assertThat(after.nodeIds()).containsKey("leaf4").doesNotContainKey("spine1");
        assertThat(after.nodeIds().values()).doesNotHaveDuplicates();
    }

    @Test
    void anUnchangedFileDoesNotMakeANewVersion() throws Exception {
        SnapshotKeeper c = controller();
        c.start();
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 5000));

        assertThat(c.onFileChanged()).isFalse();
        assertThat(sink.published).hasSize(1);
    }

    @Test
    void aBadEditIsReportedAndTheLastGoodSnapshotStays() throws Exception {
        SnapshotKeeper c = controller();
        c.start();
        String good = Files.readString(file);

        TestFabrics.write(file, good.replace("\"capacityGbps\" : 400", "\"capacityGbps\" : -1"));
        assertThat(c.onFileChanged()).isFalse();

        assertThat(c.current().version()).isEqualTo(1);
        assertThat(sink.published).hasSize(1);
        assertThat(problems).singleElement().asString()
                .startsWith(file + ": ").contains("capacityGbps").endsWith("; still serving version 1");
        assertThat(c.status()).containsEntry("status", "degraded");
        assertThat((String) c.status().get("lastError")).contains("capacityGbps");

        TestFabrics.write(file, good); // undone: same fabric as served, so no new version, and healthy again
        assertThat(c.onFileChanged()).isFalse();
        assertThat(c.status()).containsEntry("status", "ok").containsEntry("lastError", null);
    }

    @Test
    void anUnusableFileAtStartIsOneLine() throws Exception {
        TestFabrics.write(file, "{\"schemaVersion\": 1, \"id\": \"x\"");

        assertThatThrownBy(() -> controller().start())
                .isInstanceOf(FabricFileException.class)
                .hasMessageStartingWith(file + ": not valid JSON")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(sink.published).isEmpty();
    }

    @Test
    void structuralProblemsAreNamedFromTheValidator() throws Exception {
        TestFabrics.write(file, TestFabrics.leafSpine("fab", 2, 1, 400)
                .replace("\"node\" : \"spine1\"", "\"node\" : \"ghost\""));

        assertThatThrownBy(() -> controller().start())
                .isInstanceOf(FabricFileException.class)
                .hasMessageContaining("ghost");
    }

    @Test
    void aRestartContinuesTheVersionAndKeepsIdsFromTheStateDirectory() throws Exception {
        SnapshotKeeper first = controller();
        first.start();
        TestFabrics.write(file, TestFabrics.leafSpine("fab", 3, 2, 800));
        first.onFileChanged();
        Map<String, Integer> ids = first.current().plan().nodeIds();

        // Without Kafka: only the state directory remembers.
        SnapshotKeeper second = new SnapshotKeeper(file, new SnapshotStore(dir.resolve("state")), null,
                infos::add, problems::add);
        second.start();

        assertThat(second.current().version()).isEqualTo(3);
        assertThat(second.current().plan().nodeIds()).isEqualTo(ids);
        assertThat(second.status()).containsEntry("kafka", "disabled");
    }

    @Test
    void aRestartTakesTheNewerOfKafkaAndTheStateDirectory() throws Exception {
        controller().start(); // version 1 in the state dir and the sink
        JsonNode newer = ((ObjectNode) sink.latest("fab").deepCopy()).put("version", 41);
        sink.latest.put("fab", newer);

        SnapshotKeeper restarted = controller();
        restarted.start();

        assertThat(restarted.current().version()).isEqualTo(42);
    }

    @Test
    void aFailedPublishIsRetriedAndReportedUntilItSucceeds() throws Exception {
        sink.failing = true;
        SnapshotKeeper c = controller();
        c.start();

        assertThat(c.current().version()).isEqualTo(1); // still served over HTTP
        assertThat(c.status()).containsEntry("kafka", "pending").containsEntry("status", "degraded");
        assertThat(problems).singleElement().asString().contains("broker unreachable");

        c.retryPublish();
        assertThat(problems).hasSize(1); // reported once, not on every retry
        sink.failing = false;
        c.retryPublish();

        assertThat(sink.published).extracting(s -> s.path("version").asLong()).containsExactly(1L);
        assertThat(c.status()).containsEntry("kafka", "published").containsEntry("status", "ok");
    }

    @Test
    void drainingALinkPublishesTheNextVersionWithItsState() throws Exception {
        SnapshotKeeper c = controller();
        c.start();

        assertThat(c.setDrained("leaf1-spine1", true).version()).isEqualTo(2);
        assertThat(c.setDrained("leaf1-spine1", true).version()).isEqualTo(2); // already drained: no new version
        assertThat(sink.latest("fab").path("linkStates").path("leaf1-spine1").asText()).isEqualTo("drained");
        assertThat(sink.latest("fab").path("linkStates").path("leaf2-spine1").asText()).isEqualTo("up");

        assertThat(c.setDrained("leaf1-spine1", false).version()).isEqualTo(3);
        assertThat(sink.latest("fab").path("linkStates").path("leaf1-spine1").asText()).isEqualTo("up");
        assertThatThrownBy(() -> c.setDrained("nope", true)).hasMessage("link \"nope\" is not in the fabric");
    }

    @Test
    void downFromTelemetryWinsOverDrainedAndUnknownLinksAreIgnored() throws Exception {
        SnapshotKeeper c = controller();
        c.start();
        c.setDrained("leaf1-spine1", true);

        c.setDown("leaf1-spine1", true);
        assertThat(sink.latest("fab").path("linkStates").path("leaf1-spine1").asText()).isEqualTo("down");
        c.setDown("leaf1-spine1", false);
        assertThat(sink.latest("fab").path("linkStates").path("leaf1-spine1").asText()).isEqualTo("drained");

        c.setDown("ghost-link", true);
        assertThat(problems).singleElement().asString().contains("ghost-link");
        assertThat(c.current().version()).isEqualTo(4);
    }

    @Test
    void linkStatesSurviveARestartAndLeaveWithTheirLink() throws Exception {
        SnapshotKeeper first = controller();
        first.start();
        first.setDrained("leaf1-spine2", true);
        first.setDown("leaf2-spine1", true);

        SnapshotKeeper second = new SnapshotKeeper(file, new SnapshotStore(dir.resolve("state")), null,
                infos::add, problems::add);
        second.start();
        JsonNode states = FabricJson.mapper().readTree(second.current().json()).path("linkStates");
        assertThat(states.path("leaf1-spine2").asText()).isEqualTo("drained");
        assertThat(states.path("leaf2-spine1").asText()).isEqualTo("down");

        // spine2 leaves the fabric: its drained link is gone, the other state stays.
        TestFabrics.write(file, TestFabrics.leafSpine("fab", TestFabrics.range("leaf", 1, 3),
                new String[] {"spine1"}, 400));
        assertThat(second.onFileChanged()).isTrue();
        states = FabricJson.mapper().readTree(second.current().json()).path("linkStates");
        assertThat(states.has("leaf1-spine2")).isFalse();
        assertThat(states.path("leaf2-spine1").asText()).isEqualTo("down");
        assertThat(second.setDrained("leaf1-spine1", true).version()).isEqualTo(second.current().version());
    }
}
