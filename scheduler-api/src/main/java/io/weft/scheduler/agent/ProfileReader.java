package io.weft.scheduler.agent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.weft.plan.FabricPlan;
import io.weft.scheduler.fabric.Placement;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Builds a NIC's {@link EvProfile} from the committed assignments of its active flows, and keeps
 * the latest one per NIC: when a change wakes many agents of one NIC, or agents pull at a high
 * rate, the database is read once per NIC and version, not once per request.
 *
 * <p>Why profiles are read from PostgreSQL and not built in memory from what the commit wrote: at
 * the api bench's scale (1,024 NICs, four active ring jobs, six released) the profile query is index
 * lookups only (flows by source NIC or by job, the job, the assignment by its key; EXPLAIN ANALYZE
 * 1.7 ms for 128 NICs' 512 rows on a quiet machine), so it costs the rows served, not the history.
 * Reading all 4,096 rows took ~10 ms of CPU here and ~23 ms in PostgreSQL (load 20-25); the old
 * shape, eight 128-NIC reads of two statements each with pgjdbc's {@code getArray} on every row,
 * only ~2 ms more of each. The reads finished late because they were interleaved with the fan-out:
 * each chunk's read waited for cores busy writing earlier chunks. So the publisher reads the first
 * chunk alone and all the others before waking them ({@code PathBoard}). A copy of the profiles
 * kept on the writer would spare the database those ~23 ms but be a second source of truth that
 * every path change (placement, re-spread, release, reroute, fabric change) must keep equal, and
 * other replicas read here anyway: not done.
 */
@Component
class ProfileReader {
    private final JdbcClient jdbc;
    private final PathBoard board;
    private final Placement placement;
    private final Map<String, EvProfile> latest = new ConcurrentHashMap<>();

    ProfileReader(JdbcClient jdbc, PathBoard board, Placement placement) {
        this.jdbc = jdbc;
        this.board = board;
        this.placement = placement;
        board.beforeWake(this::preload);
    }

    /** The NIC's profile at its latest committed version (or newer). */
    EvProfile current(String nic) {
        long want = board.version(nic);
        EvProfile p = latest.get(nic);
        if (p != null && p.version() >= want) {
            return p;
        }
        // compute() serialises readers of one NIC: the first reads, the others get its answer.
        return latest.compute(nic, (k, old) -> old != null && old.version() >= want ? old : read(k));
    }

    /**
     * Loads the profiles of many NICs in two queries (a job change touches thousands) so that
     * the agents woken next find them ready.
     */
    void preload(Collection<String> nics) {
        if (!nics.isEmpty()) {
            latest.putAll(readAll(nics));
        }
    }

    EvProfile read(String nic) {
        return readAll(List.of(nic)).get(nic);
    }

    /**
     * The version is read before the flows: a change committed in between then shows up with the
     * older version number, and the agent is woken once more for it; the reverse order could
     * label old flows with a new version and lose an update.
     */
    Map<String, EvProfile> readAll(Collection<String> nics) {
        String[] ids = nics.toArray(new String[0]);
        Map<String, Long> versions = new HashMap<>();
        jdbc.sql("select nic, version from nic_versions where nic = any(?)").param(ids)
                .query((rs, n) -> versions.put(rs.getString(1), rs.getLong(2))).list();
        Map<String, Map<String, List<EvProfile.Entry>>> bySrc = new HashMap<>();
        FabricPlan plan = placement.ready() ? placement.view().plan() : null;
        // The filter matches the partial index flows_served_by_src (released and retired flows left
        // out), so a read does not grow with history; JobLifecycleTest checks the two still agree.
        // The carriers as one string (addresses hold no comma): pgjdbc's getArray builds an array
        // object and parses its text for every row.
        jdbc.sql("select f.src_nic, f.id, f.job_id, f.dst_nic, f.demand_gbps, p.state, "
                        + "array_to_string(p.carriers, ','), p.ev, j.encoding, p.arcs[1] "
                        + "from flows f join path_assignments p on p.flow_id = f.id join jobs j on j.id = f.job_id "
                        + "where f.src_nic = any(?) and not f.released and f.retired_at is null and j.state = 'ACTIVE' "
                        + "order by f.src_nic, f.dst_nic, j.seq, f.flow_index, f.slice")
                .param(ids)
                .query((rs, n) -> {
                    String id = rs.getString(2);
                    String job = rs.getString(3);
                    int weight = (int) Math.max(1, Math.round(rs.getDouble(5) * 1000));
                    String state = rs.getString(6);
                    String joined = rs.getString(7);
                    List<String> carriers = joined.isEmpty() ? List.of() : Arrays.asList(joined.split(","));
                    Integer ev = (Integer) rs.getObject(8);
                    String enc = rs.getString(9);
                    String port = portOf(plan, rs.getString(1), rs.getString(10));
                    List<EvProfile.Entry> entries = bySrc.computeIfAbsent(rs.getString(1), k -> new LinkedHashMap<>())
                            .computeIfAbsent(rs.getString(4), k -> new ArrayList<>());
                    if (!enc.equals("ev")) {
                        entries.add(new EvProfile.Entry(id + "#srv6", job, "srv6",
                                carriers.isEmpty() ? null : carriers.get(0), carriers.isEmpty() ? null : carriers,
                                weight, state, port));
                    }
                    // A path without an entropy value (one leaving by a port other than the NIC's home
                    // link, where EV routing cannot start) still gets its udp-sport entry, DENIED.
                    if (!enc.equals("srv6")) {
                        entries.add(new EvProfile.Entry(id + "#ev", job, "udp-sport",
                                ev == null ? null : Integer.toString(ev), null, weight, ev == null ? "DENIED" : state,
                                ev == null ? null : port));
                    }
                    return null;
                })
                .list();
        Map<String, EvProfile> out = new HashMap<>();
        for (String nic : nics) {
            List<EvProfile.Peer> peers = new ArrayList<>();
            bySrc.getOrDefault(nic, Map.of()).forEach((peer, entries) -> peers.add(new EvProfile.Peer(peer,
                    addressOf(plan, peer), entries.stream().anyMatch(e -> e.state().equals("GOOD")) ? 1 : 0, entries)));
            out.put(nic, new EvProfile(nic, versions.getOrDefault(nic, 0L), peers));
        }
        return out;
    }

    /**
     * The link the entry's path leaves the NIC by (its first arc, {@code link>node}), for a NIC with
     * more than one port in the plan's fabric; null for a single-port NIC, a path-less entry or no plan.
     */
    static String portOf(FabricPlan plan, String nic, String firstArc) {
        if (plan == null || firstArc == null || plan.fabric().node(nic) == null
                || plan.fabric().linksOf(nic).size() < 2) {
            return null;
        }
        int end = firstArc.lastIndexOf('>');
        return end < 0 ? null : firstArc.substring(0, end);
    }

    /**
     * The peer's address as planned: agents route to it, and they cannot read the fabric themselves
     * (an agent token only reaches its own NIC). Addresses are stable across plans of one fabric.
     */
    private static String addressOf(FabricPlan plan, String nic) {
        if (plan == null) {
            return null;
        }
        try {
            return plan.nicAddress(nic);
        } catch (IllegalArgumentException gone) {
            return null; // the peer left the fabric; the agent rejects the peer, naming it
        }
    }
}
