package io.weft.telemetry.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Where one collector instance's CPU and Kafka work go, as cumulative counters ({@link #snapshot}) that
 * {@code ./weft bench loop --broker --collectors N} takes at the start and the end of its window and
 * subtracts ({@link #perInstance}): CPU by kind of thread, context switches, and the clients' own
 * counters (fetches, records per fetch, polls, produce requests, commits, punctuations). Comparing one
 * instance with two of the same workload shows which of them grow per event.
 */
final class InstanceStats {
    /** Kafka client and Streams counters summed over this instance's threads (per topic, partition, node: left out). */
    private static final List<String[]> METRICS = List.of(
            new String[] {"consumer-fetch-manager-metrics", "records-consumed-total", "-consumer"},
            new String[] {"consumer-fetch-manager-metrics", "fetch-total", "-consumer"},
            new String[] {"consumer-fetch-manager-metrics", "bytes-consumed-total", "-consumer"},
            new String[] {"producer-metrics", "record-send-total", "-producer"},
            new String[] {"producer-metrics", "request-total", "-producer"},
            new String[] {"producer-metrics", "outgoing-byte-total", "-producer"},
            new String[] {"stream-thread-metrics", "poll-total", ""},
            new String[] {"stream-thread-metrics", "process-total", ""},
            new String[] {"stream-thread-metrics", "commit-total", ""},
            new String[] {"stream-thread-metrics", "punctuate-total", ""});

    private InstanceStats() {
    }

    /** Cumulative counters of this JVM now, as name=value pairs. */
    static Map<String, Double> snapshot(Map<MetricName, ? extends Metric> metrics) {
        Map<String, Double> s = new TreeMap<>();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long javaNs = 0;
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t == null) {
                continue;
            }
            long ns = Math.max(0, threads.getThreadCpuTime(t.getThreadId()));
            javaNs += ns;
            s.merge("cpu_ns." + javaThreadKind(t.getThreadName()), (double) ns, Double::sum);
        }
        // Threads the JVM runs for itself (GC, JIT, VM thread) are not Java threads: /proc has them.
        double[] jvm = new double[3];
        double[] switches = new double[2];
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    double ns = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000.0; // USER_HZ 100
                    if (comm.contains("CompilerThre")) {
                        jvm[0] += ns;
                    } else if (comm.startsWith("GC Thread") || comm.startsWith("G1 ")) {
                        jvm[1] += ns;
                    }
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            switches[0] += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                            switches[1] += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            // no /proc: the JVM's own threads stay unsplit
        }
        long processNs = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        s.put("cpu_ns.jit", jvm[0]);
        s.put("cpu_ns.gc", jvm[1]);
        s.put("cpu_ns.jvm_other", Math.max(0, processNs - javaNs - jvm[0] - jvm[1]));
        s.put("ctx_switches.voluntary", switches[0]);
        s.put("ctx_switches.involuntary", switches[1]);
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            MetricName n = e.getKey();
            if (n.tags().containsKey("topic") || n.tags().containsKey("partition") || n.tags().containsKey("node-id")) {
                continue;
            }
            String client = n.tags().getOrDefault("client-id", "");
            for (String[] m : METRICS) {
                // "-consumer": the stream threads' main consumers, not the restore or the global one.
                boolean clientMatches = m[2].isEmpty() || client.endsWith(m[2])
                        && !client.endsWith("restore-consumer") && !client.endsWith("global-consumer");
                if (n.group().equals(m[0]) && n.name().equals(m[1]) && clientMatches
                        && e.getValue().metricValue() instanceof Number v) {
                    s.merge(m[0] + "." + m[1], v.doubleValue(), Double::sum);
                }
            }
        }
        return s;
    }

    private static String javaThreadKind(String name) {
        if (name.startsWith("kafka-producer-network-thread")) {
            return "producer_io"; // carries the stream thread's name too: tested first
        } else if (name.contains("-StreamThread-")) {
            return "stream";
        } else if (name.contains("GlobalStreamThread")) {
            return "global_stream";
        } else if (name.startsWith("kafka-coordinator-heartbeat-thread")) {
            return "heartbeat";
        } else if (name.contains("StateUpdater")) {
            return "state_updater";
        } else if (name.equals("main") || name.equals("stdin-watch")) {
            return "bench_reporting"; // CollectorMain's progress lines and these counters
        }
        return "java_other";
    }

    /** The line a child prints: {@code STATS name=value ...}. */
    static String line(Map<String, Double> s) {
        StringBuilder b = new StringBuilder("STATS");
        s.forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
        return b.toString();
    }

    static Map<String, Double> parse(String line) {
        Map<String, Double> s = new TreeMap<>();
        for (String kv : line.substring("STATS".length()).trim().split(" ")) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                s.put(kv.substring(0, eq), Double.parseDouble(kv.substring(eq + 1)));
            }
        }
        return s;
    }

    /** One instance's window (end - start) per event and per second: the figures to compare. */
    static Map<String, Object> perInstance(Map<String, Double> start, Map<String, Double> end, long events,
                                           double wallS) {
        Map<String, Object> r = new LinkedHashMap<>();
        java.util.function.ToDoubleFunction<String> d = k -> end.getOrDefault(k, 0.0) - start.getOrDefault(k, 0.0);
        Map<String, Object> cpu = new LinkedHashMap<>();
        for (String k : end.keySet()) {
            if (k.startsWith("cpu_ns.")) {
                cpu.put(k.substring("cpu_ns.".length()), round(d.applyAsDouble(k) / 1e3 / Math.max(1, events), 3));
            }
        }
        r.put("cpu_us_per_event", cpu);
        double fetches = d.applyAsDouble("consumer-fetch-manager-metrics.fetch-total");
        double polls = d.applyAsDouble("stream-thread-metrics.poll-total");
        double produceRequests = d.applyAsDouble("producer-metrics.request-total");
        r.put("records_per_fetch", round(d.applyAsDouble("consumer-fetch-manager-metrics.records-consumed-total")
                / Math.max(1, fetches), 1));
        r.put("fetches_per_s", round(fetches / wallS, 1));
        r.put("events_per_poll", round(events / Math.max(1, polls), 1));
        r.put("polls_per_s", round(polls / wallS, 1));
        r.put("produced_records_per_request", round(d.applyAsDouble("producer-metrics.record-send-total")
                / Math.max(1, produceRequests), 1));
        r.put("produced_bytes_per_request", Math.round(d.applyAsDouble("producer-metrics.outgoing-byte-total")
                / Math.max(1, produceRequests)));
        r.put("produce_requests_per_s", round(produceRequests / wallS, 1));
        r.put("produced_records_per_event", round(d.applyAsDouble("producer-metrics.record-send-total")
                / Math.max(1, events), 3));
        r.put("commits_per_s", round(d.applyAsDouble("stream-thread-metrics.commit-total") / wallS, 1));
        r.put("punctuations_per_s", round(d.applyAsDouble("stream-thread-metrics.punctuate-total") / wallS, 1));
        r.put("voluntary_switches_per_1k_events", round(1000 * d.applyAsDouble("ctx_switches.voluntary")
                / Math.max(1, events), 2));
        r.put("involuntary_switches_per_1k_events", round(1000 * d.applyAsDouble("ctx_switches.involuntary")
                / Math.max(1, events), 2));
        return r;
    }

    private static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
