package io.weft.lab.experiment;

import java.nio.file.Path;
import java.util.List;

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
                                double dropFraction, boolean baseline, boolean noise, int runs, boolean json, Path out, String tag) {

    public static final String USAGE = """
            usage: ./weft lab experiment reroute [--fabric 2x2|ft4] [--encoding srv6|ev] [--fault throttle|link-down]
                   [--duration S] [--throttle-at S] [--rate MBIT] [--target-off F] [--interval-ms N]
                   [--samples N] [--drop-fraction F] [--no-baseline] [--noise] [--runs N] [--json] [--out DIR] [--tag T]
            The SRv6 paper's reroute experiment on the namespace lab: a 2-host job, iperf3 UDP along its
            path, a TBF throttle on that path at --throttle-at, run with the loop off, then on (--runs times).""";

    public static ExperimentOptions defaults(Path out) {
        return new ExperimentOptions("2x2", "srv6", "throttle", 30, 5, 200, 0.70, 100, 2, 0.05, true, false, 1, false, out,
                "rr");
    }

    /** Parses {@code reroute [options]}; throws naming the option on anything it does not know. */
    public static ExperimentOptions parse(List<String> args, Path defaultOut) {
        if (args.isEmpty()) {
            throw new IllegalArgumentException("experiment: name one (reroute)");
        }
        if (!args.get(0).equals("reroute")) {
            throw new IllegalArgumentException("experiment: unknown experiment \"" + args.get(0) + "\" (known: reroute)");
        }
        ExperimentOptions o = defaults(defaultOut);
        for (int i = 1; i < args.size(); i++) {
            String flag = args.get(i);
            switch (flag) {
                case "--json" -> o = o.with(b -> b.json = true);
                case "--no-baseline" -> o = o.with(b -> b.baseline = false);
                case "--noise" -> o = o.with(b -> b.noise = true);
                case "--fabric", "--encoding", "--fault", "--duration", "--throttle-at", "--rate", "--target-off",
                     "--interval-ms", "--samples", "--drop-fraction", "--runs", "--out", "--tag" -> {
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException(flag + ": needs a value");
                    }
                    o = o.set(flag, args.get(++i));
                }
                default -> throw new IllegalArgumentException(flag + ": unknown option (see --help)");
            }
        }
        return o.checked();
    }

    private ExperimentOptions set(String flag, String v) {
        return switch (flag) {
            case "--fabric" -> with(b -> b.fabric = v);
            case "--encoding" -> with(b -> b.encoding = v);
            case "--fault" -> with(b -> b.fault = v);
            case "--duration" -> with(b -> b.durationS = (int) number(flag, v));
            case "--throttle-at" -> with(b -> b.throttleAtS = number(flag, v));
            case "--rate" -> with(b -> b.offeredMbit = number(flag, v));
            case "--target-off" -> with(b -> b.targetOff = number(flag, v));
            case "--interval-ms" -> with(b -> b.intervalMs = (long) number(flag, v));
            case "--samples" -> with(b -> b.samplesToEnter = (int) number(flag, v));
            case "--drop-fraction" -> with(b -> b.dropFraction = number(flag, v));
            case "--runs" -> with(b -> b.runs = (int) number(flag, v));
            case "--out" -> with(b -> b.out = Path.of(v));
            case "--tag" -> with(b -> b.tag = v);
            default -> throw new IllegalStateException("unhandled option " + flag);
        };
    }

    private static double number(String flag, String v) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + ": not a number: \"" + v + "\"");
        }
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

    /** A mutable copy for the parser's one-field changes. */
    private static final class B {
        String fabric;
        String encoding;
        String fault;
        int durationS;
        double throttleAtS;
        double offeredMbit;
        double targetOff;
        long intervalMs;
        int samplesToEnter;
        double dropFraction;
        boolean baseline;
        boolean noise;
        int runs;
        boolean json;
        Path out;
        String tag;
    }

    private ExperimentOptions with(java.util.function.Consumer<B> change) {
        B b = new B();
        b.fabric = fabric;
        b.encoding = encoding;
        b.fault = fault;
        b.durationS = durationS;
        b.throttleAtS = throttleAtS;
        b.offeredMbit = offeredMbit;
        b.targetOff = targetOff;
        b.intervalMs = intervalMs;
        b.samplesToEnter = samplesToEnter;
        b.dropFraction = dropFraction;
        b.baseline = baseline;
        b.noise = noise;
        b.runs = runs;
        b.json = json;
        b.out = out;
        b.tag = tag;
        change.accept(b);
        return new ExperimentOptions(b.fabric, b.encoding, b.fault, b.durationS, b.throttleAtS, b.offeredMbit,
                b.targetOff, b.intervalMs, b.samplesToEnter, b.dropFraction, b.baseline, b.noise, b.runs, b.json, b.out, b.tag);
    }

    /** The CI variant: 10 s, throttle at 3 s, no baseline run. */
    public static ExperimentOptions ci(Path out, String tag) {
        return new ExperimentOptions("2x2", "srv6", "throttle", 10, 3, 200, 0.70, 100, 2, 0.05, false, false, 1, false, out,
                tag).checked();
    }
}
