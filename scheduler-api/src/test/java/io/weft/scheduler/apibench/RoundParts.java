package io.weft.scheduler.apibench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where one round's time went, beside the service's CPU total: the fan-out writer threads' CPU split
 * into user time (Java: the stream lookup, the event framing, the wake bookkeeping, the profile's
 * serialisation once per NIC) and system time (the write system calls; on loopback the kernel also
 * delivers to the reader inside the writer's call), PostgreSQL's CPU (the profile reads run there, on
 * the same cores), the GC pauses that fell inside the round, and when the service had read the last
 * profiles and woken its last agent (its own debug line), which tells the service's part of the
 * fan-out latency from the time the client took to read.
 *
 * <p>User and system time come from /proc in clock ticks (10 ms): over a round of ~100 ms of writer
 * CPU the split is good to about ±10 ms; summed over the warm rounds it is better.
 */
record RoundParts(double fanoutUserMs, double fanoutSystemMs, double postgresMs, double gcPauseMs,
                  double profilesReadMs, double lastWokenMs, long backlogDrops, long tcpRetransSegs) {
    private static final Pattern TRACE = Pattern.compile("fan-out of (\\d+) NICs: profiles read in [0-9.]+ ms "
            + "\\(last chunk read ([0-9.]+) ms after the publish\\), last agent woken ([0-9.]+) ms after the publish");

    /** Counters at the start of a round. */
    record Mark(long userTicks, long systemTicks, Map<Long, Long> postgresNs, int gcLines, int logLines,
                long backlogDrops, long tcpRetransSegs) {
    }

    /** The embedded PostgreSQL's data directory (its server is found by it); null: not measured. */
    static volatile Path postgresData;

    static Mark mark(long pid, Path gcLog, Path serviceLog) {
        long[] ticks = fanoutTicks(pid);
        return new Mark(ticks[0], ticks[1], postgresNs(), GcPauses.lines(gcLog), GcPauses.lines(serviceLog),
                backlogDrops(readLines(SOFTNET)), tcpRetransSegs(readLines(SNMP)));
    }

    /**
     * The round since {@code m}. The service logs its fan-out line when its last writer task ends,
     * which may be just after the client read the last event: waits up to a second for it.
     */
    static RoundParts since(Mark m, long pid, Path gcLog, Path serviceLog) throws InterruptedException {
        long[] ticks = fanoutTicks(pid);
        double pg = 0;
        for (var e : postgresNs().entrySet()) {
            pg += (e.getValue() - m.postgresNs().getOrDefault(e.getKey(), 0L)) / 1e6;
        }
        double gcMs = GcPauses.read(gcLog, m.gcLines()).totalMs();
        double[] trace = null;
        for (int i = 0; i < 20 && trace == null; i++) {
            trace = trace(readLines(serviceLog), m.logLines());
            if (trace == null) {
                Thread.sleep(50);
            }
        }
        return new RoundParts((ticks[0] - m.userTicks()) * 10.0, (ticks[1] - m.systemTicks()) * 10.0, pg, gcMs,
                trace == null ? Double.NaN : trace[0], trace == null ? Double.NaN : trace[1],
                backlogDrops(readLines(SOFTNET)) - m.backlogDrops(),
                tcpRetransSegs(readLines(SNMP)) - m.tcpRetransSegs());
    }

    private static final Path SOFTNET = Path.of("/proc/net/softnet_stat");
    private static final Path SNMP = Path.of("/proc/net/snmp");

    /**
     * Packets the kernel dropped because a CPU's input backlog was full (the second column of
     * {@code softnet_stat}, hex, one line per CPU), machine-wide. On loopback a burst of writes queues
     * every segment there ({@code net.core.netdev_max_backlog}); a dropped segment reaches its agent
     * only when TCP retransmits it, at least 200 ms later, which the kernel's receive stamp shows and
     * the service's own "last agent woken" cannot.
     */
    static long backlogDrops(List<String> softnetStat) {
        long sum = 0;
        for (String line : softnetStat) {
            String[] f = line.trim().split("\\s+");
            if (f.length > 1) {
                sum += Long.parseLong(f[1], 16);
            }
        }
        return sum;
    }

    /** TCP segments retransmitted so far, machine-wide ({@code /proc/net/snmp}, Tcp: RetransSegs). */
    static long tcpRetransSegs(List<String> snmp) {
        for (int i = 0; i + 1 < snmp.size(); i++) {
            if (snmp.get(i).startsWith("Tcp:") && snmp.get(i + 1).startsWith("Tcp:")) {
                List<String> names = List.of(snmp.get(i).trim().split("\\s+"));
                int at = names.indexOf("RetransSegs");
                String[] values = snmp.get(i + 1).trim().split("\\s+");
                return at < 0 || at >= values.length ? 0 : Long.parseLong(values[at]);
            }
        }
        return 0;
    }

    /**
     * The largest fan-out logged after line {@code from} (the round's job touches every NIC; other
     * publishes are small): {profiles read by, last agent woken}, ms after the publish; null if none.
     */
    static double[] trace(List<String> lines, int from) {
        double[] best = null;
        int bestNics = -1;
        for (int i = Math.max(0, from); i < lines.size(); i++) {
            Matcher t = TRACE.matcher(lines.get(i));
            if (t.find() && Integer.parseInt(t.group(1)) > bestNics) {
                bestNics = Integer.parseInt(t.group(1));
                best = new double[] {Double.parseDouble(t.group(2)), Double.parseDouble(t.group(3))};
            }
        }
        return best;
    }

    private static List<String> readLines(Path log) {
        try {
            return Files.readAllLines(log);
        } catch (IOException e) {
            return List.of();
        }
    }

    /** {user, system} clock ticks of the service's {@code weft-fanout-N} threads so far. */
    private static long[] fanoutTicks(long pid) {
        long[] out = new long[2];
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    if (!Files.readString(t.resolve("comm")).startsWith("weft-fanout")) {
                        continue;
                    }
                    String stat = Files.readString(t.resolve("stat"));
                    // Fields after the command name, which is in parentheses: utime is the 12th, stime the 13th.
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    out[0] += Long.parseLong(f[11]);
                    out[1] += Long.parseLong(f[12]);
                } catch (IOException | RuntimeException gone) {
                    // the thread ended while being read
                }
            }
        } catch (IOException e) {
            return new long[] {0, 0};
        }
        return out;
    }

    /** CPU ms so far of the devstack's PostgreSQL, all processes. */
    static double postgresCpuMs() {
        return postgresNs().values().stream().mapToLong(Long::longValue).sum() / 1e6;
    }

    /**
     * CPU ns so far of the devstack's PostgreSQL server and its backends, by pid (the server is not
     * the bench's child: pg_ctl starts it detached; it is the postgres process given the data directory).
     */
    private static Map<Long, Long> postgresNs() {
        Map<Long, Long> out = new HashMap<>();
        Path data = postgresData;
        if (data == null) {
            return out;
        }
        String dir = data.toAbsolutePath().toString();
        ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false)
                        && p.info().arguments().map(a -> String.join(" ", a).contains(dir)).orElse(false))
                .flatMap(server -> java.util.stream.Stream.concat(java.util.stream.Stream.of(server),
                        server.descendants()))
                .forEach(p -> {
                    try {
                        String s = Files.readString(Path.of("/proc/" + p.pid() + "/schedstat"));
                        out.put(p.pid(), Long.parseLong(s.substring(0, s.indexOf(' '))));
                    } catch (IOException | RuntimeException gone) {
                        // the backend ended
                    }
                });
        return out;
    }
}
