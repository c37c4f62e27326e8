package io.weft.telemetry.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.contracts.LinkLoad;
import io.weft.contracts.TopicValue;
import io.weft.fabric.Endpoint;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;
import io.weft.fabric.Role;
import io.weft.lab.fabric.FabricGenerators;
import io.weft.telemetry.GnmicEventParser;
import io.weft.telemetry.InterfaceSample;
import io.weft.telemetry.TelemetryFormatException;
import io.weft.telemetry.config.DetectionProperties;
import io.weft.telemetry.stream.InterfaceDirectionIndex;
import io.weft.telemetry.stream.LinkDirection;
import io.weft.telemetry.stream.MeasuredArc;
import io.weft.telemetry.stream.TelemetryCounters;
import io.weft.telemetry.stream.TelemetryTopics;
import io.weft.telemetry.stream.TelemetryTopology;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code ./weft bench loop}: ingest throughput of the collector's topology, in process, through a
 * {@link TopologyTestDriver} (no broker: this measures the collector's own CPU cost per gnmic event
 * — parse, fabric lookup, state store read/write with its binary serde, rate, detection, output
 * serialisation — not Kafka's network path). Every switch port of a generated leaf-spine fabric
 * reports one gnmic event per round (out-octets, out-pkts, out-discards, oper-status), utilisations
 * drifting so that some links go hot and cool down. Record generation and output draining are not
 * timed; piping the records through the topology is.
 *
 * <p>The closed-loop latency (hotspot event to the NIC agent's new version) needs the re-placement
 * in scheduler-api, which does not exist yet: loop_p50_ms / loop_p99_ms are printed as null.
 *
 * <p>With {@code --broker} the events go through a real broker instead ({@link BrokerRun}).
 *
 * <p>Options: {@code --json} (one JSON object), {@code --events N} (default 2,000,000),
 * {@code --quick} (200,000 events), {@code --broker}, {@code --events-per-record N} (default 1: one
 * port's event per record; N groups up to N ports of one switch into one gnmic array, see
 * {@link Workload}), {@code --sample-interval-ms N} (default 1000: sample time between two rounds
 * of every port; gnmic on an AI fabric samples every 100-1000 ms), {@code --leaves L --spines S}
 * (default 32 x 16), {@code --fat-tree-k K} (a k-ary fat-tree instead).
 */
public final class LoopBench {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** System property (set by --links-load-interval-ms, passed on to collector children) of {@link #loadInterval}. */
    static final String LOAD_INTERVAL_PROPERTY = "weft.bench.links-load-interval-ms";

    /** As the service runs (application.yml links-load-interval-ms, 1000) unless --links-load-interval-ms says. */
    static Duration loadInterval() {
        return Duration.ofMillis(Long.getLong(LOAD_INTERVAL_PROPERTY, 1000));
    }

    /** System properties (set by --save-interval-ms / --measurements-save-every, passed on to children). */
    static final String SAVE_INTERVAL_PROPERTY = "weft.bench.save-interval-ms";
    static final String MEASUREMENTS_SAVE_EVERY_PROPERTY = "weft.bench.measurements-save-every";

    /** The link-direction state saves, as the service's unless --save-interval-ms / --measurements-save-every say. */
    static TelemetryTopology.StateSaves stateSaves() {
        TelemetryTopology.StateSaves service = TelemetryTopology.StateSaves.SERVICE;
        return new TelemetryTopology.StateSaves(
                Duration.ofMillis(Long.getLong(SAVE_INTERVAL_PROPERTY, service.interval().toMillis())),
                Integer.getInteger(MEASUREMENTS_SAVE_EVERY_PROPERTY, service.measurementsEvery()));
    }

    /** The -D options that carry this run's settings to a collector child JVM. */
    static List<String> childProperties() {
        return List.of("-D" + LOAD_INTERVAL_PROPERTY + "=" + loadInterval().toMillis(),
                "-D" + SAVE_INTERVAL_PROPERTY + "=" + stateSaves().interval().toMillis(),
                "-D" + MEASUREMENTS_SAVE_EVERY_PROPERTY + "=" + stateSaves().measurementsEvery());
    }

    private LoopBench() {
    }

    /** The command line of {@code ./weft bench loop}; --quick changes the event count when not given. */
    @Command(name = "weft bench loop", sortOptions = false,
            description = "The collector's Streams topology over gnmic events: throughput and detection.")
    static final class Flags {
        @Option(names = "--json", description = "one JSON object")
        boolean json;

        @Option(names = "--quick", description = "200000 events")
        boolean quick;

        @Option(names = "--broker", description = "through the in-process broker, not the test driver")
        boolean broker;

        @Option(names = "--collectors", paramLabel = "N",
                description = "with --broker: N collector child JVMs in one consumer group (default 0: in this JVM)")
        int collectors;

        @Option(names = "--pin-cores", description = "with --collectors: collector i on core i mod cores (taskset)")
        boolean pinCores;

        @Option(names = "--broker-cores", paramLabel = "LIST",
                description = "with --broker: run the broker on these cores (taskset -c LIST; default any)")
        String brokerCores;

        @Option(names = "--events", paramLabel = "N", description = "events (default 2000000)")
        Long events;

        @Option(names = "--warmup-events", paramLabel = "N",
                description = "with --broker: events per instance before the clock (default events/4, <= 500000)")
        Long warmupEvents;

        @Option(names = "--events-per-record", paramLabel = "N", description = "gnmic events per record (default 1)")
        int perRecord = 1;

        @Option(names = "--sample-interval-ms", paramLabel = "N", description = "sample period (default 1000)")
        long sampleIntervalMs = 1000;

        @Option(names = "--links-load-interval-ms", paramLabel = "N",
                description = "weft.links.load coalescing as the service's kafka.links-load-interval-ms (default 1000)")
        long linksLoadIntervalMs = 1000;

        @Option(names = "--save-interval-ms", paramLabel = "N", description = "link-direction state saved every N ms "
                + "of wall-clock time (default the service's, 1000; a broker run replays many sample seconds per wall "
                + "second: 1000 / that many writes the changelog at the live rate)")
        Long saveIntervalMs;

        @Option(names = "--measurements-save-every", paramLabel = "N",
                description = "directions whose measurements alone changed saved every N-th save (default the "
                        + "service's, 10; 1 = every direction every save)")
        Integer measurementsSaveEvery;

        @Option(names = "--leaves", paramLabel = "L", description = "leaves (default 32)")
        int leaves = 32;

        @Option(names = "--spines", paramLabel = "S", description = "spines (default 16)")
        int spines = 16;

        @Option(names = "--fat-tree-k", paramLabel = "K",
                description = "a k-ary fat-tree instead of leaf-spine (k=16: 320 switches, 5,120 switch ports)")
        int fatTreeK;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
        boolean help;
    }

    public static void main(String[] args) throws IOException {
        Flags flags = new Flags();
        CommandLine line = new CommandLine(flags).setOverwrittenOptionsAllowed(true);
        try {
            line.parseArgs(args);
        } catch (ParameterException e) {
            System.err.println("weft bench loop: " + e.getMessage() + " (see --help)");
            System.exit(2);
        }
        if (line.isUsageHelpRequested()) {
            line.usage(System.out);
            return;
        }
        if (flags.collectors < 0 || flags.collectors > 0 && !flags.broker) {
            System.err.println("weft bench loop: --collectors N needs --broker and N >= 1");
            System.exit(2);
        }
        System.setProperty(LOAD_INTERVAL_PROPERTY, Long.toString(flags.linksLoadIntervalMs));
        if (flags.saveIntervalMs != null) {
            System.setProperty(SAVE_INTERVAL_PROPERTY, Long.toString(flags.saveIntervalMs));
        }
        if (flags.measurementsSaveEvery != null) {
            System.setProperty(MEASUREMENTS_SAVE_EVERY_PROPERTY, Integer.toString(flags.measurementsSaveEvery));
        }
        boolean json = flags.json;
        long events = flags.events != null ? flags.events : flags.quick ? 200_000 : 2_000_000;
        int leaves = flags.leaves;
        int spines = flags.spines;
        boolean broker = flags.broker;
        int perRecord = flags.perRecord;
        long sampleIntervalMs = flags.sampleIntervalMs;
        // 48 switches (the default) hash onto 12 partitions unevenly enough to skew two instances' shares
        // (docs/OPERATIONS.md, sizing): --fat-tree-k 16 is a fabric of the size the sizing is about.
        Fabric fabric = flags.fatTreeK > 0 ? FabricGenerators.generate("fat-tree", Map.of("k",
                Integer.toString(flags.fatTreeK))) : FabricGenerators.generate("leaf-spine", Map.of("leaves",
                Integer.toString(leaves), "spines", Integer.toString(spines), "nicsPerLeaf", "16"));
        List<String[]> ports = switchPorts(fabric);

        Map<String, Object> r = new LinkedHashMap<>();
        r.put("suite", "loop");
        r.put("fabric", fabric.id() + " (" + fabric.links().size() + " links, " + ports.size() + " switch ports)");
        r.put("events_per_record", perRecord);
        r.put("record_shape", perRecord == 1 ? "one gnmic event (one port's counters) per record"
                : "JSON array of up to " + perRecord + " events (ports of one switch) per record");
        r.put("sample_interval_ms", sampleIntervalMs);
        r.put("links_load_interval_ms", loadInterval().toMillis());
        r.put("save_interval_ms", stateSaves().interval().toMillis());
        r.put("measurements_save_every", stateSaves().measurementsEvery());
        if (broker) {
            BrokerRun.run(fabric, new Workload(ports, perRecord, sampleIntervalMs), events, flags.collectors,
                    flags.pinCores, flags.brokerCores,
                    flags.warmupEvents != null ? flags.warmupEvents : Math.min(events / 4, 500_000), r);
        } else {
            driverRun(fabric, new Workload(ports, perRecord, sampleIntervalMs), events, r);
            domainRun(fabric, new Workload(ports, perRecord, sampleIntervalMs), events, r);
        }
        r.put("heap_peak_mb", heapPeakBytes() / (1024 * 1024)); // sum of the pools' peaks: an upper bound
        r.put("heap_max_mb", Runtime.getRuntime().maxMemory() / (1024 * 1024));
        r.put("loop_p50_ms", null);
        r.put("loop_p99_ms", null);
        r.put("loop_note", "hotspot -> agent latency needs scheduler-api re-placement (not built yet)");
        if (json) {
            System.out.println(MAPPER.writeValueAsString(r));
        } else {
            r.forEach((k, v) -> System.out.printf(Locale.ROOT, "%-24s %s%n", k, v));
        }
    }

    /** Through a TopologyTestDriver: the topology's cost plus the driver's own per-record bookkeeping. */
    private static void driverRun(Fabric fabric, Workload w, long events, Map<String, Object> r)
            throws IOException {
        StreamsBuilder b = new StreamsBuilder();
        TelemetryCounters counters = new TelemetryCounters();
        AtomicLong ids = new AtomicLong();
        TelemetryTopology.build(b, TelemetryTopics.DEFAULT, DetectionProperties.DEFAULTS, counters, Clock.systemUTC(),
                () -> "bench-" + ids.incrementAndGet(), loadInterval(), stateSaves());
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "weft-loop-bench");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("weft-loop-bench").toString());
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long timedNs = 0;
        long timedCpuNs = 0;
        long timedEvents = 0;
        long hotspotEvents = 0;
        long loads = 0;
        long changelog = 0;
        try (TopologyTestDriver driver = new TopologyTestDriver(b.build(), p)) {
            TestInputTopic<String, byte[]> fabricIn = driver.createInputTopic("weft.fabric", new StringSerializer(),
                    new ByteArraySerializer());
            ObjectNode snapshot = MAPPER.createObjectNode().put("schemaVersion", 1).put("fabricId", fabric.id())
                    .put("version", 1);
            snapshot.set("fabric", FabricJson.toTree(fabric));
            fabricIn.pipeInput(fabric.id(), MAPPER.writeValueAsBytes(snapshot));
            TestInputTopic<String, byte[]> in = driver.createInputTopic("weft.telemetry.interfaces",
                    new StringSerializer(), new ByteArraySerializer());
            List<TestOutputTopic<byte[], byte[]>> outs = new ArrayList<>();
            for (String t : List.of("weft.hotspots", "weft.links.load", "weft.telemetry.deadletter",
                    "weft-loop-bench-" + TelemetryTopology.DIRECTIONS_STORE + "-changelog")) {
                outs.add(driver.createOutputTopic(t, new ByteArrayDeserializer(), new ByteArrayDeserializer()));
            }
            long warmup = Math.min(events / 5, 200_000);
            long sent = 0;
            long records = 0;
            while (sent < warmup + events) {
                List<Workload.Rec> round = w.nextRound(); // one sample interval of samples
                int roundEvents = 0;
                long c0 = cpu.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                for (Workload.Rec rec : round) {
                    in.pipeInput(rec.key(), rec.value());
                    roundEvents += rec.events();
                }
                // Wall clock keeps pace with sample time: the once-a-second store save and load flush.
                driver.advanceWallClockTime(Duration.ofMillis(w.sampleIntervalMs()));
                long dt = System.nanoTime() - t0;
                long dc = cpu.getCurrentThreadCpuTime() - c0;
                if (sent >= warmup) {
                    timedNs += dt;
                    timedCpuNs += dc;
                    timedEvents += roundEvents;
                    records += round.size();
                }
                sent += roundEvents;
                hotspotEvents += outs.get(0).getQueueSize();
                loads += outs.get(1).getQueueSize();
                changelog += outs.get(3).getQueueSize();
                for (TestOutputTopic<byte[], byte[]> o : outs) {
                    o.readRecordsToList(); // drain: the driver keeps every output record otherwise
                }
            }
            r.put("records", records);
            r.put("link_loads_per_event", Math.round(1000.0 * loads / sent) / 1000.0);
            // Wall-clock time advances with sample time here, as in a collector keeping up with live samples:
            // the once-a-second state save writes its changelog at the live rate (a broker run replays a backlog
            // many sample seconds per wall second, and so shows a fraction of it).
            r.put("changelog_records_per_event", Math.round(1000.0 * changelog / sent) / 1000.0);
        }
        r.put("mode", "in-process TopologyTestDriver (no broker)");
        r.put("events", timedEvents);
        r.put("ingest_events_per_s", Math.round(timedEvents / (timedNs / 1e9)));
        // The same work per second of CPU of the one thread running it: what a core would do on an
        // idle machine (the wall-clock figure above depends on what else shares the cores).
        r.put("ingest_events_per_cpu_s", Math.round(timedEvents / (timedCpuNs / 1e9)));
        r.put("cpu_share", Math.round(100.0 * timedCpuNs / timedNs) / 100.0);
        r.put("hotspot_events", hotspotEvents);
        r.put("link_loads", loads);
        r.put("dead_letters", counters.get("deadletter.not-json") + counters.get("deadletter.bad-counter"));
    }
    /**
     * The collector's own code on the same events without Kafka Streams around it (parse, fabric
     * lookup, direction update and decisions, output JSON), on this thread: how much of the per-event
     * cost is Weft's and how much is the framework's. Loads are coalesced as the service does
     * (the latest per direction per {@link #loadInterval} of sample time is written, when the next
     * interval's load arrives), so only the loads that would leave pay for their JSON.
     */
    private static void domainRun(Fabric fabric, Workload w, long events, Map<String, Object> r) {
        GnmicEventParser parser = new GnmicEventParser();
        InterfaceDirectionIndex index = InterfaceDirectionIndex.of(fabric, 1);
        Map<String, LinkDirection> state = new HashMap<>();
        Map<String, LinkLoad> waiting = new HashMap<>(); // arc key -> latest load of its current bucket
        long intervalNs = loadInterval().toNanos();
        List<TopicValue> out = new ArrayList<>();
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long warmup = Math.min(events / 5, 200_000);
        long sent = 0;
        long timedCpuNs = 0;
        long timedEvents = 0;
        long bytes = 0;
        while (sent < warmup + events) {
            List<Workload.Rec> round = w.nextRound();
            Instant now = Instant.now();
            int roundEvents = 0;
            long c0 = cpu.getCurrentThreadCpuTime();
            for (Workload.Rec rec : round) {
                try {
                    for (InterfaceSample s : parser.parseUtf8(rec.value())) {
                        for (MeasuredArc arc : index.lookup(s.target(), s.interfaceName())) {
                            LinkDirection d = state.computeIfAbsent(arc.arcKey(),
                                    k -> LinkDirection.fresh(arc.capacityGbps()));
                            out.clear();
                            d.apply(s, arc, DetectionProperties.DEFAULTS, () -> "id", () -> now, out);
                            for (TopicValue e : out) {
                                if (e instanceof LinkLoad load) {
                                    LinkLoad before = waiting.put(arc.arcKey(), load);
                                    if (before != null
                                            && before.timestampNs() / intervalNs != load.timestampNs() / intervalNs) {
                                        bytes += before.toJsonBytes().length;
                                    }
                                } else {
                                    bytes += e.toJsonBytes().length;
                                }
                            }
                        }
                    }
                } catch (TelemetryFormatException e) {
                    throw new IllegalStateException(e);
                }
                roundEvents += rec.events();
            }
            long dc = cpu.getCurrentThreadCpuTime() - c0;
            if (sent >= warmup) {
                timedCpuNs += dc;
                timedEvents += roundEvents;
            }
            sent += roundEvents;
        }
        r.put("domain_events_per_cpu_s", Math.round(timedEvents / (timedCpuNs / 1e9)));
        r.put("domain_output_bytes_per_event", Math.round((double) bytes / sent));
    }

    /** (switch, port) of every switch end of every link: what gnmic would poll. */
    static List<String[]> switchPorts(Fabric f) {
        List<String[]> out = new ArrayList<>();
        for (Link l : f.links()) {
            for (Endpoint e : List.of(l.a(), l.b())) {
                if (f.node(e.node()).role() != Role.NIC && e.port() != null) {
                    out.add(new String[] {e.node(), e.port()});
                }
            }
        }
        return out;
    }

    static String event(String target, String iface, long ns, long octets, long pkts) {
        return "{\"name\":\"ifcounters\",\"timestamp\":" + ns + ",\"tags\":{\"source\":\"" + target
                + "\",\"interface_name\":\"" + iface + "\",\"subscription-name\":\"ifcounters\"},\"values\":{"
                + "\"/interfaces/interface/state/counters/out-octets\":\"" + octets + "\","
                + "\"/interfaces/interface/state/counters/in-octets\":\"" + octets + "\","
                + "\"/interfaces/interface/state/counters/out-pkts\":\"" + pkts + "\","
                + "\"/interfaces/interface/state/counters/out-discards\":\"0\","
                + "\"/interfaces/interface/state/oper-status\":\"UP\"}}";
    }

    static long heapPeakBytes() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

}
