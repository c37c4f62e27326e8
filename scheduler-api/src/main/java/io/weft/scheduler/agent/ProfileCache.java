package io.weft.scheduler.agent;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.weft.plan.FabricPlan;
import io.weft.scheduler.fabric.Placement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The rows every NIC's {@link EvProfile} is built from, per NIC and version, kept up to date on the
 * writer from what its own transactions wrote, so that a path change fans out without reading the
 * changed NICs' profiles back from PostgreSQL.
 *
 * <p>Each NIC's snapshot is the set of its served flow slices (active job, not released, not
 * retired) with what the profile shows of them. A snapshot comes either from a database read
 * ({@link ProfileReader}, the source on every replica, after a restart and whenever this cache
 * cannot say) or from the snapshot of the NIC's previous version plus the changes one transaction
 * made: the writers of flows and paths ({@code JobStore}, {@code PathLedger}) tell this cache, inside
 * their transaction, what they wrote; when the transaction commits the changes are applied before
 * its versions are published. A change is applied only on top of the snapshot of exactly the
 * version the transaction replaced (read under the row lock of {@code nic_versions}); anything else
 * (no snapshot, an older one, a flow whose facts or path this cache never saw) drops the NIC's
 * snapshot, and the next use reads it from the database. Replaying a transaction's changes over a
 * snapshot that already holds them gives the same rows, so a read racing with a commit is harmless.
 *
 * <p>Profiles built here and read from the database go through the same {@link #profile} (rows in
 * one order: peer, job admission, flow index, slice), and {@code ProfileCacheDifferentialTest}
 * checks that the two give the same JSON after random sequences of every kind of path change.
 */
@Component
public class ProfileCache {
    private static final Logger LOG = LoggerFactory.getLogger(ProfileCache.class);
    /**
     * Peer, job admission, flow index, slice, id. Written out rather than chained from key extractors:
     * profiles are built on the fan-out's path, ~1,000 per job change, and the chain's lambdas cost
     * more than the comparisons (sampled with the api bench).
     */
    private static final Comparator<Row> SERVED_ORDER = (a, b) -> {
        Flow x = a.flow();
        Flow y = b.flow();
        int c = x.dst().compareTo(y.dst());
        if (c == 0) {
            c = Long.compare(a.job().seq(), b.job().seq());
        }
        if (c == 0) {
            c = Integer.compare(x.flowIndex(), y.flowIndex());
        }
        if (c == 0) {
            c = Integer.compare(x.slice(), y.slice());
        }
        return c != 0 ? c : x.id().compareTo(y.id());
    };

    /** What the profile shows of a job: its admission order and encoding ({@code srv6}, {@code ev}, {@code both}). */
    public record Job(long seq, String encoding) {
    }

    /** A flow slice's facts as stored in {@code flows}. */
    public record Flow(String id, String jobId, String src, String dst, double demandGbps, int flowIndex, int slice) {
    }

    /** A flow slice's current path as stored in {@code path_assignments}; {@code firstArc} null when path-less. */
    public record Path(String flowId, String src, String state, List<String> carriers, Integer ev, String firstArc) {
    }

    /** One served flow slice. */
    record Row(Flow flow, Job job, Path path) {
    }

    /** A NIC's served rows at a version; the profile is built once, on first use. */
    static final class Snapshot {
        final long version;
        final Map<String, Row> rows;
        private volatile EvProfile profile;

        Snapshot(long version, Map<String, Row> rows) {
            this.version = version;
            this.rows = rows;
        }
    }

    private final Placement placement;
    private final Map<String, Snapshot> snapshots = new ConcurrentHashMap<>();
    /** Per NIC, the lock its database reads ({@link #load}) take: one read per NIC at a time. */
    private final Map<String, Object> reading = new ConcurrentHashMap<>();
    /** Jobs seen in reads and admissions (their seq and encoding never change). */
    private final Map<String, Job> jobs = new ConcurrentHashMap<>();

    ProfileCache(Placement placement) {
        this.placement = placement;
    }

