package io.weft.telemetry.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import io.weft.telemetry.config.DetectionProperties;
import io.weft.telemetry.stream.StreamsTuning;
import io.weft.telemetry.stream.TelemetryCounters;
import io.weft.telemetry.stream.TelemetryTopics;
import io.weft.telemetry.stream.TelemetryTopology;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;

/**
 * One collector instance of {@code ./weft bench loop --broker --collectors N}, in its own JVM: the
 * service's topology and {@link StreamsTuning} under the given application id (every instance of a
 * run joins one consumer group and takes some of the partitions), its own state dir. Every 20 ms it
 * prints {@code PROGRESS <samples> <process cpu ns> <interface partitions held> <their numbers, comma-separated>}
 * on stdout
 * (cheap: it runs 50 times a second in the measured JVM);
 * a {@code MARK} line on its stdin makes it print its {@link InstanceStats} counters; it stops when its
 * stdin closes.
 *
 * <p>Arguments: bootstrap servers, application id.
 */
public final class CollectorMain {
    private CollectorMain() {
    }

    public static void main(String[] args) throws IOException {
        String bootstrap = args[0];
        String applicationId = args[1];
        StreamsBuilder b = new StreamsBuilder();
        TelemetryCounters counters = new TelemetryCounters();
        TelemetryTopology.build(b, TelemetryTopics.DEFAULT, DetectionProperties.DEFAULTS, counters, Clock.systemUTC(),
                () -> UUID.randomUUID().toString(), LoopBench.loadInterval(), LoopBench.stateSaves());
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("weft-loop-bench-collector").toString());
        StreamsTuning.apply(p);
        p.putAll(BrokerRun.overrides());
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (KafkaStreams streams = new KafkaStreams(b.build(), p)) {
            streams.start();
            Thread stdin = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                    // The parent marks its window's start and end with a line; it closes our stdin to stop us.
                    for (String line; (line = in.readLine()) != null; ) {
                        if (line.equals("MARK")) {
                            String stats = InstanceStats.line(InstanceStats.snapshot(streams.metrics()));
                            synchronized (System.out) {
                                System.out.println(stats);
                                System.out.flush();
                            }
                        }
                    }
                } catch (IOException e) {
                    // parent gone: stop as well
                }
            }, "stdin-watch");
            stdin.start();
            while (stdin.isAlive()) {
                List<String> held = interfacePartitions(streams);
                String progress = "PROGRESS " + counters.get("interfaces.samples") + " " + os.getProcessCpuTime()
                        + " " + held.size() + " " + String.join(",", held);
                synchronized (System.out) {
                    System.out.println(progress);
                    System.out.flush();
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
    }

    /**
     * CPU time of this JVM's JIT compiler threads so far, from /proc (0 elsewhere). Each instance compiles
     * the same code, a cost per JVM rather than per event that a long-running service pays once and a
     * run of seconds pays throughout; reported apart so that instances can be compared without it.
     */
    static long compilerCpuNs() {
        long ticks = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException e) {
                    continue; // the thread ended
                }
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                if (open < 0 || close < 0 || !stat.substring(open + 1, close).contains("CompilerThre")) {
                    continue;
                }
                String[] f = stat.substring(close + 2).split(" ");
                ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return ticks * 10_000_000L; // USER_HZ is 100 on Linux: one tick is 10 ms
    }

    /** weft.telemetry.interfaces partitions this instance's stream threads hold as active tasks. */
    private static List<String> interfacePartitions(KafkaStreams streams) {
        List<String> held = new ArrayList<>();
        for (ThreadMetadata t : streams.metadataForLocalThreads()) {
            for (var task : t.activeTasks()) {
                task.topicPartitions().stream().filter(tp -> tp.topic().equals(TelemetryTopics.DEFAULT.interfaces()))
                        .forEach(tp -> held.add(Integer.toString(tp.partition())));
            }
        }
        return held;
    }
}
