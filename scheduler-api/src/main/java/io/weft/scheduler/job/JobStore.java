package io.weft.scheduler.job;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.weft.scheduler.agent.ProfileCache;
import io.weft.scheduler.job.JobViews.Change;
import io.weft.scheduler.job.JobViews.FlowView;
import io.weft.scheduler.job.JobViews.History;
import io.weft.scheduler.job.JobViews.JobSummary;
import io.weft.scheduler.job.JobViews.JobView;
import io.weft.scheduler.job.JobViews.Page;
import io.weft.scheduler.job.JobViews.QualityView;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;

/** Jobs, their flow slices and idempotency keys in PostgreSQL. Writes run in the caller's transaction. */
@Component
public class JobStore {
    public static final String ACTIVE = "ACTIVE";
    public static final String RELEASED = "RELEASED";

    /** A job row as needed to place it again (restart, new fabric). */
    public record ActiveJob(String id, String tenant, List<FlowRow> flows, Encoding encoding) {
    }

    /** One flow slice as stored; {@code demandGbps} is the slice's share. */
    public record FlowRow(String id, String jobId, int flowIndex, int slice, String src, String dst,
                          double demandGbps) {
    }

    private final JdbcClient jdbc;
    private final JdbcTemplate batch;
    private final ObjectMapper json;
    private final ProfileCache profiles;

    JobStore(JdbcClient jdbc, JdbcTemplate batch, ObjectMapper json, ProfileCache profiles) {
        this.jdbc = jdbc;
        this.batch = batch;
        this.json = json;
        this.profiles = profiles;
    }

    /**
     * @param multipathJson the planner's answer ({@link JobViews.MultipathView} as JSON), or null
     * @param weights       a spread flow's slices: their share of the flow (others have none)
     */
    void insertJob(String id, JobRequest r, String tenant, Encoding encoding, String requestJson, double maxLoad,
                   int collisions, String caller, List<FlowRow> flows, String multipathJson,
                   java.util.Map<String, Double> weights) {
        long seq = jdbc.sql("insert into jobs (id, name, tenant, state, pattern, encoding, request, max_load, "
                        + "collisions, created_by, multipath) values (?, ?, ?, 'ACTIVE', ?, ?, cast(? as jsonb), ?, ?, "
                        + "?, cast(? as jsonb)) returning seq")
                .params(id, r.name(), tenant, r.pattern().jsonName(), encoding.jsonName(), requestJson, maxLoad,
                        collisions, caller, multipathJson)
                .query(Long.class).single();
        List<Object[]> rows = new ArrayList<>(flows.size());
        for (FlowRow f : flows) {
            rows.add(new Object[] {f.id(), id, f.flowIndex(), f.slice(), f.src(), f.dst(), f.demandGbps(),
                    weights.get(f.id())});
        }
        batch.batchUpdate("insert into flows (id, job_id, flow_index, slice, src_nic, dst_nic, demand_gbps, weight) "
                + "values (?, ?, ?, ?, ?, ?, ?, ?)", rows);
        profiles.flowsStored(new ProfileCache.Job(seq, encoding.jsonName()), id, facts(flows));
    }

    private static List<ProfileCache.Flow> facts(List<FlowRow> flows) {
        List<ProfileCache.Flow> out = new ArrayList<>(flows.size());
        for (FlowRow f : flows) {
            out.add(new ProfileCache.Flow(f.id(), f.jobId(), f.src(), f.dst(), f.demandGbps(), f.flowIndex(),
                    f.slice()));
        }
        return out;
    }

    void insertIdempotencyKey(String caller, String key, String requestHash, String jobId) {
        jdbc.sql("insert into idempotency_keys (caller, key, request_hash, job_id) values (?, ?, ?, ?)")
                .params(caller, key, requestHash, jobId).update();
    }