    /** The NIC's snapshot if it is at {@code version} or newer, else null. */
    Snapshot at(String nic, long version) {
        Snapshot s = snapshots.get(nic);
        return s != null && s.version >= version ? s : null;
    }

    /** A database read of the NIC at {@code version}; kept unless a newer snapshot is already here. */
    Snapshot seed(String nic, long version, List<Row> rows) {
        for (Row r : rows) {
            jobs.putIfAbsent(r.flow().jobId(), r.job());
        }
        Snapshot fresh = new Snapshot(version, byId(rows));
        return snapshots.compute(nic, (k, cur) -> cur != null && cur.version >= version ? cur : fresh);
    }

    /**
     * The NIC's snapshot at {@code version} or newer, else what {@code read} returns (kept unless a
     * newer one arrived); one read per NIC at a time. The read (PostgreSQL) runs under a lock of
     * the NIC's own, not inside the map's {@code compute}, which would hold every NIC that shares the
     * NIC's bin for as long as the read takes.
     */
    Snapshot load(String nic, long version, Function<String, Snapshot> read) {
        synchronized (reading.computeIfAbsent(nic, k -> new Object())) {
            Snapshot cur = at(nic, version);
            if (cur != null) {
                return cur;
            }
            Snapshot fresh = read.apply(nic);
            fresh.rows.values().forEach(r -> jobs.putIfAbsent(r.flow().jobId(), r.job()));
            return snapshots.merge(nic, fresh, (had, got) -> had.version >= got.version ? had : got);
        }
    }

    static Map<String, Row> byId(List<Row> rows) {
        Map<String, Row> byId = new HashMap<>();
        for (Row r : rows) {
            byId.put(r.flow().id(), r);
        }
        return byId;
    }

    /** The profile of a snapshot (built from the current fabric plan on first use). */
    EvProfile profile(String nic, Snapshot s) {
        EvProfile p = s.profile;
        if (p == null) {
            p = build(nic, s.version, s.rows.values(), placement.ready() ? placement.view().plan() : null);
            s.profile = p;
        }
        return p;
    }

    // ---- what a transaction wrote (called inside it, by the stores) ----

    /** Flow slices inserted, or updated and back in use (a re-spread's kept and new slices), with their job. */
    public void flowsStored(Job job, String jobId, List<Flow> flows) {
        Tx tx = tx();
        if (tx != null) {
            if (job != null) {
                tx.jobs.put(jobId, job);
            }
            for (Flow f : flows) {
                tx.work(f.id()).stored(f);
            }
        }
    }

    /** Flow slices taken out of use (a re-spread's retired slices). */
    public void flowsRetired(Collection<String> flowIds) {
        Tx tx = tx();
        if (tx != null) {
            for (String id : flowIds) {
                tx.work(id).served = Boolean.FALSE;
            }
        }
    }

    /** A job released: none of its flows is served any more. */
    public void jobReleased(String jobId) {
        Tx tx = tx();
        if (tx != null) {
            tx.releasedJobs.add(jobId);
        }
    }

    /** Paths written to {@code path_assignments}. */
    public void pathsWritten(List<Path> paths) {
        Tx tx = tx();
        if (tx != null) {
            for (Path p : paths) {
                tx.work(p.flowId()).path = p;
            }
        }
    }

    /** New versions issued, with each NIC's version before them (0: none). */
    public void versionsIssued(Map<String, Long> issued, Map<String, Long> before) {
        Tx tx = tx();
        if (tx != null) {
            for (var e : issued.entrySet()) {
                long old = before.getOrDefault(e.getKey(), 0L);
                tx.versions.merge(e.getKey(), new long[] {old, e.getValue()},
                        (a, b) -> new long[] {a[0], Math.max(a[1], b[1])});
            }
        }
    }

