package io.weft.lab.experiment;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reads a nic-agent's JSON log ({@code --log-format json}, Go slog). */
final class AgentLog {
    private static final ObjectMapper JSON = new ObjectMapper();

    private AgentLog() {
    }

    /**
     * When the agent got the first profile it applied after {@code after}: the "applied" line's time
     * minus its "took" (slog writes durations as nanoseconds). Null when there is none.
     */
    static Instant firstApplyAfter(List<String> lines, Instant after) {
        for (String line : lines) {
            if (!line.startsWith("{")) {
                continue;
            }
            try {
                JsonNode n = JSON.readTree(line);
                if (!n.path("msg").asText().equals("applied") || !n.has("time")) {
                    continue;
                }
                Instant done = Instant.parse(n.get("time").asText());
                Instant got = done.minusNanos(n.path("took").asLong(0));
                if (!got.isBefore(after.minusMillis(1))) {
                    return got;
                }
            } catch (java.io.IOException | java.time.format.DateTimeParseException notALogLine) {
                // Anything else the agent wrote (a panic, a Go runtime line) is not a timing.
            }
        }
        return null;
    }
}
