package io.weft.telemetry.history;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.weft.telemetry.config.HistoryProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Daily partitions of the history tables (UTC days, named {@code <table>_pYYYYMMDD}): created from
 * today to {@code partitionsAheadDays} ahead, dropped once wholly older than {@code retentionDays}.
 * Runs at start-up and then hourly; the writer also asks for a day's partition before writing into
 * it, and gets false for days outside the retention window (rows it then drops, counted).
 */
@Component
public class Partitions {
    static final List<String> TABLES = List.of("link_rollup", "hotspot_event");
    private static final Logger LOG = LoggerFactory.getLogger(Partitions.class);
    private static final DateTimeFormatter SUFFIX = DateTimeFormatter.ofPattern("yyyyMMdd");

    private final JdbcTemplate jdbc;
    private final HistoryProperties history;
    private final Clock clock;
    private final Set<LocalDate> known = ConcurrentHashMap.newKeySet();

    Partitions(JdbcTemplate jdbc, HistoryProperties history) {
        this.jdbc = jdbc;
        this.history = history;
        this.clock = Clock.systemUTC();
    }

    /** Creates the partitions ahead and drops the expired ones. */
    @Scheduled(initialDelay = 0, fixedDelayString = "PT1H")
    public synchronized void maintain() {
        LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
        for (int d = 0; d <= history.partitionsAheadDays(); d++) {
            ensure(today.plusDays(d));
        }
        LocalDate oldestKept = today.minusDays(history.retentionDays());
        for (String table : TABLES) {
            List<String> parts = jdbc.queryForList("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = "
                    + "i.inhrelid"
                    + " JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = ? AND p.relnamespace = c.relnamespace",
                    String.class, table);
            for (String part : parts) {
                LocalDate day = dayOf(table, part);
                if (day != null && day.isBefore(oldestKept)) {
                    jdbc.execute("DROP TABLE IF EXISTS " + part);
                    known.remove(day);
                    LOG.info("history: dropped partition {} (older than {} days)", part, history.retentionDays());
                }
            }
        }
    }

    /**
     * Makes sure the partitions for this UTC day exist; false (nothing created) when the day is older
     * than the retention or further ahead than partitionsAheadDays + 1 (a clock gone wrong).
     */
    public synchronized boolean ensure(LocalDate day) {
        if (known.contains(day)) {
            return true;
        }
        LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
        if (day.isBefore(today.minusDays(history.retentionDays()))
                || day.isAfter(today.plusDays(history.partitionsAheadDays() + 1))) {
            return false;
        }
        for (String table : TABLES) {
            // Names and bounds come from a LocalDate, never from input: safe to splice.
            jdbc.execute("CREATE TABLE IF NOT EXISTS " + table + "_p" + SUFFIX.format(day) + " PARTITION OF " + table
                    + " FOR VALUES FROM ('" + day + " 00:00:00+00') TO ('" + day.plusDays(1) + " 00:00:00+00')");
        }
        known.add(day);
        return true;
    }

    static LocalDate dayOf(String table, String partition) {
        String prefix = table + "_p";
        if (!partition.startsWith(prefix) || partition.length() != prefix.length() + 8) {
            return null;
        }
        try {
            return LocalDate.parse(partition.substring(prefix.length()), SUFFIX);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