    /** (request hash, job id) of an earlier request with this key, if any. */
    Optional<String[]> idempotent(String caller, String key) {
        return jdbc.sql("select request_hash, job_id from idempotency_keys where caller = ? and key = ?")
                .params(caller, key)
                .query((rs, n) -> new String[] {rs.getString(1), rs.getString(2)})
                .optional();
    }

    /**
     * Marks the job and its flows released; false when it was not active. The flows' flag keeps
     * them out of the index agents' profile reads use ({@code flows_served_by_src}).
     */
    boolean markReleased(String id) {
        if (jdbc.sql("update jobs set state = 'RELEASED', released_at = now() where id = ? and state = 'ACTIVE'")
                .param(id).update() != 1) {
            return false;
        }
        jdbc.sql("update flows set released = true where job_id = ?").param(id).update();
        profiles.jobReleased(id);
        return true;
    }

    /**
     * Flow slices of a job lose their paths (release): DENIED, no arcs, with a history row. Two
     * statements for the whole job (each NIC's new version comes in as a pair of arrays), not two
     * per NIC: releasing a 4,096-NIC job is as cheap as placing it.
     */
    void retireFlows(String jobId, java.util.Map<String, Long> versions) {
        if (versions.isEmpty()) {
            return;
        }
        String[] nics = versions.keySet().toArray(new String[0]);
        Long[] numbers = new Long[nics.length];
        for (int i = 0; i < nics.length; i++) {
            numbers[i] = versions.get(nics[i]);
        }
        jdbc.sql("update path_assignments p set state = 'DENIED', arcs = '{}', carriers = '{}', usids = '{}', "
                        + "ev = null, version = v.version from flows f, "
                        + "unnest(cast(? as text[]), cast(? as bigint[])) as v(nic, version) "
                        + "where f.id = p.flow_id and f.job_id = ? and f.src_nic = v.nic")
                .params(nics, numbers, jobId).update();
        jdbc.sql("insert into path_history (flow_id, job_id, version, arcs, reason) "
                        + "select f.id, f.job_id, v.version, '{}', 'released' from flows f "
                        + "join unnest(cast(? as text[]), cast(? as bigint[])) as v(nic, version) on f.src_nic = v.nic "
                        + "where f.job_id = ?")
                .params(nics, numbers, jobId).update();
    }

    List<String> srcNics(String jobId) {
        return jdbc.sql("select distinct src_nic from flows where job_id = ? order by src_nic").param(jobId)
                .query(String.class).list();
    }

    Optional<String> state(String id) {
        return jdbc.sql("select state from jobs where id = ?").param(id).query(String.class).optional();
    }

    public Optional<JobView> find(String id) {
        Optional<JobView> head = jdbc.sql("select id, name, tenant, state, pattern, encoding, created_by, created_at, "
                        + "released_at, max_load, collisions, multipath from jobs where id = ?")
                .param(id)
                .query((rs, n) -> new JobView(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getString(7), instant(rs, 8), instant(rs, 9),
                        new QualityView(rs.getDouble(10), rs.getInt(11)), multipath(rs.getString(12)), List.of()))
                .optional();
        if (head.isEmpty()) {
            return head;
        }
        JobView j = head.get();
        Encoding enc = Encoding.fromJson(j.encoding());
        List<FlowView> flows = jdbc.sql("select f.id, f.flow_index, f.slice, f.src_nic, f.dst_nic, f.demand_gbps, "
                        + "p.version, p.state, p.arcs, p.carriers, p.usids, p.ev, f.weight from flows f "
                        + "join path_assignments p on p.flow_id = f.id where f.job_id = ? and f.retired_at is null "
                        + "order by f.flow_index, f.slice")
                .param(id)
                .query((rs, n) -> flowView(rs, enc))
                .list();
        return Optional.of(new JobView(j.id(), j.name(), j.tenant(), j.state(), j.pattern(), j.encoding(),
                j.createdBy(), j.createdAt(), j.releasedAt(), j.quality(), j.multipath(), flows));
    }

