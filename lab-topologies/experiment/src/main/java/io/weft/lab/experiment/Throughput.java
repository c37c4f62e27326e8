package io.weft.lab.experiment;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the receiver got, interval by interval (seconds since the traffic started, bytes): from the
 * receiving NIC's counter ({@link RxSampler}), or from an iperf3 server's report ({@code -J -i 0.1}).
 */
public record Throughput(List<Sample> samples) {
    /** One receiver interval: [startS, endS) and the bytes that arrived in it. */
    public record Sample(double startS, double endS, long bytes) {
        public double mbit() {
            return endS > startS ? bytes * 8 / (endS - startS) / 1e6 : 0;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Reads the intervals of an iperf3 server's JSON report; fails naming what is missing. */
    public static Throughput parse(String iperf3Json) {
        JsonNode root;
        try {
            root = JSON.readTree(iperf3Json);
        } catch (IOException e) {
            throw new IllegalArgumentException("iperf3 report: not JSON (" + e.getMessage() + ")");
        }
        if (root.hasNonNull("error")) {
            throw new IllegalArgumentException("iperf3 report: error \"" + root.get("error").asText() + "\"");
        }
        JsonNode intervals = root.path("intervals");
        if (!intervals.isArray()) {
            throw new IllegalArgumentException("iperf3 report: no intervals array");
        }
        List<Sample> out = new ArrayList<>();
        for (JsonNode i : intervals) {
            JsonNode s = i.path("sum");
            if (!s.has("start") || !s.has("end") || !s.has("bytes")) {
                throw new IllegalArgumentException("iperf3 report: interval without sum.start/end/bytes: " + s);
            }
            out.add(new Sample(s.get("start").asDouble(), s.get("end").asDouble(), s.get("bytes").asLong()));
        }
        return new Throughput(List.copyOf(out));
    }

    /** Bytes received in [0, untilS) (intervals are counted whole when they start before untilS). */
    public long bytes(double untilS) {
        long b = 0;
        for (Sample s : samples) {
            if (s.startS() < untilS) {
                b += s.bytes();
            }
        }
        return b;
    }

    public long totalBytes() {
        return bytes(Double.MAX_VALUE);
    }

    /** Mean receive rate over [fromS, toS), Mbit/s. */
    public double meanMbit(double fromS, double toS) {
        long b = 0;
        double t = 0;
        for (Sample s : samples) {
            if (s.startS() >= fromS && s.endS() <= toS) {
                b += s.bytes();
                t += s.endS() - s.startS();
            }
        }
        return t > 0 ? b * 8 / t / 1e6 : 0;
    }

    /**
     * The end of the first interval at or after {@code fromS} from which the rate stays at least
     * {@code mbit} for {@code hold} intervals in a row, or NaN.
     */
    public double firstSustained(double fromS, double mbit, int hold) {
        for (int i = 0; i + hold <= samples.size(); i++) {
            if (samples.get(i).startS() < fromS) {
                continue;
            }
            boolean ok = true;
            for (int j = i; j < i + hold; j++) {
                ok &= samples.get(j).mbit() >= mbit;
            }
            if (ok) {
                return samples.get(i).endS();
            }
        }
        return Double.NaN;
    }
}
