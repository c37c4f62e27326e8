package io.weft.scheduler.apibench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The service's stop-the-world pauses, from its unified GC log ({@code -Xlog:gc:file=...}): one line
 * per pause, e.g. {@code [3.2s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause) 90M->12M(256M)
 * 4.021ms}, and a first line naming the collector ({@code Using G1}).
 */
record GcPauses(String collector, int count, double maxMs, double totalMs) {
    private static final Pattern PAUSE = Pattern.compile("\\bPause\\b.* ([0-9.]+)ms\\s*$");
    private static final Pattern USING = Pattern.compile("\\bUsing (\\w+)");

    /** Lines the log has now (a later {@link #read} counts only the pauses after them). */
    static int lines(Path log) {
        try {
            return Files.readAllLines(log).size();
        } catch (IOException e) {
            return 0;
        }
    }

    /** The pauses after the first {@code from} lines; the collector from the whole log. */
    static GcPauses read(Path log, int from) {
        try {
            return parse(Files.readAllLines(log), from);
        } catch (IOException e) {
            return new GcPauses("?", 0, Double.NaN, Double.NaN);
        }
    }

    static GcPauses parse(List<String> lines, int from) {
        String collector = "?";
        int count = 0;
        double max = 0;
        double total = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher using = USING.matcher(line);
            if (collector.equals("?") && using.find()) {
                collector = using.group(1);
            }
            Matcher m = PAUSE.matcher(line);
            if (i >= from && m.find()) {
                double ms = Double.parseDouble(m.group(1));
                count++;
                max = Math.max(max, ms);
                total += ms;
            }
        }
        return new GcPauses(collector, count, max, total);
    }
}