    private static FlowView flowView(ResultSet rs, Encoding enc) throws SQLException {
        List<String> arcs = strings(rs.getArray(9));
        String src = rs.getString(4);
        Integer ev = (Integer) rs.getObject(12);
        return new FlowView(rs.getString(1), rs.getInt(2), rs.getInt(3), src, rs.getString(5), rs.getDouble(6),
                rs.getLong(7), rs.getString(8), Arcs.links(arcs), arcs.isEmpty() ? List.of() : Arcs.nodes(src, arcs),
                enc.wantsSrv6() ? strings(rs.getArray(10)) : null, enc.wantsSrv6() ? ints(rs.getArray(11)) : null,
                enc.wantsEv() ? ev : null, (Double) rs.getObject(13));
    }

    private JobViews.MultipathView multipath(String json) {
        return json == null ? null : this.json.readValue(json, JobViews.MultipathView.class);
    }

    public Page<JobSummary> list(String tenant, String state, int page, int size) {
        String where = " where (cast(? as text) is null or j.tenant = ?) and (cast(? as text) is null or j.state = ?)";
        long total = jdbc.sql("select count(*) from jobs j" + where).params(tenant, tenant, state, state)
                .query(Long.class).single();
        List<JobSummary> items = jdbc.sql("select j.id, j.name, j.tenant, j.state, j.pattern, j.encoding, "
                        + "(select count(*) from flows f where f.job_id = j.id and f.retired_at is null), "
                        + "j.created_at, j.released_at from jobs j"
                        + where
                        + " order by j.seq limit ? offset ?")
                .params(tenant, tenant, state, state, size, (long) page * size)
                .query((rs, n) -> new JobSummary(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getInt(7), instant(rs, 8), instant(rs, 9)))
                .list();
        return new Page<>(items, page, size, total);
    }

    public Optional<History> history(String jobId) {
        if (state(jobId).isEmpty()) {
            return Optional.empty();
        }
        List<Change> changes = jdbc.sql("select flow_id, version, arcs, reason, at from path_history "
                        + "where job_id = ? order by id")
                .param(jobId)
                .query((rs, n) -> new Change(rs.getString(1), rs.getLong(2), Arcs.links(strings(rs.getArray(3))),
                        rs.getString(4), instant(rs, 5)))
                .list();
        return Optional.of(new History(jobId, changes));
    }

