package io.weft.telemetry.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.telemetry.config.DetectionProperties;
import io.weft.telemetry.stream.StreamsTuning;
import io.weft.telemetry.stream.TelemetryCounters;
import io.weft.telemetry.stream.TelemetryTopics;
import io.weft.telemetry.stream.TelemetryTopology;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;

/**
 * {@code ./weft bench loop --broker}: the real thing on one machine. A KRaft broker runs in a child
 * JVM ({@link BrokerMain}); the events are produced to weft.telemetry.interfaces first (not timed);
 * then the collector's topology starts in this JVM with two stream threads and the clock runs from
 * its first consumed record to its last. This JVM's heap is the collector's (plus the idle producer).
 */
final class BrokerRun {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    static final String OVERRIDE_PREFIX = "weft.bench.streams.";

    private BrokerRun() {
    }

    static void run(Fabric fabric, Workload w, long events, Map<String, Object> r) throws IOException {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process broker = new ProcessBuilder(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                BrokerMain.class.getName()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String bootstrap = awaitBootstrap(broker);
            // A warm-up share runs before the clock starts, so that the window measures compiled code
            // (without it, JIT compilation of Streams and the collector was most of the process CPU).
            long warmup = Math.min(events / 4, 500_000);
            long[] produced = preload(bootstrap, fabric, w, warmup + events);
            r.put("warmup_events", warmup);
            System.gc();
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                pool.resetPeakUsage();
            }
            measure(bootstrap, fabric, warmup, produced[0], produced[1], broker, r);
        } finally {
            broker.getOutputStream().close(); // BrokerMain stops when its stdin closes
            try {
                if (!broker.waitFor(30, TimeUnit.SECONDS)) {
                    broker.destroy();
                }
            } catch (InterruptedException e) {
                broker.destroy();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** CPU time of the broker's JVM so far (0 where the OS does not say). */
    private static long cpuNs(Process p) {
        return p.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    /** CPU time of this JVM's Kafka Streams threads so far. */
    private static long streamThreadsCpuNs() {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (java.lang.management.ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            // The producers' network threads carry the stream thread's name too: counted apart.
            if (t != null && t.getThreadName().contains("-StreamThread-")
                    && !t.getThreadName().startsWith("kafka-producer-network-thread")) {
                sum += Math.max(0, threads.getThreadCpuTime(t.getThreadId()));
            }
        }
        return sum;
    }

    private static long gcMs() {
        long sum = 0;
        for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, gc.getCollectionTime());
        }
        return sum;
    }

    /** The heap pools' use after their last collection, summed. */
    private static long heapAfterGc() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == java.lang.management.MemoryType.HEAP && pool.getCollectionUsage() != null) {
                sum += pool.getCollectionUsage().getUsed();
            }
        }
        return sum;
    }

    private static String awaitBootstrap(Process broker) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(broker.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = out.readLine()) != null; ) {
            if (line.startsWith("BOOTSTRAP ")) {
                return line.substring("BOOTSTRAP ".length()).trim();
            }
        }
        throw new IllegalStateException("the benchmark broker exited before it was ready");
    }

    /** Produces whole rounds until at least {@code events} events; returns {events, records} produced. */
    private static long[] preload(String bootstrap, Fabric fabric, Workload w, long events) throws IOException {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 16 * 1024 * 1024);
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
            ObjectNode snapshot = MAPPER.createObjectNode().put("schemaVersion", 1).put("fabricId", fabric.id())
                    .put("version", 1);
            snapshot.set("fabric", FabricJson.toTree(fabric));
            producer.send(new ProducerRecord<>("weft.fabric", fabric.id(), MAPPER.writeValueAsBytes(snapshot)));
            long sent = 0;
            long records = 0;
            while (sent < events) {
                for (Workload.Rec rec : w.nextRound()) {
                    producer.send(new ProducerRecord<>("weft.telemetry.interfaces", rec.key(), rec.value()));
                    sent += rec.events();
                    records++;
                }
            }
            producer.flush();
            return new long[] {sent, records};
        }
    }

    private static void measure(String bootstrap, Fabric fabric, long warmup, long events, long records,
                                Process broker, Map<String, Object> r) throws IOException {
        StreamsBuilder b = new StreamsBuilder();
        TelemetryCounters counters = new TelemetryCounters();
        TelemetryTopology.build(b, TelemetryTopics.DEFAULT, DetectionProperties.DEFAULTS, counters, Clock.systemUTC(),
                () -> UUID.randomUUID().toString(), LoopBench.LOAD_INTERVAL);
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "weft-loop-bench-" + UUID.randomUUID());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("weft-loop-bench-state").toString());
        StreamsTuning.apply(p); // as StreamsRunner
        // Experiments without a rebuild: -Dweft.bench.streams.<streams config>=<value> overrides a setting.
        Map<String, String> overrides = new java.util.TreeMap<>();
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith(OVERRIDE_PREFIX)) {
                overrides.put(name.substring(OVERRIDE_PREFIX.length()), System.getProperty(name));
            }
        }
        p.putAll(overrides);
        r.put("streams_overrides", overrides.isEmpty() ? "none (StreamsTuning as the service)" : overrides.toString());
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long firstNs = 0;
        long firstSeen = 0;
        long firstCpu = 0;
        long firstBrokerCpu = 0;
        long firstStreamCpu = 0;
        long firstJitMs = 0;
        long firstGcMs = 0;
        long lastNs = 0;
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        // Heap in use, sampled every 5 ms while the topology runs (the pools' peaks, summed, overstate it:
        // eden, survivor and old peak at different moments).
        java.lang.management.MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long heapUsedMax = 0;
        long heapAfterGcMax = 0;
        try (KafkaStreams streams = new KafkaStreams(b.build(), p)) {
            streams.start();
            while (System.nanoTime() < deadline) {
                heapUsedMax = Math.max(heapUsedMax, memory.getHeapMemoryUsage().getUsed());
                heapAfterGcMax = Math.max(heapAfterGcMax, heapAfterGc());
                long seen = counters.get("interfaces.samples");
                if (firstNs == 0 && seen >= Math.max(1, warmup)) {
                    firstNs = System.nanoTime();
                    firstSeen = seen;
                    firstCpu = os.getProcessCpuTime();
                    firstBrokerCpu = cpuNs(broker);
                    firstStreamCpu = streamThreadsCpuNs();
                    firstJitMs = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
                    firstGcMs = gcMs();
                }
                if (seen >= events) {
                    lastNs = System.nanoTime();
                    break;
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            long cpu = os.getProcessCpuTime() - firstCpu;
            long brokerCpu = cpuNs(broker) - firstBrokerCpu;
            long streamCpu = streamThreadsCpuNs() - firstStreamCpu;
            long jitMs = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - firstJitMs;
            long gcMs = gcMs() - firstGcMs;
            long seenAll = counters.get("interfaces.samples");
            long done = seenAll - firstSeen;
            long wallNs = (lastNs == 0 ? System.nanoTime() : lastNs) - firstNs;
            r.put("mode", "embedded KRaft broker in a child JVM, " + p.get(StreamsConfig.NUM_STREAM_THREADS_CONFIG)
                    + " stream threads");
            r.put("events", done);
            r.put("records_produced", records); // warm-up included
            r.put("wall_s", Math.round(wallNs / 1e7) / 100.0);
            r.put("cpu_s", Math.round(cpu / 1e7) / 100.0);
            r.put("complete", seenAll >= events);
            r.put("ingest_events_per_s", Math.round(done / (wallNs / 1e9)));
            r.put("ingest_events_per_cpu_s", Math.round(done / (cpu / 1e9)));
            // Where the collector's CPU went: the stream threads (poll, process, produce), the JIT compiling
            // the hot code on the fly (no warm-up in this mode), collections (pause time, a lower bound).
            r.put("stream_threads_cpu_s", Math.round(streamCpu / 1e7) / 100.0);
            r.put("ingest_events_per_stream_cpu_s", Math.round(done / (streamCpu / 1e9)));
            r.put("jit_s", Math.round(jitMs / 10.0) / 100.0);
            r.put("gc_pause_s", Math.round(gcMs / 10.0) / 100.0);
            r.put("broker_cpu_s", Math.round(brokerCpu / 1e7) / 100.0);
            // Both JVMs: what two cores must do per event when the broker shares them.
            r.put("ingest_events_per_cpu_s_with_broker", Math.round(done / ((cpu + brokerCpu) / 1e9)));
            r.put("heap_used_max_mb", heapUsedMax / (1024 * 1024));
            // In use right after a collection (the live data, not garbage waiting for the next one).
            r.put("heap_after_gc_max_mb", heapAfterGcMax / (1024 * 1024));
            r.put("dead_letters", counters.get("deadletter.not-json") + counters.get("deadletter.bad-counter"));
            if (seenAll >= events) {
                HotspotLatency.probe(bootstrap, fabric, 100, r);
            }
        }
    }
}
