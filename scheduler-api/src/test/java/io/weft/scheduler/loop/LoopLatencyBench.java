package io.weft.scheduler.loop;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.weft.devstack.Devstack;
import io.weft.fabric.Fabric;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.scheduler.SchedulerApiApplication;
import io.weft.scheduler.reroute.HotspotListener;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ./weft bench loop} latency part: hotspot event published → the agent's parked long-poll
 * answered with a newer version, measured on the client side over N events, on an embedded
 * devstack (KRaft broker + PostgreSQL) and the whole scheduler in this JVM. Each event makes the
 * uplink of the next flow of a 32-flow ring hot (4 leaves x 16 spines x 8 NICs, so a tolerated
 * alternative always exists), then ends the hotspot. Warm-up events are not counted.
 *
 * <p>Usage: {@code [--json] [--quick] [--loop-events N] [--merge JSON]}. Prints a table, or with
 * {@code --json} one object {@code {"loop_p50_ms":..,"loop_p99_ms":..,"loop_events":..,"loop_missed":..}},
 * added to the object given with {@code --merge} (the ingest half of {@code ./weft bench loop}).
 */
public final class LoopLatencyBench {
    private static final long INTERVAL_MS = 50;

    private LoopLatencyBench() {
    }

    /** The command line of the loop-latency bench; --quick changes the event count when not given. */
    @Command(name = "weft bench loop-latency", sortOptions = false,
            description = "Hotspot event published to the agent's long-poll answered, on an embedded devstack.")
    static final class Flags {
        @Option(names = "--json", description = "one JSON object")
        boolean json;

        @Option(names = "--quick", description = "50 events, 10 warm-up")
        boolean quick;

        @Option(names = "--loop-events", paramLabel = "N", description = "measured hotspot events (default 200)")
        Integer events;

        @Option(names = "--merge", paramLabel = "JSON",
                description = "add the numbers to this JSON object (the ingest half)")
        String merge;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
        boolean help;
    }

