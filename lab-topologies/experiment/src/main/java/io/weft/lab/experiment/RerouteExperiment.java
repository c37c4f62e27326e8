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

        /** Delivered bytes loop-on / loop-off (the first loop-on run). */
        public double ratio() {
            return (double) run("loop-on").deliveredBytes() / run("loop-off").deliveredBytes();
        }

        /** Every loop-on run, in order ("loop-on", then "loop-on-2" ... with --runs). */
        public List<RunResult> loopOnRuns() {
            return runs.stream().filter(r -> r.name().equals("loop-on") || r.name().startsWith("loop-on-")).toList();
        }

        /** Each loop-on run's delivered bytes / the loop-off run's. */
        public List<Double> ratios() {
            double off = run("loop-off").deliveredBytes();
            return loopOnRuns().stream().map(r -> r.deliveredBytes() / off).toList();
        }

        /** The runs drawn in the plot: baseline, loop-off and the first loop-on (more lines would hide them). */
        public List<RunResult> plotted() {
            return runs.stream().filter(r -> !r.name().startsWith("loop-on-")).toList();
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
        stack.useScheduler(false);
        double baseline = RerouteRun.offeredRxMbit(o.offeredMbit());
        if (o.baseline()) {
            RunResult b = run.run("baseline", Double.NaN);
            runs.add(b);
            baseline = b.throughput().meanMbit(0.5, o.durationS());
        }
        if (o.noise()) {
            runs.add(run.runNoise("noise", baseline));
        }
        double throttle = o.throttleShare() * baseline;
        runs.add(run.run("loop-off", throttle));
        stack.useScheduler(true);
        for (int i = 1; i <= o.runs(); i++) {
            runs.add(run.run(i == 1 ? "loop-on" : "loop-on-" + i, throttle));
        }
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
        n.put("detectionAtOnceDropFraction", o.atOnceDropFraction());
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
        Long sample = on.stagesMs().get("sample");
        Long route = on.stagesMs().get(installedStage(o));
        if (sample != null && route != null) {
            // For a cut link the goal's clock starts at the oper-status change the switch reported.
            n.put("sampleToRouteInstalledMs", route - sample);
        }
        n.put("committedBy", on.committedBy());
        ObjectNode split = n.putObject("loopSplit");
        on.loopSplit().forEach(split::put);
        List<RunResult> ons = r.loopOnRuns();
        n.put("loopOnRuns", ons.size());
        ObjectNode p50 = n.putObject("stagesMsP50");
        ObjectNode p90 = n.putObject("stagesMsP90");
        for (String stage : on.stagesMs().keySet()) {
            List<Long> v = ons.stream().map(x -> x.stagesMs().get(stage)).filter(java.util.Objects::nonNull).toList();
            p50.put(stage, Percentiles.nearestRank(v, 50));
            p90.put(stage, Percentiles.nearestRank(v, 90));
        }
        ArrayNode installed = n.putArray("routeInstalledMsPerRun");
        ons.forEach(x -> {
            Long v = x.stagesMs().get(installedStage(o));
            if (v == null) {
                installed.addNull();
            } else {
                installed.add(v);
            }
        });
        ArrayNode ratios = n.putArray("ratioPerRun");
        r.ratios().forEach(x -> ratios.add(round(x)));
        n.put("ratioP50", round(Percentiles.nearestRankDouble(r.ratios(), 50)));
        n.put("ratioMin", round(r.ratios().stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN)));
        ArrayNode shares = n.putArray("loopOnSharePerRun");
        ons.forEach(x -> shares.add(round(x.deliveredBytes() / r.unthrottledBytes())));
        ArrayNode by = n.putArray("committedByPerRun");
        ons.forEach(x -> by.add(x.committedBy()));
        n.put("hitFlowMoved", on.hitFlowMoved());
        n.put("hitFlowEndsOnThrottledLink", on.endsOnThrottledLink());
        n.put("affectedFlows", on.affected().size());
        n.put("affectedFlowsMoved", on.affectedMoved());
        n.put("untouchedFlows", on.untouched());
        n.put("untouchedFlowsMoved", ons.stream().mapToInt(RunResult::untouchedMoved).sum() + off.untouchedMoved());
        n.put("loopOffHitFlowMoved", off.hitFlowMoved());
        RunResult noise = r.run("noise");
        if (noise != null) {
            ObjectNode x = n.putObject("noise");
            double noisyS = o.durationS() - o.throttleAtS();
            x.put("meanDropTarget", round(RerouteRun.NOISE_MEAN_DROP_OF_THRESHOLD * o.dropFraction()));
            x.put("burstDrop", round(RerouteRun.NOISE_BURST_DROP_OF_THRESHOLD * o.dropFraction()));
            x.put("slotMs", RerouteRun.NOISE_SLOT_MS);
            x.put("dropShareMeasured", round(noise.noiseDropShare()));
            x.put("noisyS", noisyS);
            x.put("falseDetections", noise.hotspots());
            x.put("falseDetectionsPerMin", round(noise.hotspots() * 60 / noisyS));
            Long first = noise.stagesMs().get("hotspot");
            if (first != null) {
                x.put("firstFalseDetectionMs", first);
            }
        }
        n.put("loadAverage", r.load());
        ArrayNode runs = n.putArray("runs");
        for (RunResult run : r.runs()) {
            ObjectNode x = runs.addObject();
            x.put("name", run.name());
            x.put("deliveredGbit", round(run.deliveredBytes() * 8 / 1e9));
            x.put("throttledLink", run.throttleLink());
            x.put("hotspotStarts", run.hotspots());
            ObjectNode st = x.putObject("stagesMs");
            run.stagesMs().forEach(st::put);
            if (run.committedBy() != null) {
                x.put("committedBy", run.committedBy());
                ObjectNode sp = x.putObject("loopSplit");
                run.loopSplit().forEach(sp::put);
            }
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
        b.append(String.format(Locale.ROOT,
                "reroute experiment: %s, %s, %s; %d s per run, iperf3 UDP %.0f Mbit/s offered,"
                + " unthrottled %.1f Mbit/s at the receiving NIC; %s at %.1f s (load %s)%n", o.fabric(), o.encoding(),
                o.fault(), o.durationS(), o.offeredMbit(), r.baselineMbit(), fault, o.throttleAtS(), r.load()));
        for (RunResult run : r.runs()) {
            b.append(String.format(Locale.ROOT, "  %-9s delivered %7.3f Gbit (%.1f %% of unthrottled)%n", run.name(),
                    run.deliveredBytes() * 8 / 1e9, 100.0 * run.deliveredBytes() / r.unthrottledBytes()));
        }
        b.append(String.format(Locale.ROOT, "  ratio loop-on / loop-off: %.3f (the paper: 1.287)%n", r.ratio()));
        RunResult noise = r.run("noise");
        if (noise != null) {
            b.append(String.format(Locale.ROOT, "  noisy link (loop off, %.1f s, the qdisc dropped %.1f %%): %d false"
                    + " detections%n", o.durationS() - o.throttleAtS(),
                    100 * noise.noiseDropShare(), noise.hotspots()));
        }
        b.append(o.fault().equals("link-down") ? "  cut ->" : "  throttle ->");
        long prev = 0;
        for (Map.Entry<String, Long> e : on.stagesMs().entrySet()) {
            b.append(String.format(Locale.ROOT, " %s %d ms (+%d) ->", e.getKey(), e.getValue(), e.getValue() - prev));
            prev = e.getValue();
        }
        b.setLength(b.length() - 3);
        b.append('\n');
        if (on.committedBy() != null) {
            b.append("  moved by: ").append(on.committedBy());
            if (!on.loopSplit().isEmpty()) {
                b.append("; the loop's split: ").append(on.loopSplit());
            }
            b.append('\n');
        }
        List<RunResult> ons = r.loopOnRuns();
        if (ons.size() > 1) {
            List<Long> installed = ons.stream().map(x -> x.stagesMs().get(installedStage(o)))
                    .filter(java.util.Objects::nonNull).toList();
            b.append(String.format(Locale.ROOT, "  %d loop-on runs: %s p50 %d ms, p90 %d ms (%s);"
                    + " ratio p50 %.3f, min %.3f (%s)%n", ons.size(),
                    (o.fault().equals("link-down") ? "cut" : "throttle")
                    + " -> " + installedStage(o),
                    Percentiles.nearestRank(installed, 50), Percentiles.nearestRank(installed, 90), installed,
                    Percentiles.nearestRankDouble(r.ratios(), 50),
                    r.ratios().stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
                    r.ratios().stream().map(x -> String.format(Locale.ROOT, "%.3f", x)).toList()));
        }
        b.append(String.format(Locale.ROOT,
                "  loop-on: hit flow moved: %s, ends on the faulty link: %s; flows the fault"
                + " touched moved: %d of %d; untouched flows moved: %d of %d (loop-off: hit flow moved: %s)%n",
                on.hitFlowMoved(), on.endsOnThrottledLink(), on.affectedMoved(),
                        on.affected().size(), on.untouchedMoved(),
                on.untouched(), off.hitFlowMoved()));
        return b.toString();
    }

    /** The stage at which the new path takes the flow: the host route (SRv6), the re-bound sender (EV). */
    static String installedStage(ExperimentOptions o) {
        return o.encoding().equals("ev") ? "sender re-bound" : "route installed";
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
