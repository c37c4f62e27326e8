package io.weft.scheduler.fabric;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricFormatException;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;
import io.weft.placement.DenseFabric;
import io.weft.placement.Flow;
import io.weft.placement.Job;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlacementException;
import io.weft.placement.PlacementResult;
import io.weft.placement.Unplaced;
import io.weft.plan.FabricPlan;
import io.weft.plan.PlanException;
import io.weft.plan.Planner;
import io.weft.plan.SnapshotJson;
import io.weft.scheduler.config.FabricProperties;
import io.weft.scheduler.events.EventLog;
import io.weft.scheduler.job.Changes;
import io.weft.scheduler.job.JobStore;
import io.weft.scheduler.job.PathLedger;
import io.weft.scheduler.job.PathLedger.PathChange;
import io.weft.scheduler.web.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Keeps the placement on the current fabric. A new topology or plan (a snapshot on
 * {@code weft.fabric}, or the fabric file at start-up) gets a fresh engine with every active job
 * placed again in admission order; new link states (down, drained, back up) go through the
 * engine's incremental re-placement. Either way, every flow whose path or encoding changed is
 * recorded with the reason and its agents are woken. Every change runs through the single writer
 * ({@link Placement}); on a standby replica a new fabric is only followed, and the engine is rebuilt
 * from PostgreSQL (as after a restart) when the replica takes the writer lease.
 *
 * <p>Link states have one owner, the controller: an operator's drain here is forwarded to it
 * ({@link ControllerClient}) and takes effect when its snapshot arrives, like any other state change
 * (through the single writer); the drain's answer is what applying that snapshot moved.
 */
@Component
public class FabricService {
    private static final Logger LOG = LoggerFactory.getLogger(FabricService.class);

    private final Placement placement;
    private final JobStore jobs;
    private final PathLedger ledger;
    private final EventLog events;
    private final TransactionTemplate tx;
    private final JdbcClient jdbc;
    private final FabricProperties props;
    private final ControllerClient controller;
    private final ApplicationEventPublisher passes;

    /** Link states as the controller published them; changed only inside a write (or a standby's follow). */
    private Map<String, LinkState> snapshotStates = Map.of();
    private long snapshotVersion = -1;
    /** The fabric the snapshot version belongs to: versions count per fabric, a new fabric starts again. */
    private String snapshotFabricId;

