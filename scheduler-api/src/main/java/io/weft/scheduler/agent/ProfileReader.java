package io.weft.scheduler.agent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.weft.plan.FabricPlan;
import io.weft.scheduler.fabric.Placement;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * A NIC's {@link EvProfile} at its latest committed version (or newer): from the {@link ProfileCache}
 * when it has the NIC at that version (on the writer, after its own commits), else read from the
 * committed assignments of the NIC's served flows in PostgreSQL (every replica; the writer after a
 * restart or when the cache could not follow a change) and kept in the cache. When a change wakes
 * many agents of one NIC, or agents pull at a high rate, the database is read at most once per NIC
 * and version.
 *
 * <p>At the api bench's scale (1,024 NICs, four active ring jobs) the read is index lookups only
 * (EXPLAIN ANALYZE 1.7 ms for 128 NICs' 512 rows); reading all 4,096 rows cost ~10 ms of CPU here
 * and ~23 ms in PostgreSQL, and on two cores the reads ran between the fan-out's writes and delayed
 * them. Built on the writer from what the commit wrote, a fan-out reads nothing.
 */
@Component
class ProfileReader {
    private final JdbcClient jdbc;
    private final PathBoard board;
    private final ProfileCache cache;
    private final Placement placement;

    ProfileReader(JdbcClient jdbc, PathBoard board, ProfileCache cache, Placement placement) {
        this.jdbc = jdbc;
        this.board = board;
        this.cache = cache;
        this.placement = placement;
        board.beforeWake(this::preload);
    }

    /** The NIC's profile at its latest committed version (or newer). */
    EvProfile current(String nic) {
        long want = board.version(nic);
        ProfileCache.Snapshot s = cache.at(nic, want);
        if (s == null) {
            // One read per NIC at a time: the first reads, the others get its answer.
            s = cache.load(nic, want, k -> {
                Map<String, Long> versions = new HashMap<>();
                List<ProfileCache.Row> rows = read(List.of(k), versions).getOrDefault(k, List.of());
                return new ProfileCache.Snapshot(versions.getOrDefault(k, 0L), ProfileCache.byId(rows));
            });
        }
        return cache.profile(nic, s);
    }

    /**
     * Loads the profiles of many NICs the cache does not have at their latest version, in two
     * queries (a job change touches thousands), so that the agents woken next find them ready.
     */
    void preload(Collection<String> nics) {
        List<String> missing = new ArrayList<>();
        for (String nic : nics) {
            if (cache.at(nic, board.version(nic)) == null) {
                missing.add(nic);
            }
        }
        if (!missing.isEmpty()) {
            seedAll(missing);
        }
    }

    /** Profiles of many NICs as the database has them now (the cache is neither asked nor told). */
    Map<String, EvProfile> readAll(Collection<String> nics) {
        Map<String, Long> versions = new HashMap<>();
        Map<String, List<ProfileCache.Row>> rows = read(nics, versions);
        FabricPlan plan = placement.ready() ? placement.view().plan() : null;
        Map<String, EvProfile> out = new HashMap<>();
        for (String nic : nics) {
            out.put(nic, ProfileCache.build(nic, versions.getOrDefault(nic, 0L), rows.getOrDefault(nic, List.of()),
                    plan));
        }
        return out;
    }

    /** Reads the NICs and hands each read to the cache. */
    private void seedAll(Collection<String> nics) {
        Map<String, Long> versions = new HashMap<>();
        Map<String, List<ProfileCache.Row>> rows = read(nics, versions);
        for (String nic : nics) {
            cache.seed(nic, versions.getOrDefault(nic, 0L), rows.getOrDefault(nic, List.of()));
        }
    }

    /**
     * The served rows per NIC, and each NIC's version into {@code versions}. The version is read
     * before the flows: a change committed in between then shows up with the older version number,
     * and the agent is woken once more for it; the reverse order could label old flows with a new
     * version and lose an update.
     */
    private Map<String, List<ProfileCache.Row>> read(Collection<String> nics, Map<String, Long> versions) {
        String[] ids = nics.toArray(new String[0]);
        jdbc.sql("select nic, version from nic_versions where nic = any(?)").param(ids)
                .query((rs, n) -> versions.put(rs.getString(1), rs.getLong(2))).list();
        Map<String, List<ProfileCache.Row>> bySrc = new HashMap<>();
        // The filter matches the partial index flows_served_by_src (released and retired flows left
        // out), so a read does not grow with history; JobLifecycleTest checks the two still agree.
        // The carriers as one string (addresses hold no comma): pgjdbc's getArray builds an array
        // object and parses its text for every row. The cache orders the rows.
        jdbc.sql("select f.src_nic, f.id, f.job_id, f.dst_nic, f.demand_gbps, p.state, "
                        + "array_to_string(p.carriers, ','), p.ev, j.encoding, p.arcs[1], j.seq, f.flow_index, f.slice "
                        + "from flows f join path_assignments p on p.flow_id = f.id join jobs j on j.id = f.job_id "
                        + "where f.src_nic = any(?) and not f.released and f.retired_at is null and j.state = 'ACTIVE'")
                .param(ids)
                .query((rs, n) -> {
                    String src = rs.getString(1);
                    String id = rs.getString(2);
                    String joined = rs.getString(7);
                    List<String> carriers = joined.isEmpty() ? List.of() : Arrays.asList(joined.split(","));
                    ProfileCache.Flow flow = new ProfileCache.Flow(id, rs.getString(3), src, rs.getString(4),
                            rs.getDouble(5), rs.getInt(12), rs.getInt(13));
                    ProfileCache.Path path = new ProfileCache.Path(id, src, rs.getString(6), carriers,
                            (Integer) rs.getObject(8), rs.getString(10));
                    ProfileCache.Job job = new ProfileCache.Job(rs.getLong(11), rs.getString(9));
                    bySrc.computeIfAbsent(src, k -> new ArrayList<>()).add(new ProfileCache.Row(flow, job, path));
                    return null;
                })
                .list();
        return bySrc;
    }
}
