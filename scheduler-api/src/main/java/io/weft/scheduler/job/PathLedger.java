package io.weft.scheduler.job;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.weft.scheduler.agent.PathBoard;
import org.springframework.jdbc.core.JdbcTemplate;
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
    /** Flow states of the EV profile (OCP MRC NIC API). */
    public static final String GOOD = "GOOD";
    public static final String DENIED = "DENIED";

    /**
     * One flow slice's new path. {@code arcs} empty and state DENIED when it lost its path (the
     * encodings are then empty too).
     */
    public record PathChange(String flowId, String jobId, String srcNic, List<String> arcs, List<String> carriers,
                             List<Integer> usids, Integer ev, String state, String reason) {
    }

    private final JdbcClient jdbc;
    private final JdbcTemplate batch;
    private final PathBoard board;
    private final MeterRegistry meters;
    private final Counter versionsIssued;

    PathLedger(JdbcClient jdbc, JdbcTemplate batch, PathBoard board, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.batch = batch;
        this.board = board;
        this.meters = meters;
        this.versionsIssued = Counter.builder("weft.versions.issued")
                .description("per-NIC path versions issued").register(meters);
    }

    /** Records the changes inside the caller's transaction; returns the new version per source NIC. */
    public Map<String, Long> record(List<PathChange> changes) {
        if (changes.isEmpty()) {
            return Map.of();
        }
        Map<String, Long> versions = nextVersions(changes.stream().map(PathChange::srcNic).distinct().toList());
        // Batched: a 4,096-flow job is two round trips, not 8,192.
        List<Object[]> assignments = new ArrayList<>(changes.size());
        List<Object[]> history = new ArrayList<>(changes.size());
        for (PathChange c : changes) {
            long v = versions.get(c.srcNic());
            String[] arcs = c.arcs().toArray(new String[0]);
            assignments.add(new Object[] {c.flowId(), v, arcs, c.carriers().toArray(new String[0]),
                c.usids().toArray(new Integer[0]), c.ev(), c.state()});
            history.add(new Object[] {c.flowId(), c.jobId(), v, arcs, c.reason()});
            if (!c.reason().equals("placed")) {
                meters.counter("weft.replacements", "reason", reasonTag(c.reason())).increment();
            }
        }
        batch.batchUpdate("insert into path_assignments (flow_id, version, arcs, carriers, usids, ev, state) "
                + "values (?, ?, ?, ?, ?, ?, ?) on conflict (flow_id) do update set version = excluded.version, "
                + "arcs = excluded.arcs, carriers = excluded.carriers, usids = excluded.usids, "
                + "ev = excluded.ev, state = excluded.state", assignments);
        batch.batchUpdate("insert into path_history (flow_id, job_id, version, arcs, reason) values (?, ?, ?, ?, ?)",
                history);
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

    /** One new version per NIC, from the shared sequence, in one statement. */
    private Map<String, Long> nextVersions(List<String> nics) {
        Map<String, Long> out = new LinkedHashMap<>();
        jdbc.sql("insert into nic_versions (nic, version) select n, nextval('nic_version_seq') "
                        + "from unnest(cast(? as text[])) as n on conflict (nic) do update set version = excluded.version "
                        + "returning nic, version")
                .param(nics.toArray(new String[0]))
                .query((rs, i) -> out.put(rs.getString(1), rs.getLong(2)))
                .list();
        return out;
    }

    /** "link-down:leaf1-spine2" counts as "link-down": the tag must stay low-cardinality. */
    private static String reasonTag(String reason) {
        int colon = reason.indexOf(':');
        return colon < 0 ? reason : reason.substring(0, colon);
    }
}
