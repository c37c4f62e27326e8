package io.weft.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ConsumerThreadTest {
    @Test
    void stopWakesABlockedPollEndsTheLoopAndClosesTheConsumerOnItsThread() throws Exception {
        MockConsumer<String, String> consumer = new MockConsumer<>("earliest");
        TopicPartition tp = new TopicPartition("t", 0);
        consumer.assign(List.of(tp));
        consumer.updateBeginningOffsets(Map.of(tp, 0L));
        ConsumerThread<String, String> thread = new ConsumerThread<>("test-consumer");
        CountDownLatch polling = new CountDownLatch(1);
        AtomicInteger polls = new AtomicInteger();
        thread.start(consumer, c -> {
            while (thread.running()) {
                c.poll(Duration.ofMillis(50));
                polls.incrementAndGet();
                polling.countDown();
            }
        });
        assertThat(polling.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(thread.running()).isTrue();

        thread.stop();

        assertThat(thread.running()).isFalse();
        assertThat(consumer.closed()).isTrue();
        int after = polls.get();
        Thread.sleep(100);
        assertThat(polls.get()).as("no poll after stop").isEqualTo(after);
    }

    @Test
    void anInterruptedLoopStillClosesItsConsumer() throws Exception {
        MockConsumer<String, String> consumer = new MockConsumer<>("earliest");
        ConsumerThread<String, String> thread = new ConsumerThread<>("test-consumer");
        CountDownLatch ended = new CountDownLatch(1);
        thread.start(consumer, c -> {
            try {
                throw new InterruptedException("test");
            } finally {
                ended.countDown();
            }
        });
        assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
        thread.stop();
        assertThat(consumer.closed()).isTrue();
    }
}
