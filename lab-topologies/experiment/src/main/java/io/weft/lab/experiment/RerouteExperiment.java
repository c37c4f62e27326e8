package io.weft.lab.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The SRv6 paper's reroute experiment on the namespace lab: an optional unthrottled baseline, then
 * the same traffic with the throttle with hotspot re-placement off, then on. The throttle's rate is
 * {@link ExperimentOptions#throttleShare()} of the baseline's measured rate (of the offered rate
 * without a baseline), so the loop-off run delivers about {@code targetOff} of an unthrottled one and
 * the ratio cannot be raised by throttling harder.
 */
public final class RerouteExperiment {
    /** The whole experiment's outcome. */
    public record Report(ExperimentOptions options, List<RunResult> runs, double throttleMbit, double baselineMbit,
                         String load) {
        public RunResult run(String name) {
            return runs.stream().filter(r -> r.name().equals(name)).findFirst().orElse(null);
        }

        /** Delivered bytes loop-on / loop-off. */
        public double ratio() {
            return (double) run("loop-on").deliveredBytes() / run("loop-off").deliveredBytes();
        }

        /** Bytes an unthrottled run delivers: the baseline's, else the offered rate for the duration. */
        public double unthrottledBytes() {
            RunResult b = run("baseline");
            return b != null ? b.deliveredBytes() : baselineMbit * 1e6 / 8 * options.durationS();
        }
    }

    private final LabStack stack;
    private final Consumer<String> status;

    public RerouteExperiment(LabStack stack, Consumer<String> status) {
        this.stack = stack;
        this.status = status;
    }

    public Report run() throws Exception {
        ExperimentOptions o = stack.options;
        List<RunResult> runs = new ArrayList<>();
        RerouteRun run = new RerouteRun(stack, status);
        stack.startScheduler(false);
        double baseline = RerouteRun.offeredRxMbit(o.offeredMbit());
        if (o.baseline()) {
            RunResult b = run.run("baseline", Double.NaN);
            runs.add(b);
            baseline = b.throughput().meanMbit(0.5, o.durationS());
        }
        double throttle = o.throttleShare() * baseline;
        runs.add(run.run("loop-off", throttle));
        stack.startScheduler(true);
        runs.add(run.run("loop-on", throttle));
        stack.stopScheduler();
        String load = Files.readString(Path.of("/proc/loadavg")).trim();
        return new Report(o, runs, throttle, baseline, load);
    }

    /** The figures as one JSON object (--json, and reroute.json beside the plot). */
    public static ObjectNode json(Report r) {
        ObjectNode n = new ObjectMapper().createObjectNode();
        ExperimentOptions o = r.options();
        n.put("experiment", "reroute");
        n.put("fabric", o.fabric());
        n.put("encoding", o.encoding());
        n.put("fault", o.fault());
        n.put("durationS", o.durationS());
        n.put("throttleAtS", o.throttleAtS());
        n.put("offeredMbit", o.offeredMbit());
        n.put("unthrottledMbit", round(r.baselineMbit()));
        n.put("throttleMbit", round(r.throttleMbit()));
        n.put("telemetryIntervalMs", o.intervalMs());
        n.put("detectionSamples", o.samplesToEnter());
        n.put("detectionDropFraction", o.dropFraction());
        RunResult off = r.run("loop-off");
        RunResult on = r.run("loop-on");
        n.put("deliveredLoopOffGbit", round(off.deliveredBytes() * 8 / 1e9));
        n.put("deliveredLoopOnGbit", round(on.deliveredBytes() * 8 / 1e9));
        n.put("deliveredUnthrottledGbit", round(r.unthrottledBytes() * 8 / 1e9));
        n.put("ratio", round(r.ratio()));
        n.put("loopOffShareOfUnthrottled", round(off.deliveredBytes() / r.unthrottledBytes()));
        n.put("loopOnShareOfUnthrottled", round(on.deliveredBytes() / r.unthrottledBytes()));
        ObjectNode stages = n.putObject("stagesMsAfterThrottle");
        on.stagesMs().forEach(stages::put);
        n.put("hitFlowMoved", on.hitFlowMoved());
        n.put("hitFlowEndsOnThrottledLink", on.endsOnThrottledLink());
        n.put("affectedFlows", on.affected().size());
        n.put("affectedFlowsMoved", on.affectedMoved());
        n.put("untouchedFlows", on.untouched());
        n.put("untouchedFlowsMoved", on.untouchedMoved() + off.untouchedMoved());
        n.put("loopOffHitFlowMoved", off.hitFlowMoved());
        n.put("loadAverage", r.load());
        ArrayNode runs = n.putArray("runs");
        for (RunResult run : r.runs()) {
            ObjectNode x = runs.addObject();
            x.put("name", run.name());
            x.put("deliveredGbit", round(run.deliveredBytes() * 8 / 1e9));
            x.put("throttledLink", run.throttleLink());
            x.put("hotspotStarts", run.hotspots());
            ArrayNode mbit = x.putArray("receiverMbitPer100ms");
            ArrayNode ends = x.putArray("intervalEndS");
            run.throughput().samples().forEach(s -> {
                mbit.add(round(s.mbit()));
                ends.add(round(s.endS()));
            });
        }
        return n;
    }

    /** The figures as a few lines for a terminal. */
    public static String text(Report r) {
        RunResult off = r.run("loop-off");
        RunResult on = r.run("loop-on");
        StringBuilder b = new StringBuilder();
        ExperimentOptions o = r.options();
        String fault = o.fault().equals("link-down")
                ? String.format(Locale.ROOT, "%s cut at its far end", on.throttleLink())
                : String.format(Locale.ROOT, "throttle %.1f Mbit/s on %s", r.throttleMbit(), on.throttleLink());
        b.append(String.format(Locale.ROOT, "reroute experiment: %s, %s, %s; %d s per run, iperf3 UDP %.0f Mbit/s offered,"
                + " unthrottled %.1f Mbit/s at the receiving NIC; %s at %.1f s (load %s)%n", o.fabric(), o.encoding(),
                o.fault(), o.durationS(), o.offeredMbit(), r.baselineMbit(), fault, o.throttleAtS(), r.load()));
        for (RunResult run : r.runs()) {
            b.append(String.format(Locale.ROOT, "  %-9s delivered %7.3f Gbit (%.1f %% of unthrottled)%n", run.name(),
                    run.deliveredBytes() * 8 / 1e9, 100.0 * run.deliveredBytes() / r.unthrottledBytes()));
        }
        b.append(String.format(Locale.ROOT, "  ratio loop-on / loop-off: %.3f (the paper: 1.287)%n", r.ratio()));
        b.append(o.fault().equals("link-down") ? "  cut ->" : "  throttle ->");
        long prev = 0;
        for (Map.Entry<String, Long> e : on.stagesMs().entrySet()) {
            b.append(String.format(Locale.ROOT, " %s %d ms (+%d) ->", e.getKey(), e.getValue(), e.getValue() - prev));
            prev = e.getValue();
        }
        b.setLength(b.length() - 3);
        b.append('\n');
        b.append(String.format(Locale.ROOT, "  loop-on: hit flow moved: %s, ends on the faulty link: %s; flows the fault"
                + " touched moved: %d of %d; untouched flows moved: %d of %d (loop-off: hit flow moved: %s)%n",
                on.hitFlowMoved(), on.endsOnThrottledLink(), on.affectedMoved(), on.affected().size(), on.untouchedMoved(),
                on.untouched(), off.hitFlowMoved()));
        return b.toString();
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
