package io.weft.lab.experiment;

import java.nio.file.Path;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What {@code ./weft lab experiment reroute} was asked to do. Parsed and checked before anything is
 * built: a bad value is an {@link IllegalArgumentException} whose message starts with the option.
 *
 * @param fabric          the lab's shape: {@code 2x2} (the paper's two hosts, two disjoint paths) or
 *                        {@code ft4} (k=4 fat-tree, a 4-flow ring over the four pods, one flow hit)
 * @param encoding        how a path reaches the packets: {@code srv6} (uSID carrier in the host route) or
 *                        {@code ev} (the UDP source port the agent publishes; the switches' EV tables steer)
 * @param fault           what happens at {@code throttleAtS}: {@code throttle} (a TBF on a link of the path)
 *                        or {@code link-down} (that link cut)
 * @param durationS       traffic time of each run
 * @param throttleAtS     when the fault starts, seconds after the traffic
 * @param offeredMbit     the iperf3 UDP sender's rate
 * @param targetOff       the throttle is sized so that the loop-off run delivers this share of an
 *                        unthrottled run (the paper's 69.81 / 98.00 = 0.71)
 * @param intervalMs      the switches' telemetry sampling interval (weft-telemetry SAMPLE)
 * @param samplesToEnter  the collector's detection rule: successive samples above the threshold
 * @param dropFraction    the collector's queue-drop threshold (share of offered packets dropped)
 * @param atOnceDropFraction one sample dropping more than this share is hot without waiting for
 *                        {@code samplesToEnter} (the collector's at-once rule); 0 = off
 * @param baseline        run an unthrottled baseline first (calibrates the throttle); without it the
 *                        offered rate is the baseline
 * @param noise           add a run (loop off) on a noisy, not congested, link before the loop-off run:
 *                        its hotspots are false detections (each would move the flow with the loop on)
 * @param runs            how many loop-on runs (one scheduler-api, one job per run): the timing chain
 *                        and the delivered ratio are reported per run and as p50/p90 over them
 * @param json            print one JSON object instead of the table
 * @param out             where logs, the JSON and the plot go
 * @param tag             the lab's tag (namespaces {@code wl-<tag>-*})
 */
public record ExperimentOptions(String fabric, String encoding, String fault, int durationS, double throttleAtS,
                                double offeredMbit, double targetOff, long intervalMs, int samplesToEnter,
                                double dropFraction, double atOnceDropFraction, boolean baseline,
                                        boolean noise, int runs, boolean json,
                                Path out, String tag) {

    /** Parses {@code reroute [options]}; throws naming the option on anything it does not know. */
    public static ExperimentOptions parse(List<String> args, Path defaultOut) {
        if (args.isEmpty()) {
            throw new IllegalArgumentException("experiment: name one (reroute)");
        }
        Flags f = new Flags();
        f.out = defaultOut;
        new CommandLine(f).setOverwrittenOptionsAllowed(true).parseArgs(args.toArray(String[]::new));
        if (!f.experiment.equals("reroute")) {
            throw new IllegalArgumentException("experiment: unknown experiment \"" + f.experiment
                    + "\" (known: reroute)");
        }
        return new ExperimentOptions(f.fabric, f.encoding, f.fault, f.durationS, f.throttleAtS, f.offeredMbit,
                f.targetOff, f.intervalMs, f.samplesToEnter, f.dropFraction,
                        f.atOnceDropFraction, !f.noBaseline, f.noise,
                f.runs, f.json, f.out, f.tag)
                .checked();
    }

    /** The help text of {@code ./weft lab experiment --help}. */
    public static String usage() {
        return new CommandLine(new Flags()).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    /** The flags as picocli binds them, with the paper's defaults; {@link #checked()} checks the values. */
    @Command(name = "./weft lab experiment", sortOptions = false, usageHelpWidth = 110,
            description = {"The SRv6 paper's reroute experiment on the namespace lab: a 2-host job, iperf3 UDP",
                "along its path, a TBF throttle on that path at --throttle-at, run with the loop off, then on (--runs "
                        + "times)."})
    static final class Flags {
        @Parameters(index = "0", paramLabel = "reroute", description = "the experiment (known: reroute)")
        String experiment;

        @Option(names = "--fabric", paramLabel = "2x2|ft4", description = "the lab's shape (default ${DEFAULT-VALUE})")
        String fabric = "2x2";

        @Option(names = "--encoding", paramLabel = "srv6|ev",
                description = "how a path reaches the packets (default ${DEFAULT-VALUE})")
        String encoding = "srv6";

        @Option(names = "--fault", paramLabel = "throttle|link-down",
                description = "the fault (default ${DEFAULT-VALUE})")
        String fault = "throttle";

        @Option(names = "--duration", paramLabel = "S",
                description = "traffic time of each run (default ${DEFAULT-VALUE})")
        int durationS = 30;

        @Option(names = "--throttle-at", paramLabel = "S",
                description = "when the fault starts (default ${DEFAULT-VALUE})")
        double throttleAtS = 5;

        @Option(names = "--rate", paramLabel = "MBIT", description = "iperf3 UDP rate (default ${DEFAULT-VALUE})")
        double offeredMbit = 200;

        @Option(names = "--target-off", paramLabel = "F",
                description = "share a loop-off run delivers (default ${DEFAULT-VALUE})")
        double targetOff = 0.70;

        @Option(names = "--interval-ms", paramLabel = "N",
                description = "telemetry sampling (default ${DEFAULT-VALUE})")
        long intervalMs = 100;

        @Option(names = "--samples", paramLabel = "N",
                description = "samples above threshold to detect (default ${DEFAULT-VALUE})")
        int samplesToEnter = 2;

        @Option(names = "--drop-fraction", paramLabel = "F",
                description = "queue-drop threshold (default ${DEFAULT-VALUE})")
        double dropFraction = 0.05;

        // 5 x the threshold: the throttle's first full sample drops ~40 %; the --noise link's bursts 10 %.
        @Option(names = "--at-once", paramLabel = "F",
                description = "one sample dropping more than this share is hot at once; 0 = off (default "
                        + "${DEFAULT-VALUE})")
        double atOnceDropFraction = 0.25;

        @Option(names = "--no-baseline", description = "skip the unthrottled baseline run")
        boolean noBaseline;

        @Option(names = "--noise", description =
                "add a loop-off run on a noisy, not congested, link (false detections)")
        boolean noise;

        @Option(names = "--runs", paramLabel = "N", description = "loop-on runs (default ${DEFAULT-VALUE})")
        int runs = 1;

        @Option(names = "--json", description = "print one JSON object instead of the table")
        boolean json;

        @Option(names = "--out", paramLabel = "DIR", description = "where logs, the JSON and the plot go")
        Path out;

        @Option(names = "--tag", paramLabel = "T",
                description = "the lab's tag (namespaces wl-<tag>-*; default ${DEFAULT-VALUE})")
        String tag = "rr";

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
        boolean help;
    }

    /** Checks every field; returns this. */
    public ExperimentOptions checked() {
        if (!fabric.equals("2x2") && !fabric.equals("ft4")) {
            throw new IllegalArgumentException("--fabric: unknown fabric \"" + fabric + "\" (known: 2x2, ft4)");
        }
        if (!encoding.equals("srv6") && !encoding.equals("ev")) {
            throw new IllegalArgumentException("--encoding: unknown encoding \"" + encoding + "\" (known: srv6, ev)");
        }
        if (!fault.equals("throttle") && !fault.equals("link-down")) {
            throw new IllegalArgumentException("--fault: unknown fault \"" + fault + "\" (known: throttle, link-down)");
        }
        if (durationS < 4 || durationS > 600) {
            throw new IllegalArgumentException("--duration: must be 4..600 s (got " + durationS + ")");
        }
        if (!(throttleAtS >= 1 && throttleAtS <= durationS - 2)) {
            throw new IllegalArgumentException("--throttle-at: must be 1.." + (durationS - 2) + " s (got " + throttleAtS
                    + ")");
        }
        if (!(offeredMbit >= 10 && offeredMbit <= 5000)) {
            throw new IllegalArgumentException("--rate: must be 10..5000 Mbit/s (got " + offeredMbit + ")");
        }
        double share = throttleShare();
        if (!(targetOff > 0 && targetOff < 1) || !(share > 0.05 && share < 0.95)) {
            throw new IllegalArgumentException("--target-off: " + targetOff + " needs a throttle at " + share
                    + " of the rate; choose a share that the throttle time allows (e.g. 0.70)");
        }
        if (intervalMs < 20 || intervalMs > 10_000) {
            throw new IllegalArgumentException("--interval-ms: must be 20..10000 (got " + intervalMs + ")");
        }
        if (samplesToEnter < 1 || samplesToEnter > 20) {
            throw new IllegalArgumentException("--samples: must be 1..20 (got " + samplesToEnter + ")");
        }
        if (!(dropFraction > 0 && dropFraction < 0.9)) {
            throw new IllegalArgumentException("--drop-fraction: must be in (0, 0.9) (got " + dropFraction + ")");
        }
        if (!(atOnceDropFraction == 0 || (atOnceDropFraction > dropFraction && atOnceDropFraction < 1))) {
            throw new IllegalArgumentException("--at-once: must be 0 (off) or in (--drop-fraction " + dropFraction
                    + ", 1) (got " + atOnceDropFraction + ")");
        }
        if (runs < 1 || runs > 50) {
            throw new IllegalArgumentException("--runs: must be 1..50 (got " + runs + ")");
        }
        if (!tag.matches("[a-z0-9]{1,8}")) {
            throw new IllegalArgumentException("--tag: 1-8 lowercase letters or digits (got \"" + tag + "\")");
        }
        return this;
    }

    /**
     * The throttle as a share of the unthrottled rate that makes a loop-off run deliver
     * {@code targetOff} of an unthrottled one: full rate until the throttle, the throttle's rate after.
     */
    public double throttleShare() {
        return (targetOff * durationS - throttleAtS) / (durationS - throttleAtS);
    }

    /** The CI variant: 10 s, throttle at 3 s, no baseline run. */
    public static ExperimentOptions ci(Path out, String tag) {
        return new ExperimentOptions("2x2", "srv6", "throttle", 10, 3, 200, 0.70, 100, 2, 0.05, 0.25, false, false, 1,
                false,
                out, tag).checked();
    }
}
