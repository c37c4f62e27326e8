package io.weft.telemetry.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class StreamsTuningTest {
    private static final String SESSION = StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
    private static final String HEARTBEAT = StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG);

    @Test
    void theClassicProtocolKeepsTheClientSession() {
        Properties p = StreamsTuning.groupProtocol(StreamsTuning.apply(new Properties(), 1000), "classic");
        assertThat(p).containsEntry(SESSION, 1000).containsEntry(HEARTBEAT, 250)
                .doesNotContainKey(StreamsConfig.GROUP_PROTOCOL_CONFIG);
    }

    @Test
    void theStreamsProtocolLeavesTheSessionToTheBroker() {
        Properties p = StreamsTuning.groupProtocol(StreamsTuning.apply(new Properties(), 1000), "streams");
        assertThat(p).containsEntry(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams")
                .doesNotContainKey(SESSION).doesNotContainKey(HEARTBEAT);
        // Accepted by Kafka Streams as a whole.
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        assertThat(new StreamsConfig(p).getString(StreamsConfig.GROUP_PROTOCOL_CONFIG)).isEqualTo("streams");
    }

    @Test
    void anotherProtocolIsRefusedByName() {
        assertThatThrownBy(() -> StreamsTuning.groupProtocol(new Properties(), "consumer"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("classic or streams");
    }
}
