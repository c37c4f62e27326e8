package io.weft.lab.experiment;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a host's routes changed, as the kernel announced them: {@code ip -n <ns> -ts monitor route}
 * run for the length of a run, each line stamped by iproute2 (microseconds, local time). This is
 * "route installed" of the loop's timing chain, seen from outside the agent that installed it.
 */
final class RouteMonitor implements AutoCloseable {
    /** One announced route: when, its destination, its carriers (empty when none) and whether it was deleted. */
    record RouteEvent(Instant at, String dst, List<String> carriers, boolean deleted) {
    }

    private static final Pattern LINE = Pattern.compile(
            "^\\[(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d+)]\\s+(Deleted\\s+)?(\\S+)(.*)$");
    private static final Pattern SEGS = Pattern.compile("segs \\d+ \\[ ([^]]*) ]");

    private final Process process;
    private final List<RouteEvent> events = new ArrayList<>();
    private final Thread reader;

    RouteMonitor(String namespace) throws IOException {
        process = new ProcessBuilder("ip", "-n", namespace, "-ts", "monitor", "route")
                .redirectErrorStream(true).start();
        reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    RouteEvent e = parse(line, ZoneId.systemDefault());
                    if (e != null) {
                        synchronized (events) {
                            events.add(e);
                        }
                    }
                }
            } catch (IOException ended) {
                // The monitor was stopped.
            }
        }, "route-monitor-" + namespace);
        reader.setDaemon(true);
        reader.start();
    }

    /** One line of {@code ip -ts monitor route}, or null when it is not a route line. */
    static RouteEvent parse(String line, ZoneId zone) {
        Matcher m = LINE.matcher(line.strip());
        if (!m.matches()) {
            return null;
        }
        Instant at = LocalDateTime.parse(m.group(1)).atZone(zone).toInstant();
        Matcher s = SEGS.matcher(m.group(4));
        List<String> carriers = s.find() ? Arrays.asList(s.group(1).trim().split("\\s+")) : List.of();
        String dst = m.group(3);
        return new RouteEvent(at, dst.contains("/") ? dst : dst + "/128", List.copyOf(carriers), m.group(2) != null);
    }

    List<RouteEvent> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
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
