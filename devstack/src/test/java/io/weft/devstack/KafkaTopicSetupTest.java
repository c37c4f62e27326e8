package io.weft.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class KafkaTopicSetupTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void readsACatalogueResource() {
        List<TopicSpec> specs = KafkaTopicSetup.fromResource("/io/weft/devstack/test-topics.json");

        assertThat(specs).extracting(TopicSpec::name)
                .containsExactly("devstack-test.snapshots", "devstack-test.events");
        assertThat(specs.get(0).config()).containsEntry("cleanup.policy", "compact")
                .containsEntry("min.compaction.lag.ms", "0");
        assertThat(specs.get(1).partitions()).isEqualTo(3);
        assertThat(specs.get(1).replicationFactor()).isEqualTo((short) 1);
    }

    @Test
    void partitionsAndReplicationDefaultToOne() throws Exception {
        List<TopicSpec> specs = KafkaTopicSetup.parse(json.readTree("{\"topics\":[{\"name\":\"a\"}]}"), "t.json");

        assertThat(specs).containsExactly(new TopicSpec("a", 1, (short) 1, Map.of()));
    }

    @Test
    void badEntriesAreRejectedNamingTheField() {
        assertThatThrownBy(() -> KafkaTopicSetup.parse(json.readTree("{\"topics\":{}}"), "t.json"))
                .hasMessage("t.json: $.topics: must be an array");
        assertThatThrownBy(() -> KafkaTopicSetup.parse(json.readTree("{\"topics\":[{\"partitions\":1}]}"), "t.json"))
                .hasMessage("t.json: $.topics[0].name: must be a string");
        assertThatThrownBy(() -> KafkaTopicSetup.parse(json.readTree("{\"topics\":[{\"name\":\"a\",\"partitions\":"
                + "\"3\"}]}"), "t.json"))
                .hasMessage("t.json: $.topics[0].partitions: must be an integer");
        assertThatThrownBy(() -> KafkaTopicSetup.parse(
                json.readTree("{\"topics\":[{\"name\":\"a\",\"partitions\":0}]}"), "t.json"))
                .hasMessage("t.json: $.topics[0]: a.partitions: must be >= 1, got 0");
        assertThatThrownBy(() -> KafkaTopicSetup.parse(json.readTree("{\"topics\":[{\"name\":\"a\",\"config\":{\"x\":"
                + "{}}}]}"), "t.json"))
                .hasMessage("t.json: $.topics[0].config.x: must be a string or number");
    }

    @Test
    void aMissingResourceIsNamed() {
        assertThatThrownBy(() -> KafkaTopicSetup.fromResource("/nope.json"))
                .isInstanceOf(DevstackException.class)
                .hasMessage("topic catalogue /nope.json is not on the classpath");
    }
}
