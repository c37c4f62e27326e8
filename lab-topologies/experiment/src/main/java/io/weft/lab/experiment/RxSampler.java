package io.weft.lab.experiment;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The receiving NIC's throughput every 100 ms from its kernel counter ({@code rx_bytes} of its
 * port), read by one python3 process inside the host's namespace that stamps each reading with the
 * wall clock. The kernel counts a frame when it arrives, so a receiver process that the busy machine
 * schedules late (iperf3's own 100 ms reports then show a stall and a burst) does not bend the curve.
 */
final class RxSampler implements AutoCloseable {
    private static final String SCRIPT = """
            import sys, time
            f = '/sys/class/net/%s/statistics/rx_bytes' % sys.argv[1]
            step = int(sys.argv[2]) * 1000000
            nxt = time.time_ns()
            while True:
                with open(f) as c:
                    v = c.read().strip()
                print(time.time_ns(), v, flush=True)
                nxt += step
                time.sleep(max(0, nxt - time.time_ns()) / 1e9)
            """;

    private final Process process;
    private final List<long[]> readings = new ArrayList<>();
    private final Thread reader;

    RxSampler(String namespace, String iface, long intervalMs) throws IOException {
        process = new ProcessBuilder("ip", "netns", "exec", namespace, "python3", "-c", SCRIPT, iface,
                Long.toString(intervalMs)).redirectErrorStream(true).start();
        reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length == 2 && f[0].matches("\\d+") && f[1].matches("\\d+")) {
                        synchronized (readings) {
                            readings.add(new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])});
                        }
                    }
                }
            } catch (IOException ended) {
                // Stopped.
            }
        }, "rx-sampler-" + namespace);
        reader.setDaemon(true);
        reader.start();
    }

    /** Readings so far, as {epoch ns, rx bytes}. */
    List<long[]> readings() {
        synchronized (readings) {
            return List.copyOf(readings);
        }
    }

    /** The intervals between readings in [t0, t0 + durationS], times in seconds since {@code t0EpochNs}. */
    static Throughput throughput(List<long[]> readings, long t0EpochNs, double durationS) {
        List<Throughput.Sample> out = new ArrayList<>();
        for (int i = 1; i < readings.size(); i++) {
            double a = (readings.get(i - 1)[0] - t0EpochNs) / 1e9;
            double b = (readings.get(i)[0] - t0EpochNs) / 1e9;
            if (a >= 0 && b <= durationS + 0.05) {
                out.add(new Throughput.Sample(a, b, readings.get(i)[1] - readings.get(i - 1)[1]));
            }
        }
        return new Throughput(List.copyOf(out));
    }

    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor();
            reader.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