    public static void main(String[] args) throws Exception {
        Flags flags = new Flags();
        CommandLine line = new CommandLine(flags).setOverwrittenOptionsAllowed(true);
        try {
            line.parseArgs(args);
        } catch (ParameterException e) {
            System.err.println("weft bench loop-latency: " + e.getMessage() + " (see --help)");
            System.exit(2);
        }
        if (line.isUsageHelpRequested()) {
            line.usage(System.out);
            return;
        }
        boolean json = flags.json;
        int events = flags.events != null ? flags.events : flags.quick ? 50 : 200;
        int warmup = flags.quick ? 10 : 30;
        String merge = flags.merge;
        // Kafka, PostgreSQL and Spring log to stdout: keep it for the result alone.
        PrintStream out = System.out;
        System.setOut(System.err);
        Fabric fabric = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(4, 16, 8));
        Path state = Files.createTempDirectory("weft-loop-bench");
        double[] ms;
        int missed;
        double toCommitMeanMs;
        double toWakeMeanMs;
        double toCommitMaxMs;
        double toWakeMaxMs;
        List<Integer> split;
        try (Devstack dev = Devstack.builder().stateDir(state).kafkaPort(0).postgresPort(0).start()) {
            Map<String, String> props = LoopTestSupport.properties(dev.endpoints(), fabric, INTERVAL_MS);
            props.put("server.port", "0");
            props.put("logging.level.root", "WARN");
            // As command-line arguments: they must override application.yml, default properties would not.
            String[] springArgs = props.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                    .toArray(String[]::new);
            try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(SchedulerApiApplication.class)
                    .run(springArgs);
                 KafkaProducer<String, String> producer = LoopTestSupport.producer(
                         dev.endpoints().kafkaBootstrapServers())) {
                if (!ctx.getBean(HotspotListener.class).awaitAssigned(java.time.Duration.ofSeconds(60))) {
                    throw new IllegalStateException("the scheduler never joined the hotspots topic");
                }
                int port = Integer.parseInt(ctx.getEnvironment().getProperty("local.server.port"));
                JsonNode job = LoopTestSupport.createJob(port, "loop-bench", LoopTestSupport.interleavedRing(4, 8),
                        100);
                String jobId = job.get("id").asString();
                int flows = job.get("flows").size();
                List<Double> samples = new ArrayList<>();
                missed = 0;
                for (int i = 0; i < warmup + events; i++) {
                    String flowId = job.get("flows").get(i % flows).get("id").asString();
                    JsonNode flow = null;
                    for (JsonNode f : LoopTestSupport.job(port, jobId).get("flows")) {
                        if (f.get("id").asString().equals(flowId)) {
                            flow = f;
                        }
                    }
                    String hot = LoopTestSupport.arcs(flow).get(1);
                    String link = hot.substring(0, hot.indexOf('>'));
                    String dir = hot.substring(hot.indexOf('>') + 1);
                    String src = flow.get("src").asString();
                    long since = LoopTestSupport.version(port, src);
                    CompletableFuture<LoopTestSupport.Reply> poll = LoopTestSupport.longPoll(port, src, since, 5);
                    Thread.sleep(5); // let it park: the agent waits before the hotspot exists
                    long t0 = System.nanoTime();
                    Instant now = Instant.now();
                    LoopTestSupport.publish(producer, "hotspot-start", link, dir, now, now);
                    LoopTestSupport.Reply r = poll.get(10, TimeUnit.SECONDS);
                    boolean moved = r.status() == 200 && r.body().get("version").asLong() > since;
                    if (i >= warmup) {
                        if (moved) {
                            samples.add((r.answeredNanos() - t0) / 1e6);
                        } else {
                            missed++;
                        }
                    }
                    LoopTestSupport.publish(producer, "hotspot-end", link, dir, Instant.now(), Instant.now());
                    Thread.sleep(INTERVAL_MS + 5); // a fresh interval: the k budget is per interval
                }
                LoopTestSupport.release(port, jobId);
                ms = samples.stream().mapToDouble(Double::doubleValue).sorted().toArray();
                // The service's own view of the chain (warm-up included): where the time goes.
                MeterRegistry meters = ctx.getBean(MeterRegistry.class);
                toCommitMeanMs = meters.get("weft.loop.event.to.commit").timer().mean(TimeUnit.MILLISECONDS);
                toWakeMeanMs = meters.get("weft.loop.commit.to.wake").timer().mean(TimeUnit.MILLISECONDS);
                toCommitMaxMs = meters.get("weft.loop.event.to.commit").timer().max(TimeUnit.MILLISECONDS);
                toWakeMaxMs = meters.get("weft.loop.commit.to.wake").timer().max(TimeUnit.MILLISECONDS);
                // The Kafka hop (event detected -> received by the scheduler) against the whole way to the commit.
                split = ctx.getBean(JdbcClient.class).sql("select percentile_disc(0.5) within group (order by r), "
                        + "percentile_disc(0.99) within group (order by r), percentile_disc(0.5) within group "
                        + "(order by k), percentile_disc(0.99) within group (order by k) from (select "
                        + "(c->>'eventToReceivedMs')::int r, (c->>'eventToCommitMs')::int k from events, "
                        + "jsonb_array_elements(payload->'chains') c where type = 'loop-timings') t")
                        .query((rs, n) -> List.of(rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getInt(4))).single();
            }
        }
        double p50 = percentile(ms, 0.50);
        double p99 = percentile(ms, 0.99);
        if (json) {
            // --merge: the ingest half's JSON object, completed with the latency numbers (one object per suite).
            ObjectNode o = merge == null ? LoopTestSupport.JSON.createObjectNode()
                    : (ObjectNode) LoopTestSupport.JSON.readTree(merge);
            o.remove("loop_note");
            putNumber(o, "loop_p50_ms", p50);
            putNumber(o, "loop_p99_ms", p99);
            o.put("loop_events", ms.length);
            putNumber(o, "loop_detected_to_commit_mean_ms", toCommitMeanMs);
            putNumber(o, "loop_commit_to_wake_mean_ms", toWakeMeanMs);
            putNumber(o, "loop_detected_to_commit_max_ms", toCommitMaxMs);
            o.put("loop_kafka_hop_p50_ms", split.get(0));
            o.put("loop_kafka_hop_p99_ms", split.get(1));
            o.put("loop_detected_to_commit_p50_ms", split.get(2));
            o.put("loop_detected_to_commit_p99_ms", split.get(3));
            putNumber(o, "loop_commit_to_wake_max_ms", toWakeMaxMs);
            o.put("loop_missed", missed);
            o.put("loop_measured", "hotspot-start published -> agent long-poll answered with the new version "
                    + "(scheduler-api + embedded devstack, one JVM)");
            out.println(LoopTestSupport.JSON.writeValueAsString(o));
        } else {
            out.printf(Locale.ROOT, "loop latency (hotspot event published -> agent long-poll answered), %d events"
                    + " (+%d warm-up), %d without a move%n", ms.length, warmup, missed);
            out.printf(Locale.ROOT, "  loop_p50_ms %.2f   loop_p99_ms %.2f   max %.2f   (goal p99 <= 50 ms)%n", p50,
                    p99, ms.length == 0 ? Double.NaN : ms[ms.length - 1]);
            out.printf(Locale.ROOT, "  in the service (mean / max): event detected -> committed %.2f / %.2f ms, "
                    + "committed -> agents woken %.2f / %.2f ms%n", toCommitMeanMs, toCommitMaxMs, toWakeMeanMs,
                    toWakeMaxMs);
            out.printf(Locale.ROOT, "  p50 / p99 (ms, warm-up included): event -> received by the scheduler %d / %d, "
                    + "event -> committed %d / %d%n", split.get(0), split.get(1), split.get(2), split.get(3));
        }
        out.flush();
        System.exit(0); // non-daemon threads of the broker must not keep the JVM up
    }

    /** Nearest-rank percentile of sorted values; NaN when empty. */
    static double percentile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static void putNumber(ObjectNode o, String key, double v) {
        if (Double.isNaN(v)) {
            o.putNull(key);
        } else {
            o.put(key, Math.round(v * 1000) / 1000.0);
        }
    }
}