    /** Active jobs in admission order, for placing them again after a restart or a new fabric. */
    public List<ActiveJob> activeJobs() {
        List<String[]> jobs = jdbc.sql("select id, tenant, encoding from jobs where state = 'ACTIVE' order by seq")
                .query((rs, n) -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3)}).list();
        List<ActiveJob> out = new ArrayList<>(jobs.size());
        for (String[] j : jobs) {
            List<FlowRow> flows = jdbc.sql("select id, job_id, flow_index, slice, src_nic, dst_nic, demand_gbps "
                            + "from flows where job_id = ? and retired_at is null order by flow_index, slice")
                    .param(j[0])
                    .query((rs, n) -> new FlowRow(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4),
                            rs.getString(5), rs.getString(6), rs.getDouble(7)))
                    .list();
            out.add(new ActiveJob(j[0], j[1], flows, Encoding.fromJson(j[2])));
        }
        return out;
    }

    /**
     * Active jobs whose flows may spread over several paths (multipath with {@code maxPaths} > 1 and
     * no explicit {@code qpSlices} 1), in admission order.
     */
    List<FabricSpread.SpreadJob> spreadJobs() {
        return jdbc.sql("select id, tenant, encoding, cast(request -> 'multipath' ->> 'maxPaths' as integer), "
                        + "cast(request -> 'multipath' ->> 'granularity' as integer) from jobs "
                        + "where state = 'ACTIVE' and multipath is not null "
                        + "and cast(request -> 'multipath' ->> 'maxPaths' as integer) > 1 "
                        + "and coalesce(request ->> 'qpSlices', '') <> '1' order by seq")
                .query((rs, n) -> new FabricSpread.SpreadJob(rs.getString(1), rs.getString(2),
                        Encoding.fromJson(rs.getString(3)), rs.getInt(4), rs.getInt(5)))
                .list();
    }

    /**
     * A re-spread's flow slices, in the caller's transaction: {@code retired} slices leave use (kept
     * with their history), then each new or re-weighted slice is inserted or updated.
     */
    void respread(List<FlowRow> slices, java.util.Map<String, Double> weights, List<String> retired) {
        if (!retired.isEmpty()) {
            jdbc.sql("update flows set retired_at = now() where id = any(?)")
                    .param(retired.toArray(new String[0])).update();
            profiles.flowsRetired(retired);
        }
        // A batched upsert: one statement over unnest() arrays measured no faster on the large
        // re-spread (~2,000 rows, 40-115 ms at load 6-8: the time is the rows and their four indexes).
        List<Object[]> rows = new ArrayList<>(slices.size());
        for (FlowRow f : slices) {
            rows.add(new Object[] {f.id(), f.jobId(), f.flowIndex(), f.slice(), f.src(), f.dst(), f.demandGbps(),
                    weights.get(f.id())});
        }
        batch.batchUpdate("insert into flows (id, job_id, flow_index, slice, src_nic, dst_nic, demand_gbps, weight) "
                + "values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (id) do update set slice = excluded.slice, "
                + "demand_gbps = excluded.demand_gbps, weight = excluded.weight, retired_at = null", rows);
        profiles.flowsStored(null, null, facts(slices));
    }

    /**
     * A re-spread's figures into the multipath summary of each job it covered, in the caller's
     * transaction: the keys given replace the stored ones, and the admission's fallback, optimum,
     * bounds and gap give way to the pass's (a key left out was not proven by the pass).
     *
     * @param figures per job id, {@link JobViews.MultipathView} fields by name
     */
    void respreadSummaries(java.util.Map<String, java.util.Map<String, Object>> figures) {
        if (figures.isEmpty()) {
            return;
        }
        String[] ids = new String[figures.size()];
        String[] summaries = new String[figures.size()];
        int i = 0;
        for (java.util.Map.Entry<String, java.util.Map<String, Object>> e : figures.entrySet()) {
            ids[i] = e.getKey();
            summaries[i++] = json.writeValueAsString(e.getValue());
        }
        jdbc.sql("update jobs j set multipath = (j.multipath - 'fallback' - 'splittableOptimum' - 'lowerBound' "
                        + "- 'granularBound' - 'gapBound') || cast(f.summary as jsonb) "
                        + "from unnest(cast(? as text[]), cast(? as text[])) as f(id, summary) "
                        + "where j.id = f.id and j.multipath is not null")
                .params(ids, summaries).update();
    }

    /** Current arcs per flow id of active jobs (to tell which flows a re-placement really moved). */
    public java.util.Map<String, List<String>> currentArcs() {
        java.util.Map<String, List<String>> out = new java.util.HashMap<>();
        jdbc.sql("select p.flow_id, p.arcs from path_assignments p join flows f on f.id = p.flow_id "
                        + "join jobs j on j.id = f.job_id where j.state = 'ACTIVE' and f.retired_at is null")
                .query((rs, n) -> out.put(rs.getString(1), strings(rs.getArray(2))))
                .list();
        return out;
    }

    static Instant instant(ResultSet rs, int col) throws SQLException {
        Timestamp t = rs.getTimestamp(col);
        return t == null ? null : t.toInstant();
    }

    static List<String> strings(Array a) throws SQLException {
        return a == null ? List.of() : Arrays.asList((String[]) a.getArray());
    }

    static List<Integer> ints(Array a) throws SQLException {
        return a == null ? List.of() : Arrays.asList((Integer[]) a.getArray());
    }
}
