package io.weft.lab.experiment;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads scheduler-api's log for the loop's own split of a re-placement pass: the INFO line its
 * hotspot listener writes after each pass that moved flows, "moved N flow slices (trigger; cause):
 * event to agents woken M ms; {eventId=.., eventToReceivedMs=.., receivedToPassUs=.., lockWaitUs=..,
 * decideUs=.., pinUs=.., recordUs=.., eventToCommitMs=.., commitToWakeMs=..}". A pass the
 * controller's fabric snapshot made instead (the other way a link-down moves flows) writes no such
 * line.
 */
final class SchedulerLog {
    /** The line's time (Spring Boot's ISO instant first) and the chain map at its end. */
    private static final Pattern MOVED = Pattern.compile(
            "^(\\S+)\\s.*moved \\d+ flow slices \\(([a-z-]+); ([^;)]+)[^{]*\\{(.*)}\\s*$");
    private static final Pattern ENTRY = Pattern.compile("(\\w+)=([^,]*)");

    /** One pass of the loop: its trigger, cause, when it was logged and its numbers by name. */
    record Pass(Instant loggedAt, String trigger, String cause, Map<String, String> chain) {
        long number(String key) {
            String v = chain.get(key);
            return v == null ? -1 : Long.parseLong(v.trim());
        }
    }

    private SchedulerLog() {
    }

    /** The first pass logged at or after {@code after} whose cause starts with {@code causePrefix}, or null. */
    static Pass firstPass(List<String> lines, Instant after, String causePrefix) {
        for (String line : lines) {
            Matcher m = MOVED.matcher(line);
            if (!m.matches() || !m.group(3).startsWith(causePrefix)) {
                continue;
            }
            Instant at;
            try {
                at = Instant.parse(m.group(1));
            } catch (java.time.format.DateTimeParseException e) {
                continue;
            }
            if (at.isBefore(after)) {
                continue;
            }
            Map<String, String> chain = new LinkedHashMap<>();
            Matcher e = ENTRY.matcher(m.group(4));
            while (e.find()) {
                chain.put(e.group(1), e.group(2));
            }
            return new Pass(at, m.group(2), m.group(3).trim(), chain);
        }
        return null;
    }
}
