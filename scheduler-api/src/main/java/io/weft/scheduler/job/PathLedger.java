package io.weft.scheduler.job;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.weft.scheduler.agent.PathBoard;
import io.weft.scheduler.agent.ProfileCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Writes path changes: the flow's current assignment, a history row with the reason, and a new
 * version for every source NIC touched (one version per NIC per transaction, from the shared
 * sequence, so versions only grow). Agents hear of the versions after the commit.
 */
@Component
public class PathLedger {
    private static final Logger LOG = LoggerFactory.getLogger(PathLedger.class);
    /** Flow states of the EV profile (OCP MRC NIC API). */
    public static final String GOOD = "GOOD";
    public static final String DENIED = "DENIED";
    /** Notification channel of committed version ranges, per schema: payload "min max". */
    public static final String VERSIONS_CHANNEL_PREFIX = "weft_nic_versions.";

    /**
     * One flow slice's new path. {@code arcs} empty and state DENIED when it lost its path (the
     * encodings are then empty too).
     */
    public record PathChange(String flowId, String jobId, String srcNic, List<String> arcs, List<String> carriers,
                             List<Integer> usids, Integer ev, String state, String reason) {
    }

    /** Between the elements of a row's list in {@link #joined}; {@link #SQL_SEPARATOR} in SQL. */
    private static final char SEPARATOR = '\u001f';
    private static final String SQL_SEPARATOR = "chr(31)";

    private final JdbcClient jdbc;
    private final PathBoard board;
    private final ProfileCache profiles;
    private final MeterRegistry meters;
    private final Counter versionsIssued;

    PathLedger(JdbcClient jdbc, PathBoard board, ProfileCache profiles, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.board = board;
        this.profiles = profiles;
        this.meters = meters;
        this.versionsIssued = Counter.builder("weft.versions.issued")
                .description("per-NIC path versions issued").register(meters);
    }