    /** The transaction's changes, bound to it; null outside a transaction (nothing to keep then). */
    private Tx tx() {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            return null;
        }
        Tx tx = (Tx) TransactionSynchronizationManager.getResource(this);
        if (tx == null) {
            tx = new Tx();
            TransactionSynchronizationManager.bindResource(this, tx);
            TransactionSynchronizationManager.registerSynchronization(tx);
        }
        return tx;
    }

    /** One flow slice's changes in a transaction, in the order they were written. */
    private static final class Work {
        Flow facts;
        Path path;
        /** null: its being served did not change; true: (back) in use; false: retired. */
        Boolean served;

        void stored(Flow f) {
            facts = f;
            served = Boolean.TRUE;
        }

        String src() {
            return facts != null ? facts.src() : path != null ? path.src() : null;
        }
    }

    /**
     * One transaction's changes. Applied after the commit and before the publish: ordered first among
     * the transaction's synchronizations (the ledger's publish is registered with the default order).
     */
    private final class Tx implements TransactionSynchronization {
        final Map<String, Work> work = new LinkedHashMap<>();
        final Map<String, Job> jobs = new HashMap<>();
        final Set<String> releasedJobs = new HashSet<>();
        /** Per NIC: version before the transaction, version after. */
        final Map<String, long[]> versions = new LinkedHashMap<>();

        Work work(String flowId) {
            return work.computeIfAbsent(flowId, k -> new Work());
        }

        @Override
        public int getOrder() {
            return Ordered.HIGHEST_PRECEDENCE;
        }

        @Override
        public void afterCommit() {
            try {
                apply(this);
            } catch (RuntimeException e) {
                // Never fail a committed change: the NICs it touched are read from the database instead.
                LOG.warn("applying a commit to the profile cache failed; {} NICs will be read: {}",
                        versions.size(), e.toString());
                versions.keySet().forEach(snapshots::remove);
            }
        }

        @Override
        public void afterCompletion(int status) {
            TransactionSynchronizationManager.unbindResourceIfPossible(ProfileCache.this);
        }
    }

    private void apply(Tx tx) {
        jobs.putAll(tx.jobs);
        Map<String, List<Work>> bySrc = new HashMap<>();
        List<String> unplaced = new ArrayList<>();
        for (var e : tx.work.entrySet()) {
            String src = e.getValue().src();
            if (src == null) {
                unplaced.add(e.getKey());
            } else {
                bySrc.computeIfAbsent(src, k -> new ArrayList<>()).add(e.getValue());
            }
        }
        for (String nic : bySrc.keySet()) {
            if (!tx.versions.containsKey(nic)) {
                // Written without a new version of its NIC: not expected; the next use reads it.
                snapshots.remove(nic);
            }
        }
        for (var e : tx.versions.entrySet()) {
            String nic = e.getKey();
            long old = e.getValue()[0];
            long now = e.getValue()[1];
            Snapshot base = snapshots.get(nic);
            Map<String, Row> rows = next(base, old, tx, bySrc.getOrDefault(nic, List.of()), unplaced);
            if (rows == null) {
                if (base != null) {
                    snapshots.remove(nic, base);
                }
                continue;
            }
            Snapshot fresh = new Snapshot(now, rows);
            snapshots.compute(nic, (k, cur) -> cur != null && cur.version >= now ? cur : fresh);
        }
        tx.releasedJobs.forEach(jobs::remove);
    }

    /** The NIC's rows after the transaction, or null when this cache cannot tell them. */
    private Map<String, Row> next(Snapshot base, long old, Tx tx, List<Work> mine, List<String> unplaced) {
        Map<String, Row> rows;
        if (base != null && base.version == old) {
            rows = new HashMap<>(base.rows);
        } else if (base == null && old == 0) {
            rows = new HashMap<>();
        } else {
            return null;
        }
        if (!tx.releasedJobs.isEmpty()) {
            rows.values().removeIf(r -> tx.releasedJobs.contains(r.flow().jobId()));
        }
        for (String id : unplaced) {
            // Retired without a path or facts written: it leaves whichever NIC serves it.
            if (Boolean.FALSE.equals(tx.work.get(id).served)) {
                rows.remove(id);
            }
        }
        for (Work w : mine) {
            String id = w.facts != null ? w.facts.id() : w.path.flowId();
            Row had = rows.get(id);
            Flow facts = w.facts != null ? w.facts : had != null ? had.flow() : null;
            boolean served = w.served != null ? w.served : had != null;
            if (facts != null && tx.releasedJobs.contains(facts.jobId())) {
                served = false;
            }
            if (!served) {
                rows.remove(id);
                continue;
            }
            Path path = w.path != null ? w.path : had != null ? had.path() : null;
            Job job = facts == null ? null : jobs.get(facts.jobId());
            if (facts == null || path == null || job == null) {
                // A flow this cache never saw (written before this process started, or path-less here).
                return null;
            }
            rows.put(id, new Row(facts, job, path));
        }
        return rows;
    }

    // ---- the profile ----

    /** The profile of a NIC from its served rows (the same for database reads and cached rows). */
    static EvProfile build(String nic, long version, Collection<Row> served, FabricPlan plan) {
        // Copied as Object[] (a typed toArray creates its array reflectively, sampled at a fifth of a build).
        List<Row> rows = new ArrayList<>(served);
        rows.sort(SERVED_ORDER);
        boolean ports = multiPort(plan, nic);
        Map<String, List<EvProfile.Entry>> byPeer = new LinkedHashMap<>();
        for (Row r : rows) {
            Flow f = r.flow();
            Path p = r.path();
            String enc = r.job().encoding();
            int weight = (int) Math.max(1, Math.round(f.demandGbps() * 1000));
            String port = ports ? portOf(p.firstArc()) : null;
            List<String> carriers = p.carriers();
            List<EvProfile.Entry> entries = byPeer.computeIfAbsent(f.dst(), k -> new ArrayList<>());
            if (!enc.equals("ev")) {
                entries.add(new EvProfile.Entry(f.id().concat("#srv6"), f.jobId(), "srv6",
                        carriers.isEmpty() ? null : carriers.get(0), carriers.isEmpty() ? null : carriers,
                        weight, p.state(), port));
            }
            // An EV entry names the port its path leaves by, on any plane: the agent steers the source
            // port out of it. A path without an entropy value (EV routing cannot produce it, e.g. one
            // arriving by a NIC's second port into one plane) still gets its udp-sport entry, DENIED.
            if (!enc.equals("srv6")) {
                Integer ev = p.ev();
                entries.add(new EvProfile.Entry(f.id().concat("#ev"), f.jobId(), "udp-sport",
                        ev == null ? null : Integer.toString(ev), null, weight, ev == null ? "DENIED" : p.state(),
                        ev == null ? null : port));
            }
        }
        List<EvProfile.Peer> peers = new ArrayList<>(byPeer.size());
        for (var e : byPeer.entrySet()) {
            peers.add(new EvProfile.Peer(e.getKey(), addressOf(plan, e.getKey()), anyGood(e.getValue()) ? 1 : 0,
                    e.getValue()));
        }
        return new EvProfile(nic, version, peers);
    }

    private static boolean anyGood(List<EvProfile.Entry> entries) {
        for (EvProfile.Entry e : entries) {
            if (e.state().equals("GOOD")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The link the entry's path leaves the NIC by (its first arc, {@code link>node}), for a NIC with
     * more than one port in the plan's fabric; null for a single-port NIC, a path-less entry or no plan.
     */
    static String portOf(FabricPlan plan, String nic, String firstArc) {
        return multiPort(plan, nic) ? portOf(firstArc) : null;
    }

    /** True when the plan's fabric gives the NIC more than one port (entries then name theirs). */
    private static boolean multiPort(FabricPlan plan, String nic) {
        return plan != null && plan.fabric().node(nic) != null && plan.fabric().linksOf(nic).size() >= 2;
    }

    /** The link of a first arc ({@code link>node}); null for a path-less entry. */
    private static String portOf(String firstArc) {
        if (firstArc == null) {
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
