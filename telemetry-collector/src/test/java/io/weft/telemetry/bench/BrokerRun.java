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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.telemetry.config.DetectionProperties;
import io.weft.telemetry.stream.StreamsTuning;
import io.weft.telemetry.stream.TelemetryCounters;
import io.weft.telemetry.stream.TelemetryTopics;
import io.weft.telemetry.stream.TelemetryTopology;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
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
    private static final String JAVA = System.getProperty("java.home") + File.separator + "bin" + File.separator
            + "java";

    private BrokerRun() {
    }

    /**
     * {@code collectors} = 0: the topology in this JVM; N > 0: in N child JVMs of one consumer group
     * ({@link #measureChildren}).
     */
    static void run(Fabric fabric, Workload w, long events, int collectors, boolean pinCores, String brokerCores,
                    long warmupPerInstance, Map<String, Object> r) throws IOException {
        List<String> command = new ArrayList<>();
        if (brokerCores != null) {
            command.addAll(List.of("taskset", "-c", brokerCores));
        }
        command.addAll(List.of(JAVA, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                BrokerMain.class.getName()));
        Process broker = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        r.put("broker_cores", brokerCores == null ? "any" : brokerCores);
        try {
            String bootstrap = awaitBootstrap(broker);
            // A warm-up share runs before the clock starts, so that the window measures compiled code
            // (without it, JIT compilation of Streams and the collector was most of the process CPU).
            // Per instance: each JVM compiles the same code, so N instances with the warm-up of one would each
            // measure with 1/N of its warm-up behind it (JIT CPU per event in the window grew ~2x with two).
            long warmup = warmupPerInstance * Math.max(1, collectors);
            Preloaded produced = preload(bootstrap, fabric, w, warmup + events);
            r.put("warmup_events", warmup);
            System.gc();
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                pool.resetPeakUsage();
            }
            if (collectors > 0) {
                measureChildren(bootstrap, collectors, pinCores, warmup, produced, broker, r);
            } else {
                measure(bootstrap, fabric, warmup, produced.events(), produced.records(), broker, r);
            }
        } finally {
            stop(broker);
        }
    }

    /** Stops a child of this benchmark (BrokerMain, CollectorMain): each ends when its stdin closes. */
    private static void stop(Process child) throws IOException {
        child.getOutputStream().close();
        try {
            if (!child.waitFor(30, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        } catch (InterruptedException e) {
            child.destroyForcibly();
            Thread.currentThread().interrupt();
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

    /** What {@link #preload} produced: events, records, and events per weft.telemetry.interfaces partition. */
    private record Preloaded(long events, long records, AtomicLongArray eventsByPartition) {
    }

    /** Produces whole rounds until at least {@code events} events. */
    private static Preloaded preload(String bootstrap, Fabric fabric, Workload w, long events) throws IOException {
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
            AtomicLongArray byPartition =
                    new AtomicLongArray(producer.partitionsFor("weft.telemetry.interfaces").size());
            while (sent < events) {
                for (Workload.Rec rec : w.nextRound()) {
                    int n = rec.events();
                    producer.send(new ProducerRecord<>("weft.telemetry.interfaces", rec.key(), rec.value()),
                            (m, e) -> {
                                if (e == null) {
                                    byPartition.addAndGet(m.partition(), n);
                                }
                            });
                    sent += n;
                    records++;
                }
            }
            producer.flush();
            return new Preloaded(sent, records, byPartition);
        }
    }

    /**
     * N collector instances, each a child JVM ({@link CollectorMain}: -Xmx512m, the service's
     * StreamsTuning with its two stream threads) under one application id, so one consumer group
     * splits the 12 interface partitions between them. The clock runs from the moment all instances
     * together have consumed the warm-up share (the group has settled by then) until they have
     * consumed every event. Every process shares this machine's cores with the others and the
     * broker, so the wall rate cannot show how instances scale; what can is CPU: each instance's
     * events and process CPU, and {@code events_per_busiest_instance_cpu_s} = all events / the busiest
     * instance's CPU seconds, the rate the group sustains when each instance has cores of its own
     * (with one instance it is its events per CPU second). Compare that figure between
     * {@code --collectors 1} and {@code --collectors 2}. With {@code pinCores} each instance runs on a core
     * of its own (taskset), one instance alone on one core too, so that one and two instances are
     * compared at the same share of the machine each.
     */
    private static void measureChildren(String bootstrap, int n, boolean pinCores, long warmup, Preloaded preloaded,
                                        Process broker, Map<String, Object> r) throws IOException {
        long events = preloaded.events();
        long records = preloaded.records();
        String applicationId = "weft-loop-bench-" + UUID.randomUUID();
        List<Process> children = new ArrayList<>();
        List<AtomicReference<long[]>> progress = new ArrayList<>();
        List<AtomicReference<String>> held = new ArrayList<>();
        List<BlockingQueue<Map<String, Double>>> stats = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                List<String> command = new ArrayList<>();
                if (pinCores) {
                    int core = i % Runtime.getRuntime().availableProcessors();
                    command.addAll(List.of("taskset", "-c", Integer.toString(core)));
                }
                command.addAll(List.of(JAVA, "-Xms512m", "-Xmx512m"));
                overrides().forEach((k, v) -> command.add("-D" + OVERRIDE_PREFIX + k + "=" + v)); // to the children
                command.addAll(LoopBench.childProperties());
                command.addAll(List.of("-cp", System.getProperty("java.class.path"), CollectorMain.class.getName(),
                        bootstrap, applicationId));
                Process c = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
                children.add(c);
                AtomicReference<long[]> latest = new AtomicReference<>(new long[3]);
                progress.add(latest);
                AtomicReference<String> partitionList = new AtomicReference<>("");
                held.add(partitionList);
                BlockingQueue<Map<String, Double>> marks = new LinkedBlockingQueue<>();
                stats.add(marks);
                Thread reader = new Thread(() -> readProgress(c, latest, partitionList, marks),
                        "collector-" + i + "-progress");
                reader.setDaemon(true);
                reader.start();
            }
            long[] first = null;
            long[] firstCpu = new long[n];
            long firstBrokerCpu = 0;
            long firstNs = 0;
            long lastNs = 0;
            long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            long[] now = new long[n];
            long[] cpu = new long[n];
            int[] partitions = new int[n];
            while (System.nanoTime() < deadline) {
                long total = 0;
                for (int i = 0; i < n; i++) {
                    long[] p = progress.get(i).get();
                    now[i] = p[0];
                    cpu[i] = p[1];
                    partitions[i] = (int) p[2];
                    total += p[0];
                }
                if (first == null && total >= Math.max(1, warmup)) {
                    firstNs = System.nanoTime();
                    first = now.clone();
                    System.arraycopy(cpu, 0, firstCpu, 0, n);
                    firstBrokerCpu = cpuNs(broker);
                    mark(children);
                }
                if (total >= events) {
                    lastNs = System.nanoTime();
                    mark(children);
                    break;
                }
                sleep(5);
            }
            if (first == null) {
                throw new IllegalStateException("the collectors did not get through the warm-up in 10 minutes");
            }
            long brokerCpu = cpuNs(broker) - firstBrokerCpu;
            long wallNs = (lastNs == 0 ? System.nanoTime() : lastNs) - firstNs;
            long done = 0;
            long cpuAll = 0;
            long busiest = 0;
            long busiestWithoutJit = 0;
            long mostEvents = 0;
            // The group's rate with a core per instance: the slowest to finish its share of the workload (by the
            // partitions it holds) sets it. The window's event split is not that share: an instance that got less
            // CPU in the window (its core carried more of the broker) consumed fewer events of the same backlog.
            double slowestNsPerEvent = 0;
            double slowestNsPerEventWithoutJit = 0;
            long allEvents = 0;
            for (int p = 0; p < preloaded.eventsByPartition().length(); p++) {
                allEvents += preloaded.eventsByPartition().get(p);
            }
            List<Map<String, Object>> instances = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long e = now[i] - first[i];
                long c = cpu[i] - firstCpu[i];
                done += e;
                mostEvents = Math.max(mostEvents, e);
                cpuAll += c;
                busiest = Math.max(busiest, c);
                Map<String, Double> start = poll(stats.get(i));
                Map<String, Double> end = lastNs == 0 ? null : poll(stats.get(i));
                // The compilers' CPU from the counters taken at the window's two ends (read from /proc).
                long j = start == null || end == null ? 0
                        : Math.round(end.getOrDefault("cpu_ns.jit", 0.0) - start.getOrDefault("cpu_ns.jit", 0.0));
                busiestWithoutJit = Math.max(busiestWithoutJit, c - j);
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("events", e);
                one.put("cpu_s", Math.round(c / 1e7) / 100.0);
                one.put("events_per_cpu_s", Math.round(e / (c / 1e9)));
                one.put("jit_cpu_s", Math.round(j / 1e7) / 100.0);
                one.put("events_per_cpu_s_without_jit", Math.round(e / ((c - j) / 1e9)));
                one.put("interface_partitions", partitions[i]);
                double share = 0;
                for (String part : held.get(i).get().split(",")) {
                    if (!part.isEmpty()) {
                        share += (double) preloaded.eventsByPartition().get(Integer.parseInt(part)) / allEvents;
                    }
                }
                one.put("workload_share", Math.round(1000 * share) / 1000.0);
                slowestNsPerEvent = Math.max(slowestNsPerEvent, share * c / e);
                slowestNsPerEventWithoutJit = Math.max(slowestNsPerEventWithoutJit, share * (c - j) / e);
                if (start != null && end != null) {
                    one.putAll(InstanceStats.perInstance(start, end, e, wallNs / 1e9));
                }
                instances.add(one);
            }
            r.put("mode", n + " collector JVM(s) as child processes (-Xmx512m, " + StreamsTuning.STREAM_THREADS
                    + " stream threads each), one consumer group (one application id), the 12 interface partitions "
                    + "split between them; embedded KRaft broker in another child JVM; all on this machine's cores");
            r.put("collectors", n);
            r.put("pinned_cores", pinCores ? "collector i on core i mod " + Runtime.getRuntime().availableProcessors()
                    + " (taskset); the broker on any" : "no");
            r.put("streams_overrides", overrides().isEmpty() ? "none (StreamsTuning as the service)"
                    : overrides().toString());
            r.put("events", done);
            r.put("records_produced", records); // warm-up included
            r.put("wall_s", Math.round(wallNs / 1e7) / 100.0);
            r.put("complete", lastNs != 0);
            r.put("ingest_events_per_s", Math.round(done / (wallNs / 1e9)));
            r.put("cpu_s", Math.round(cpuAll / 1e7) / 100.0);
            r.put("ingest_events_per_cpu_s", Math.round(done / (cpuAll / 1e9)));
            // How evenly the partitions spread the switches: with N instances the group can be at most
            // 1 / share times as fast as one, whatever each instance's efficiency.
            r.put("largest_instance_event_share", Math.round(1000.0 * mostEvents / Math.max(1, done)) / 1000.0);
            r.put("events_per_busiest_instance_cpu_s", Math.round(done / (busiest / 1e9)));
            // The JIT compiles the same code in every JVM: per instance, not per event (see CollectorMain).
            r.put("events_per_busiest_instance_cpu_s_without_jit", Math.round(done / (busiestWithoutJit / 1e9)));
            // Each instance at its own events per CPU second over its share of the partitions' events, a core each.
            r.put("group_events_per_s_core_each", Math.round(1e9 / slowestNsPerEvent));
            r.put("group_events_per_s_core_each_without_jit", Math.round(1e9 / slowestNsPerEventWithoutJit));
            r.put("instances", instances);
            r.put("broker_cpu_s", Math.round(brokerCpu / 1e7) / 100.0);
            r.put("ingest_events_per_cpu_s_with_broker", Math.round(done / ((cpuAll + brokerCpu) / 1e9)));
        } finally {
            for (Process c : children) {
                stop(c);
            }
        }
    }

    /** Experiments without a rebuild: -Dweft.bench.streams.<streams config>=<value> overrides a setting. */
    static Map<String, String> overrides() {
        Map<String, String> overrides = new java.util.TreeMap<>();
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith(OVERRIDE_PREFIX)) {
                overrides.put(name.substring(OVERRIDE_PREFIX.length()), System.getProperty(name));
            }
        }
        return overrides;
    }

    /** Asks every collector child for its {@link InstanceStats} counters (answered on its stdout). */
    private static void mark(List<Process> children) throws IOException {
        for (Process c : children) {
            c.getOutputStream().write("MARK\n".getBytes(StandardCharsets.UTF_8));
            c.getOutputStream().flush();
        }
    }

    private static Map<String, Double> poll(BlockingQueue<Map<String, Double>> marks) {
        try {
            return marks.poll(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Keeps the latest {@code PROGRESS samples cpuNs partitions} line of a collector child, queues its STATS. */
    private static void readProgress(Process c, AtomicReference<long[]> latest, AtomicReference<String> partitions,
                                     BlockingQueue<Map<String, Double>> marks) {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(c.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith("PROGRESS ")) {
                    String[] f = line.split(" ");
                    latest.set(new long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])});
                    partitions.set(f.length > 4 ? f[4] : "");
                } else if (line.startsWith("STATS")) {
                    marks.add(InstanceStats.parse(line));
                }
            }
        } catch (IOException e) {
            // the child ended
        }
    }

    /** Records in a topic: the sum of its partitions' end offsets. */
    private static long endOffsets(String bootstrap, String topic) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
            var topics = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS);
            for (TopicPartitionInfo info : topics.get(topic).partitions()) {
                latest.put(new TopicPartition(topic, info.partition()), OffsetSpec.latest());
            }
            long sum = 0;
            for (var o : admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values()) {
                sum += o.offset();
            }
            return sum;
        } catch (Exception e) {
            throw new IllegalStateException("end offsets of " + topic + ": " + e, e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void measure(String bootstrap, Fabric fabric, long warmup, long events, long records,
                                Process broker, Map<String, Object> r) throws IOException {
        StreamsBuilder b = new StreamsBuilder();
        TelemetryCounters counters = new TelemetryCounters();
        TelemetryTopology.build(b, TelemetryTopics.DEFAULT, DetectionProperties.DEFAULTS, counters, Clock.systemUTC(),
                () -> UUID.randomUUID().toString(), LoopBench.loadInterval(), LoopBench.stateSaves());
        Properties p = new Properties();
        String applicationId = "weft-loop-bench-" + UUID.randomUUID();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("weft-loop-bench-state").toString());
        StreamsTuning.apply(p); // as StreamsRunner
        Map<String, String> overrides = overrides();
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
        long firstJitCpu = 0;
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
                    firstJitCpu = CollectorMain.compilerCpuNs();
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
            long jitCpu = CollectorMain.compilerCpuNs() - firstJitCpu;
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
            // jit_s is the compilers' elapsed time (it grows while they wait for a core); this is their CPU.
            // A service compiles once in days of running, a run of seconds throughout: the rate without it is
            // the steady state's.
            r.put("jit_cpu_s", Math.round(jitCpu / 1e7) / 100.0);
            r.put("ingest_events_per_cpu_s_without_jit", Math.round(done / ((cpu - jitCpu) / 1e9)));
            r.put("gc_pause_s", Math.round(gcMs / 10.0) / 100.0);
            r.put("broker_cpu_s", Math.round(brokerCpu / 1e7) / 100.0);
            // Both JVMs: what two cores must do per event when the broker shares them.
            r.put("ingest_events_per_cpu_s_with_broker", Math.round(done / ((cpu + brokerCpu) / 1e9)));
            r.put("heap_used_max_mb", heapUsedMax / (1024 * 1024));
            // In use right after a collection (the live data, not garbage waiting for the next one).
            r.put("heap_after_gc_max_mb", heapAfterGcMax / (1024 * 1024));
            r.put("dead_letters", counters.get("deadletter.not-json") + counters.get("deadletter.bad-counter"));
            // The state saves' changelog records over every event (warm-up included, as it ran under the same clock).
            String changelogTopic = applicationId + "-" + TelemetryTopology.DIRECTIONS_STORE + "-changelog";
            long changelog = endOffsets(bootstrap, changelogTopic);
            r.put("changelog_records_per_event", Math.round(1000.0 * changelog / Math.max(1, seenAll)) / 1000.0);
            if (seenAll >= events) {
                HotspotLatency.probe(bootstrap, fabric, 100, r);
            }
        }
    }
}