    /** Records the changes inside the caller's transaction; returns the new version per source NIC. */
    public Map<String, Long> record(List<PathChange> changes) {
        if (changes.isEmpty()) {
            return Map.of();
        }
        long t0 = System.nanoTime();
        Map<String, Long> versions = nextVersions(changes.stream().map(PathChange::srcNic).distinct().toList());
        long t1 = System.nanoTime();
        // Two statements whatever the size, each column one array parameter unnested by the server
        // (a batched upsert is not rewritten into a multi-row statement and cost ~0.1-0.2 ms per row;
        // one JSON document unpacked row by row cost ~55 us per row on the large re-spread). A row's
        // list (arcs, carriers, uSIDs) travels as one text joined by a separator no element holds.
        int n = changes.size();
        String[] flowIds = new String[n];
        String[] jobIds = new String[n];
        Long[] numbers = new Long[n];
        String[] arcs = new String[n];
        String[] carriers = new String[n];
        String[] usids = new String[n];
        Integer[] evs = new Integer[n];
        String[] states = new String[n];
        String[] reasons = new String[n];
        List<ProfileCache.Path> written = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            PathChange c = changes.get(i);
            written.add(new ProfileCache.Path(c.flowId(), c.srcNic(), c.state(), c.carriers(), c.ev(),
                    c.arcs().isEmpty() ? null : c.arcs().get(0)));
            flowIds[i] = c.flowId();
            jobIds[i] = c.jobId();
            numbers[i] = versions.get(c.srcNic());
            arcs[i] = joined(c.arcs());
            carriers[i] = joined(c.carriers());
            usids[i] = joined(c.usids());
            evs[i] = c.ev();
            states[i] = c.state();
            reasons[i] = c.reason();
            if (!c.reason().equals("placed")) {
                meters.counter("weft.replacements", "reason", reasonTag(c.reason())).increment();
            }
        }
        long t2 = System.nanoTime();
        jdbc.sql("insert into path_assignments (flow_id, version, arcs, carriers, usids, ev, state) "
                        + "select r.flow_id, r.version, string_to_array(r.arcs, " + SQL_SEPARATOR + "), "
                        + "string_to_array(r.carriers, " + SQL_SEPARATOR + "), "
                        + "cast(string_to_array(r.usids, " + SQL_SEPARATOR + ") as integer[]), r.ev, r.state "
                        + "from unnest(cast(? as text[]), cast(? as bigint[]), cast(? as text[]), cast(? as text[]), "
                        + "cast(? as text[]), cast(? as integer[]), cast(? as text[])) "
                        + "as r(flow_id, version, arcs, carriers, usids, ev, state) "
                        + "on conflict (flow_id) do update set version = excluded.version, arcs = excluded.arcs, "
                        + "carriers = excluded.carriers, usids = excluded.usids, ev = excluded.ev, state = "
                        + "excluded.state")
                .params(flowIds, numbers, arcs, carriers, usids, evs, states)
                .update();
        long t3 = System.nanoTime();
        jdbc.sql("insert into path_history (flow_id, job_id, version, arcs, reason) "
                        + "select r.flow_id, r.job_id, r.version, string_to_array(r.arcs, " + SQL_SEPARATOR + "), "
                        + "r.reason from unnest(cast(? as text[]), cast(? as text[]), cast(? as bigint[]), "
                        + "cast(? as text[]), cast(? as text[])) with ordinality "
                        + "as r(flow_id, job_id, version, arcs, reason, n) order by r.n")
                .params(flowIds, jobIds, numbers, arcs, reasons)
                .update();
        long t4 = System.nanoTime();
        profiles.pathsWritten(written);
        if (LOG.isDebugEnabled()) {
            LOG.debug("{} path changes, {} NICs: versions {} us, rows {} us, assignments {} us, history {} us, "
                    + "profile cache {} us", changes.size(), versions.size(), (t1 - t0) / 1000, (t2 - t1) / 1000,
                    (t3 - t2) / 1000, (t4 - t3) / 1000, (System.nanoTime() - t4) / 1000);
        }
        versionsIssued.increment(versions.size());
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                board.publishAll(versions);
            }
        });
        return versions;
    }

    /** Marks a released job's flows DENIED under a new version so agents drop them. */
    public Map<String, Long> retire(String jobId, List<String> srcNics) {
        Map<String, Long> versions = nextVersions(srcNics);
        versionsIssued.increment(versions.size());
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                board.publishAll(versions);
            }
        });
        return versions;
    }

    /**
     * One new version per NIC, from the shared sequence, in one statement; and a notification of the
     * range on the version feed's channel, delivered when the transaction commits, so that every
     * replica wakes the agents polling it ({@code VersionFeed}).
     */
    private Map<String, Long> nextVersions(List<String> nics) {
        Map<String, Long> out = new LinkedHashMap<>();
        String[] ids = nics.toArray(new String[0]);
        // Each NIC's version before this transaction, under the row lock the update would take anyway:
        // the profile cache applies the change only on top of exactly that version.
        Map<String, Long> before = new HashMap<>();
        jdbc.sql("select nic, version from nic_versions where nic = any(?) for update").param(ids)
                .query((rs, i) -> before.put(rs.getString(1), rs.getLong(2))).list();
        jdbc.sql("insert into nic_versions (nic, version) select n, nextval('nic_version_seq') "
                        + "from unnest(cast(? as text[])) as n on conflict (nic) do update set version = "
                        + "excluded.version "
                        + "returning nic, version")
                .param(ids)
                .query((rs, i) -> out.put(rs.getString(1), rs.getLong(2)))
                .list();
        profiles.versionsIssued(out, before);
        if (!out.isEmpty()) {
            long min = out.values().stream().mapToLong(Long::longValue).min().orElseThrow();
            long max = out.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            jdbc.sql("select pg_notify(?, ?)").params(VERSIONS_CHANNEL_PREFIX + currentSchema(), min + " " + max)
                    .query((rs, i) -> null).list();
        }
        return out;
    }

    private volatile String schema;

    private String currentSchema() {
        String s = schema;
        if (s == null) {
            s = jdbc.sql("select current_schema()").query(String.class).single();
            schema = s;
        }
        return s;
    }

    /**
     * One row's list as one text: elements joined by the unit separator (ids, carriers and numbers
     * never hold a control character; one that did would be split wrongly, so it is refused).
     */
    static String joined(List<?> items) {
        StringBuilder b = new StringBuilder();
        for (Object o : items) {
            String s = String.valueOf(o);
            if (s.indexOf(SEPARATOR) >= 0) {
                throw new IllegalStateException("path element '" + s + "' holds the list separator U+001F");
            }
            if (!b.isEmpty()) {
                b.append(SEPARATOR);
            }
            b.append(s);
        }
        return b.toString();
    }

    /** "link-down:leaf1-spine2" counts as "link-down": the tag must stay low-cardinality. */
    private static String reasonTag(String reason) {
        int colon = reason.indexOf(':');
        return colon < 0 ? reason : reason.substring(0, colon);
    }
}
