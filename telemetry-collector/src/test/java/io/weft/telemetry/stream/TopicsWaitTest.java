package io.weft.telemetry.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

import io.weft.auth.KafkaClientSecurity;
import io.weft.contracts.Topics;
import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.WeftDevstackTest;
import org.junit.jupiter.api.Test;

/** The collector's start waits for its topics, and gives up (to start anyway) after its timeout. */
@WeftDevstackTest
class TopicsWaitTest {
    private static final Duration RETRY = Duration.ofMillis(300);
    private static final KafkaClientSecurity PLAIN = KafkaClientSecurity.plaintext();

    @Test
    void returnsAtOnceWhenEveryTopicExists(DevstackEndpoints devstack) throws Exception {
        long t0 = System.nanoTime();
        assertThat(TopicsWait.await(devstack.kafkaBootstrapServers(), PLAIN, List.of(Topics.FABRIC, Topics.HOTSPOTS),
                Duration.ofSeconds(30), RETRY)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    void givesUpOnAMissingTopicAfterTheTimeout(DevstackEndpoints devstack) throws Exception {
        assertThat(TopicsWait.await(devstack.kafkaBootstrapServers(), PLAIN,
                List.of(Topics.FABRIC, "weft.no-such-topic"), Duration.ofSeconds(1), RETRY)).isFalse();
    }

    @Test
    void givesUpOnAKafkaThatNeverAnswers() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        assertThat(TopicsWait.await("127.0.0.1:" + closed, PLAIN, List.of(Topics.FABRIC), Duration.ofSeconds(1), RETRY))
                .isFalse();
    }
}
