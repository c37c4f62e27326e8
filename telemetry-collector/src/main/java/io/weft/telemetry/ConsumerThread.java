package io.weft.telemetry;

import java.time.Duration;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.errors.WakeupException;

/**
 * One Kafka {@link Consumer} driven by its own daemon thread, for the service's plain consumers (the
 * live feed and the history writer). {@link #stop()} wakes a blocked poll and waits for the loop to
 * end; the consumer is closed on its own thread, even when that wait times out (a slow first
 * rebalance on a loaded machine), since a consumer must not be used from two threads.
 */
public final class ConsumerThread<K, V> {
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    /** The poll loop: runs while {@link #running()}; a {@link WakeupException} out of it is the stop. */
    @FunctionalInterface
    public interface Loop<K, V> {
        void run(Consumer<K, V> consumer) throws InterruptedException;
    }

    private final String threadName;
    private volatile Consumer<K, V> consumer;
    private volatile Thread thread;
    private volatile boolean running;

    public ConsumerThread(String threadName) {
        this.threadName = threadName;
    }

    /** Starts {@code loop} on a new daemon thread that owns {@code c} from now on. */
    public void start(Consumer<K, V> c, Loop<K, V> loop) {
        consumer = c;
        running = true;
        Thread t = new Thread(() -> {
            try {
                loop.run(c);
            } catch (WakeupException e) {
                // stop() was called
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                c.close(CLOSE_TIMEOUT);
            }
        }, threadName);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** False once {@link #stop()} was called (or before {@link #start}): the loop's condition. */
    public boolean running() {
        return running;
    }

    /** Ends the loop: wakes the consumer out of a poll and waits up to 10 s for the thread. */
    public void stop() {
        running = false;
        Consumer<K, V> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        Thread t = thread;
        if (t != null) {
            try {
                t.join(JOIN_TIMEOUT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        thread = null;
    }
}