    /** What applying each recent snapshot version changed, for drains waiting on it; guarded by itself. */
    private final Map<Long, Applied> applied = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Applied> eldest) {
            return size() > 256;
        }
    };
    private long appliedVersion = -1; // guarded by applied
    /** Whether snapshots reach this instance from weft.fabric (set by the fabric feed when it starts). */
    private volatile boolean kafkaFed;

    /** The flows one snapshot version moved (GOOD changes) or left without a path. */
    record Applied(long version, List<String> movedFlows, int moved, int unplaced, double maxLinkLoad) {
        static final Applied NOTHING = new Applied(-1, List.of(), 0, 0, 0);
    }

    FabricService(Placement placement, JobStore jobs, PathLedger ledger, EventLog events, TransactionTemplate tx,
                  JdbcClient jdbc, FabricProperties props, ControllerClient controller,
                  ApplicationEventPublisher passes) {
        this.placement = placement;
        this.jobs = jobs;
        this.ledger = ledger;
        this.events = events;
        this.tx = tx;
        this.jdbc = jdbc;
        this.props = props;
        this.controller = controller;
        this.passes = passes;
        // Taking the writer lease: the engine is rebuilt as after a restart, on the link states of the
        // last snapshot this replica followed (the controller owns them; the old writer saw the same).
        placement.onTakeover(w -> {
            FabricView v = w.view();
            w.install(new FabricView(v.fabric(), v.plan(), effective(v.fabric()), v.version()));
            replaceAll(w, "restart");
        });
    }

    @EventListener(ApplicationReadyEvent.class)
    void loadFabricFile() throws FabricFormatException, PlanException {
        if (props.file() == null || props.file().isBlank()) {
            return;
        }
        Fabric f = FabricJson.read(Path.of(props.file()));
        FabricPlan plan = Planner.plan(f, null);
        Map<String, LinkState> up = new LinkedHashMap<>();
        f.links().forEach(l -> up.put(l.id(), LinkState.UP));
        install(plan, up, 0, "fabric file " + props.file());
    }

    /**
     * Applies a {@code weft.fabric} snapshot: of the fabric in use, older or equal versions are
     * ignored; a snapshot of another fabric id replaces the fabric whatever its version.
     */
    public void applySnapshot(JsonNode snapshot) throws PlanException {
        FabricPlan plan = SnapshotJson.planFromTree(snapshot);
        Map<String, LinkState> states = SnapshotJson.linkStatesFromTree(snapshot);
        long version = snapshot.path("version").asLong(0);
        install(plan, states, version, "snapshot v" + version + " of " + plan.fabric().id());
    }

    void install(FabricPlan plan, Map<String, LinkState> states, long version, String source) {
        String pass = placement.writeOrFollow("apply " + source, w -> {
            String fabricId = plan.fabric().id();
            if (version > 0 && fabricId.equals(snapshotFabricId) && version <= snapshotVersion) {
                LOG.info("ignoring {}: not newer than v{}", source, snapshotVersion);
                return null;
            }
            if (version == 0 && snapshotVersion > 0) {
                // The controller's snapshot arrived before the start-up file was read: it wins.
                LOG.info("ignoring {}: already placing on snapshot v{}", source, snapshotVersion);
                return null;
            }
            boolean first = !w.hasEngine();
            boolean sameTopology = !first && sameTopology(w.view().plan(), plan);
            snapshotStates = Map.copyOf(states);
            snapshotVersion = version;
            snapshotFabricId = fabricId;
            Map<String, LinkState> effective = effective(plan.fabric());
            if (!w.writer()) {
                // A standby follows the fabric (agents' polls and profiles need it) but places nothing:
                // on taking the lease it rebuilds the engine from PostgreSQL on this fabric.
                w.follow(Placement.viewOf(plan, effective, version));
                LOG.info("following {} as a standby", source);
                return null;
            }
            Applied done;
            String passReason;
            if (sameTopology) {
                Map<String, LinkState> before = w.view().effective();
                w.follow(new FabricView(w.view().fabric(), w.view().plan(), effective, version));
                PlacementResult r = w.engine().updateLinkStates(effective);
                String reason = linkReason(before, effective);
                List<PathChange> changes = recordStateChange(w, r, reason, "link-states",
                        Map.of("source", source, "reason", reason));
                done = applied(version, changes, r.unplaced().size(), r.quality().maxLoad());
                passReason = reason;
            } else {
                w.install(Placement.viewOf(plan, effective, version));
                List<PathChange> changes = replaceAll(w, first ? "restart" : "fabric-changed");
                done = applied(version, changes,
                        (int) changes.stream().filter(c -> !c.state().equals(PathLedger.GOOD)).count(),
                        w.engine().quality().maxLoad());
                passReason = first ? null : "fabric-changed";
            }
            synchronized (applied) {
                applied.put(version, done);
                appliedVersion = Math.max(appliedVersion, version);
                applied.notifyAll();
            }
            LOG.info("placing on {} ({} nodes, {} links)", source, plan.fabric().nodes().size(),
                    plan.fabric().links().size());
            return passReason;
        });
        if (pass != null) {
            passes.publishEvent(new LinkPassApplied(pass));
        }
    }

    private static Applied applied(long version, List<PathChange> changes, int unplaced, double maxLoad) {
        List<String> moved = changes.stream().filter(c -> c.state().equals(PathLedger.GOOD)).map(PathChange::flowId)
                .distinct().toList();
        return new Applied(version, moved,
                (int) changes.stream().filter(c -> c.state().equals(PathLedger.GOOD)).count(),
                unplaced, maxLoad);
    }

    /** Places every active job again on a fresh engine and records the flows that changed. */
    private List<PathChange> replaceAll(Placement.Writing w, String reason) {
        PlacementEngine engine = w.engine();
        List<JobStore.ActiveJob> active = jobs.activeJobs();
        List<Unplaced> lost = new ArrayList<>();
        for (JobStore.ActiveJob j : active) {
            Job job = jobOf(j, w.view().plan());
            try {
                lost.addAll(engine.add(job).unplaced());
            } catch (PlacementException e) {
                // The fabric no longer has one of the job's NICs: its flows have no path now.
                LOG.warn("job {} cannot be placed on the new fabric: {}", j.id(), e.getMessage());
                job.flows().forEach(f -> lost.add(new Unplaced(f, e.getMessage())));
            }
        }
        if (reason.equals("restart")) {
            LOG.info("restart: {} flows put back on their stored paths", restoreStoredPaths(engine, active));
        }
        Map<String, String> stored = currentSignatures();
        List<PathChange> changes = new ArrayList<>();
        for (JobStore.ActiveJob j : active) {
            for (PlacedFlow p : engine.placedFlows(j.id())) {
                PathChange c = Changes.placed(p, reason);
                if (!signature(c).equals(stored.get(c.flowId()))) {
                    changes.add(c);
                }
            }
        }
        for (Unplaced u : lost) {
            PathChange c = Changes.denied(u, "no-path");
            if (!signature(c).equals(stored.get(c.flowId()))) {
                changes.add(c);
            }
        }
        if (!changes.isEmpty()) {
            // On failure the engine holds paths the database does not: it is dropped and rebuilt
            // from PostgreSQL before the next change.
            w.commit(s -> {
                ledger.record(changes);
                events.append("flows-replaced", reason, Map.of("reason", reason, "flows", changes.size()));
                return null;
            }, w::discardEngine);
        }
        LOG.info("{} active jobs placed ({}), {} flow slices changed", active.size(), reason, changes.size());
        return changes;
    }

    /** A stored active job in the engine's terms, on the plan it is placed on. */
    private static Job jobOf(JobStore.ActiveJob j, FabricPlan plan) {
        List<Flow> flows = new ArrayList<>();
        for (JobStore.FlowRow f : j.flows()) {
            flows.add(new Flow(f.id(), j.id(), f.src(), f.dst(), f.demandGbps(), f.slice()));
        }
        return new Job(j.id(), j.tenant(), flows, j.encoding().homePortsOnly(plan));
    }

    /**
     * The reservations as PostgreSQL holds them, for a replica without the engine (a standby): the
     * active jobs placed on a throw-away engine on {@code view} and pinned to their stored paths, as a
     * takeover rebuilds them, in one read-only repeatable-read transaction (one consistent state).
     * Costs a placement of every active job per call; nothing is written.
     */
    public Reservations reservationsFromDatabase(FabricView view) {
        TransactionTemplate snapshot = new TransactionTemplate(tx.getTransactionManager());
        snapshot.setReadOnly(true);
        snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        return snapshot.execute(s -> {
            PlacementEngine engine = placement.emptyEngine(view);
            List<JobStore.ActiveJob> active = jobs.activeJobs();
            for (JobStore.ActiveJob j : active) {
                try {
                    engine.add(jobOf(j, view.plan()));
                } catch (PlacementException e) {
                    // As in a takeover: a job the fabric cannot hold reserves nothing.
                }
            }
            restoreStoredPaths(engine, active);
            return Reservations.of(engine);
        });
    }

    /**
     * Drains or undrains a link through its owner, the controller, then waits (at most the configured
     * drain wait) until the controller's snapshot carrying it has been applied here, and answers what
     * that moved. Holds no lock while it waits: the snapshot is applied by the fabric feed.
     */
    public DrainOutcome setDrained(String linkId, boolean drained, String by) {
        // A standby answers 503 with Retry-After before anything reaches the controller: the writer
        // applies the snapshot and knows what it moved.
        placement.write((drained ? "drain " : "undrain ") + linkId, w -> {
            FabricView view = w.view();
            if (view.fabric().link(linkId) == null) {
                throw ApiException.notFound("id", "no link '" + linkId + "' in fabric " + view.fabric().id());
            }
            return null;
        });
        if (!kafkaFed) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, null, "drains take effect "
                    + "through the controller's snapshot on weft.fabric; Kafka is not configured");
        }
        ControllerClient.LinkStateAnswer a = controller.setLinkState(linkId, drained);
        Applied done = awaitApplied(a.version(), controller.drainWait());
        if (done == null) {
            throw new ApiException(HttpStatus.GATEWAY_TIMEOUT, null, "the controller "
                    + "set link " + linkId + " " + a.state() + " in snapshot v" + a.version() + ", which has not "
                    + "reached scheduler-api within " + controller.drainWait().toMillis()
                    + " ms; flows move when it does");
        }
        if (!a.changed()) {
            done = new Applied(a.version(), List.of(), 0, 0, placement.reservations().quality().maxLoad());
        }
        DrainOutcome outcome = new DrainOutcome(linkId, a.state(), done.moved(), done.unplaced(), done.maxLinkLoad(),
                a.version(), done.movedFlows());
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("linkId", linkId);
        payload.put("state", outcome.state());
        payload.put("moved", outcome.moved());
        payload.put("unplaced", outcome.unplaced());
        payload.put("version", outcome.version());
        payload.put("by", by);
        tx.executeWithoutResult(s -> events.append(drained ? "link-drained" : "link-undrained", linkId, payload));
        return outcome;
    }

    void fedByKafka() {
        kafkaFed = true;
    }

    /**
     * The changes of the first applied version at or after {@code version}, or null when none arrived in
     * time. A version older than what is remembered counts as applied with nothing recorded.
     */
    Applied awaitApplied(long version, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        synchronized (applied) {
            while (appliedVersion < version) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(applied, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
            for (Applied a : applied.values()) {
                if (a.version() >= version) {
                    return a;
                }
            }
            return Applied.NOTHING;
        }
    }

    private List<PathChange> recordStateChange(Placement.Writing w, PlacementResult r, String reason,
                                               String eventType, Map<String, Object> payload) {
        List<PathChange> changes = Changes.of(r, w.engine(), "", reason, reason);
        if (changes.isEmpty()) {
            return changes;
        }
        w.commit(s -> {
            ledger.record(changes);
            Map<String, Object> p = new LinkedHashMap<>(payload);
            p.put("flows", changes.size());
            p.put("unplaced", r.unplaced().size());
            events.append("flows-replaced", eventType, p);
            return null;
        }, w::discardEngine);
        return changes;
    }

    /** Every link's state as the controller published it (links it does not name are up). */
    private Map<String, LinkState> effective(Fabric fabric) {
        Map<String, LinkState> out = new HashMap<>();
        for (Link l : fabric.links()) {
            out.put(l.id(), snapshotStates.getOrDefault(l.id(), LinkState.UP));
        }
        return out;
    }

    private static String linkReason(Map<String, LinkState> before, Map<String, LinkState> after) {
        for (var e : after.entrySet()) {
            if (e.getValue() == LinkState.DOWN && before.get(e.getKey()) != LinkState.DOWN) {
                return "link-down:" + e.getKey();
            }
        }
        for (var e : after.entrySet()) {
            if (e.getValue() == LinkState.DRAINED && before.get(e.getKey()) != LinkState.DRAINED) {
                return "drain:" + e.getKey();
            }
        }
        return "link-up";
    }

    private static boolean sameTopology(FabricPlan a, FabricPlan b) {
        return FabricJson.toTree(a.fabric()).equals(FabricJson.toTree(b.fabric()))
                && SnapshotJson.planTree(a).equals(SnapshotJson.planTree(b));
    }

    /**
     * After a restart the engine placed every job afresh; put each flow back on the path it had
     * (after drains and hotspot moves, that is not the path a fresh placement picks), so that agents
     * see no change. A stored path that is no longer usable or encodable keeps the fresh one.
     * Answers how many flows it moved back.
     */
    private int restoreStoredPaths(PlacementEngine engine, List<JobStore.ActiveJob> active) {
        Map<String, List<String>> storedArcs = new HashMap<>();
        jdbc.sql("select p.flow_id, p.arcs from path_assignments p join flows f on f.id = p.flow_id "
                        + "join jobs j on j.id = f.job_id where j.state = 'ACTIVE' and p.state = ?")
                .param(PathLedger.GOOD)
                .query((rs, n) -> storedArcs.put(rs.getString(1), List.of((String[]) rs.getArray(2).getArray())))
                .list();
        int restored = 0;
        for (JobStore.ActiveJob j : active) {
            for (PlacedFlow p : engine.placedFlows(j.id())) {
                String id = p.flow().id();
                int[] arcs = arcsOf(engine.index(), storedArcs.get(id));
                if (arcs == null || Arrays.equals(arcs, engine.pathArcs(id))) {
                    continue;
                }
                try {
                    engine.pin(id, arcs);
                    restored++;
                } catch (PlacementException e) {
                    LOG.info("flow {} keeps its new path: stored path no longer encodes ({})", id, e.getMessage());
                }
            }
        }
        return restored;
    }

    /** Arc indices of stored "linkId>toNode" keys, or null if any is gone or not usable now. */
    private static int[] arcsOf(DenseFabric ix, List<String> keys) {
        if (keys == null || keys.isEmpty()) {
            return null;
        }
        int[] out = new int[keys.size()];
        for (int i = 0; i < out.length; i++) {
            String key = keys.get(i);
            int cut = key.lastIndexOf('>');
            int[] pair = cut < 0 ? null : ix.arcsOfLink(key.substring(0, cut));
            if (pair == null) {
                return null;
            }
            String to = key.substring(cut + 1);
            int arc = ix.nodeId(ix.to(pair[0])).equals(to) ? pair[0]
                    : ix.nodeId(ix.to(pair[1])).equals(to) ? pair[1] : -1;
            if (arc < 0 || !ix.usable(arc)) {
                return null;
            }
            out[i] = arc;
        }
        return out;
    }

    private Map<String, String> currentSignatures() {
        Map<String, String> out = new HashMap<>();
        jdbc.sql("select p.flow_id, p.state, p.arcs, p.carriers, p.ev from path_assignments p "
                        + "join flows f on f.id = p.flow_id join jobs j on j.id = f.job_id where j.state = 'ACTIVE'")
                .query((rs, n) -> out.put(rs.getString(1), signature(rs.getString(2),
                        List.of((String[]) rs.getArray(3).getArray()), List.of((String[]) rs.getArray(4).getArray()),
                        (Integer) rs.getObject(5))))
                .list();
        return out;
    }

    private static String signature(PathChange c) {
        return signature(c.state(), c.arcs(), c.carriers(), c.ev());
    }

    private static String signature(String state, List<String> arcs, List<String> carriers, Integer ev) {
        return state + "|" + String.join(",", arcs) + "|" + String.join(",", carriers) + "|" + Objects.toString(ev);
    }
}
