package io.weft.telemetry.stream;

import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The Kafka Streams settings the collector runs with, in one place so that the service and
 * {@code ./weft bench loop --broker} measure the same thing. Every sample of every switch port passes
 * here; loads leave at most once per measured direction per second of sample time (~1.3 records per
 * event when gnmic samples once a second, ~0.13 at 100 ms): the settings favour few large requests,
 * but never hold a hotspot event back.
 *
 * <p>Measured rather than guessed ({@code -Dweft.bench.streams.<config>=<value>} on the broker bench,
 * 32 events per record, 100 ms sampling, 2 M events, against runs of these settings around them,
 * which themselves spread 128-147 k events per collector CPU second): compression none 148 k,
 * linger.ms 5 150 k (hotspot p50 3.8 -> 8.6 ms), max.poll.records 1000 135 k, one stream thread
 * 124 k (and 93 k/s wall against 130 k): nothing beat the noise, so nothing changed. Compression none
 * again with one event per record at 1 s sampling (1.33 loads per event; lz4's two 64 KiB buffers per
 * producer batch show in that profile): ahead by 26-43 % in four pairs whose lz4 run met the higher
 * machine load, -17 % to +11 % in three pairs at even load: no gain shown, lz4 stays.
 */
public final class StreamsTuning {
    /** Stream threads: one per core of the 2-core target (weft.telemetry.interfaces has 12 partitions). */
    public static final int STREAM_THREADS = 2;

    private StreamsTuning() {
    }

    /** What a stock broker accepts (its group.min.session.timeout.ms default). */
    public static final long DEFAULT_SESSION_TIMEOUT_MS = 6_000;

    /** {@link #apply(Properties, long)} with the session timeout every broker accepts. */
    public static Properties apply(Properties p) {
        return apply(p, DEFAULT_SESSION_TIMEOUT_MS);
    }

    /** Heartbeats four times per session timeout (at least every 100 ms): one lost heartbeat is no loss. */
    public static int heartbeatIntervalMs(long sessionTimeoutMs) {
        return (int) Math.max(100, sessionTimeoutMs / 4);
    }

    /**
     * Adds the throughput and failover settings (not the application id, servers or state dir) to
     * {@code p}; {@code sessionTimeoutMs} must be at least the broker's group.min.session.timeout.ms.
     */
    public static Properties apply(Properties p, long sessionTimeoutMs) {
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, STREAM_THREADS);
        // Hotspot events are latency-sensitive: wait at most 1 ms to fill a batch. Under load, batches
        // fill while the sender is busy anyway, so a longer linger buys little throughput.
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 1);
        // Large batches (the default 16 KiB holds ~45 loads) so that a busy second is a few requests.
        p.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), 256 * 1024);
        // JSON loads compress ~5x with lz4 for little CPU: fewer bytes through the broker and the log.
        p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
        // One record per second per switch port arrives; poll them in big bites, one task pass each.
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), 5000);
        // fetch.min.bytes stays 1: a larger minimum made the broker hold a lone hot sample for
        // fetch.max.wait.ms (hotspot p50 3 -> 10 ms measured); under load fetches are large anyway.
        // Commit (flush the producer, commit offsets) once a second: at-least-once, a crash replays <= 1 s,
        // the same horizon as LinkProcessor's save of changed decisions (measurements alone: every 10 s).
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 1000);
        // No join here, so no task must wait to interleave its partitions by timestamp: -1 skips that
        // check, which the profile showed on every record (PartitionGroup.readyToProcess, ~6 %).
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        // No store of this topology is cached (the link state is saved by hand, see LinkProcessor; the flow
        // view must be readable at once): the record cache would only cost memory.
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0L);
        // A collector that dies without leaving the group (kill -9, a lost node) keeps its partitions, and
        // their hotspots undetected, until its session times out; only then does the group rebalance.
        // Heartbeats come from the consumer's own thread, so a slow task pass does not count; a GC pause
        // or a starved machine does, which is why the timeout is not lower still.
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), (int) sessionTimeoutMs);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG),
                heartbeatIntervalMs(sessionTimeoutMs));
        // No standby copies (num.standby.replicas stays 0): the link-direction state is small (one entry per
        // measured direction), so a survivor restores a taken-over partition from the changelog in far less
        // than the session timeout. Measured with two instances: the kill -9 gap was the same with a standby
        // (2.8-4.5 s) as without (2.5 s), while keeping it cost each instance ~10 % of its events per CPU second.
        return p;
    }

    /**
     * Selects the group protocol: {@code classic} leaves {@code p} as {@link #apply(Properties, long)} made
     * it; {@code streams} (KIP-1071) lets the broker assign the tasks, heartbeat by heartbeat, with no
     * join/sync round in which every member stops; the session timeout and heartbeat interval are then the
     * broker's (group.streams.*), so the client's are removed rather than left to look as if they applied.
     */
    public static Properties groupProtocol(Properties p, String protocol) {
        switch (protocol) {
            case "classic" -> {
                return p;
            }
            case "streams" -> {
                p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
                p.remove(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG));
                p.remove(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG));
                return p;
            }
            default -> throw new IllegalArgumentException("group protocol: classic or streams (got " + protocol + ")");
        }
    }
}
