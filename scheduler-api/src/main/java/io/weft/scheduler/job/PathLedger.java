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
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

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

    private final JdbcClient jdbc;
    private final ObjectMapper json;
    private final JdbcTemplate batch;
    private final PathBoard board;
    private final ProfileCache profiles;
    private final MeterRegistry meters;
    private final Counter versionsIssued;

    PathLedger(JdbcClient jdbc, JdbcTemplate batch, PathBoard board, ProfileCache profiles, MeterRegistry meters,
               ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
        this.batch = batch;
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
        // Two statements whatever the size: the assignments as one JSON document unpacked by the
        // server (a batched upsert is not rewritten into a multi-row statement and cost ~0.1-0.2 ms
        // per row), the history as a batched plain insert (rewritten into multi-row INSERTs).
        ArrayNode rows = json.createArrayNode();
        List<Object[]> history = new ArrayList<>(changes.size());
        List<ProfileCache.Path> written = new ArrayList<>(changes.size());
        for (PathChange c : changes) {
            written.add(new ProfileCache.Path(c.flowId(), c.srcNic(), c.state(), c.carriers(), c.ev(),
                    c.arcs().isEmpty() ? null : c.arcs().get(0)));
            long v = versions.get(c.srcNic());
            ObjectNode row = rows.addObject();
            row.put("flow_id", c.flowId());
            row.put("version", v);
            ArrayNode arcs = row.putArray("arcs");
            c.arcs().forEach(arcs::add);
            ArrayNode carriers = row.putArray("carriers");
            c.carriers().forEach(carriers::add);
            ArrayNode usids = row.putArray("usids");
            c.usids().forEach(usids::add);
            if (c.ev() != null) {
                row.put("ev", c.ev());
            }
            row.put("state", c.state());
            history.add(new Object[] {c.flowId(), c.jobId(), v, c.arcs().toArray(new String[0]), c.reason()});
            if (!c.reason().equals("placed")) {
                meters.counter("weft.replacements", "reason", reasonTag(c.reason())).increment();
            }
        }
        long t2 = System.nanoTime();
        jdbc.sql("insert into path_assignments (flow_id, version, arcs, carriers, usids, ev, state) "
                        + "select r.flow_id, r.version, "
                        + "array(select jsonb_array_elements_text(r.arcs)), "
                        + "array(select jsonb_array_elements_text(r.carriers)), "
                        + "array(select cast(jsonb_array_elements_text(r.usids) as integer)), r.ev, r.state "
                        + "from jsonb_to_recordset(cast(? as jsonb)) as r(flow_id text, version bigint, arcs jsonb, "
                        + "carriers jsonb, usids jsonb, ev integer, state text) "
                        + "on conflict (flow_id) do update set version = excluded.version, arcs = excluded.arcs, "
                        + "carriers = excluded.carriers, usids = excluded.usids, ev = excluded.ev, state = "
                        + "excluded.state")
                .param(json.writeValueAsString(rows))
                .update();
        long t3 = System.nanoTime();
        batch.batchUpdate("insert into path_history (flow_id, job_id, version, arcs, reason) values (?, ?, ?, ?, ?)",
                history);
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

    /** "link-down:leaf1-spine2" counts as "link-down": the tag must stay low-cardinality. */
    private static String reasonTag(String reason) {
        int colon = reason.indexOf(':');
        return colon < 0 ? reason : reason.substring(0, colon);
    }
}
