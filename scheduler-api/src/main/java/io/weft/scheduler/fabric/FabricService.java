package io.weft.scheduler.fabric;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricFormatException;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;
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
import io.weft.placement.FabricIndex;
import io.weft.placement.Flow;
import io.weft.placement.Job;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlacementException;
import io.weft.placement.PlacementResult;
import io.weft.placement.Unplaced;
import io.weft.scheduler.web.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Keeps the placement on the current fabric. A new topology or plan (a snapshot on
 * {@code weft.fabric}, or the fabric file at start-up) gets a fresh engine with every active job
 * placed again in admission order; new link states (down, drained, back up) go through the
 * engine's incremental re-placement. Either way, every flow whose path or encoding changed is
 * recorded with the reason and its agents are woken. Every change runs through the single writer
 * ({@link Placement}); on a standby replica a new fabric is only followed, and the engine is rebuilt
 * from PostgreSQL (as after a restart) when the replica takes the writer lease.
 */
@Component
public class FabricService {
    private static final Logger LOG = LoggerFactory.getLogger(FabricService.class);

    private final Placement placement;
    private final JobStore jobs;
    private final PathLedger ledger;
    private final EventLog events;
    private final JdbcClient jdbc;
    private final FabricProperties props;

    /** Link states as the controller published them (drains are merged on top); changed only inside a write. */
    private Map<String, LinkState> snapshotStates = Map.of();
    private long snapshotVersion = -1;

    FabricService(Placement placement, JobStore jobs, PathLedger ledger, EventLog events, JdbcClient jdbc,
                  FabricProperties props) {
        this.placement = placement;
        this.jobs = jobs;
        this.ledger = ledger;
        this.events = events;
        this.jdbc = jdbc;
        this.props = props;
        // Taking the writer lease: the engine is rebuilt as after a restart, with the drains the
        // previous writer recorded (a standby's view may predate them).
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

    /** Applies a {@code weft.fabric} snapshot; older or equal versions are ignored. */
    public void applySnapshot(JsonNode snapshot) throws PlanException {
        FabricPlan plan = SnapshotJson.planFromTree(snapshot);
        Map<String, LinkState> states = SnapshotJson.linkStatesFromTree(snapshot);
        long version = snapshot.path("version").asLong(0);
        install(plan, states, version, "snapshot v" + version + " of " + plan.fabric().id());
    }

    void install(FabricPlan plan, Map<String, LinkState> states, long version, String source) {
        placement.writeOrFollow("apply " + source, w -> {
            if (version > 0 && version <= snapshotVersion) {
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
            Map<String, LinkState> effective = effective(plan.fabric());
            if (!w.writer()) {
                // A standby follows the fabric (agents' polls and profiles need it) but places nothing:
                // on taking the lease it rebuilds the engine from PostgreSQL on this fabric.
                w.follow(Placement.viewOf(plan, effective, version));
                LOG.info("following {} as a standby", source);
                return null;
            }
            if (sameTopology) {
                Map<String, LinkState> before = w.view().effective();
                w.follow(new FabricView(w.view().fabric(), w.view().plan(), effective, version));
                PlacementResult r = w.engine().updateLinkStates(effective);
                String reason = linkReason(before, effective);
                recordStateChange(w, r, reason, "link-states", Map.of("source", source, "reason", reason));
            } else {
                w.install(Placement.viewOf(plan, effective, version));
                replaceAll(w, first ? "restart" : "fabric-changed");
            }
            LOG.info("placing on {} ({} nodes, {} links)", source, plan.fabric().nodes().size(),
                    plan.fabric().links().size());
            return null;
        });
    }

    /** Places every active job again on a fresh engine and records the flows that changed. */
    private void replaceAll(Placement.Writing w, String reason) {
        PlacementEngine engine = w.engine();
        List<JobStore.ActiveJob> active = jobs.activeJobs();
        List<Unplaced> lost = new ArrayList<>();
        for (JobStore.ActiveJob j : active) {
            List<Flow> flows = new ArrayList<>();
            for (JobStore.FlowRow f : j.flows()) {
                flows.add(new Flow(f.id(), j.id(), f.src(), f.dst(), f.demandGbps(), f.slice()));
            }
            try {
                lost.addAll(engine.add(new Job(j.id(), j.tenant(), flows)).unplaced());
            } catch (PlacementException e) {
                // The fabric no longer has one of the job's NICs: its flows have no path now.
                LOG.warn("job {} cannot be placed on the new fabric: {}", j.id(), e.getMessage());
                flows.forEach(f -> lost.add(new Unplaced(f, e.getMessage())));
            }
        }
        if (reason.equals("restart")) {
            restoreStoredPaths(engine, active);
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
    }

    /** Drains or undrains a link; returns how many flow slices moved and how many lost their path. */
    public DrainOutcome setDrained(String linkId, boolean drained, String by) {
        return placement.write((drained ? "drain " : "undrain ") + linkId, w -> {
            FabricView view = w.view();
            if (view.fabric().link(linkId) == null) {
                throw ApiException.notFound("id", "no link '" + linkId + "' in fabric " + view.fabric().id());
            }
            PlacementEngine engine = w.engine();
            return w.commit(s -> {
                if (drained) {
                    jdbc.sql("insert into link_drains (link_id, drained_by) values (?, ?) on conflict do nothing")
                            .params(linkId, by).update();
                } else {
                    jdbc.sql("delete from link_drains where link_id = ?").param(linkId).update();
                }
                Map<String, LinkState> effective = effective(view.fabric());
                w.follow(new FabricView(view.fabric(), view.plan(), effective, view.version()));
                PlacementResult r = engine.updateLinkStates(effective);
                String reason = (drained ? "drain:" : "undrain:") + linkId;
                List<PathChange> changes = Changes.of(r, engine, "", reason, reason);
                ledger.record(changes);
                DrainOutcome outcome = new DrainOutcome(linkId, effective.get(linkId).json(),
                        (int) changes.stream().filter(c -> c.state().equals(PathLedger.GOOD)).count(),
                        r.unplaced().size(), r.quality().maxLoad());
                Map<String, Object> payload = new LinkedHashMap<>();
                payload.put("linkId", linkId);
                payload.put("state", outcome.state());
                payload.put("moved", outcome.moved());
                payload.put("unplaced", outcome.unplaced());
                payload.put("by", by);
                events.append(drained ? "link-drained" : "link-undrained", linkId, payload);
                return outcome;
            }, () -> {
                // The drain row rolled back; the engine and view may hold the drain: rebuild both.
                w.follow(view);
                w.discardEngine();
            });
        });
    }

    private void recordStateChange(Placement.Writing w, PlacementResult r, String reason, String eventType,
                                   Map<String, Object> payload) {
        List<PathChange> changes = Changes.of(r, w.engine(), "", reason, reason);
        if (changes.isEmpty()) {
            return;
        }
        w.commit(s -> {
            ledger.record(changes);
            Map<String, Object> p = new LinkedHashMap<>(payload);
            p.put("flows", changes.size());
            p.put("unplaced", r.unplaced().size());
            events.append("flows-replaced", eventType, p);
            return null;
        }, w::discardEngine);
    }

    /** The controller's states with operator drains on top (a down link stays down). */
    private Map<String, LinkState> effective(Fabric fabric) {
        Set<String> drains = new TreeSet<>(jdbc.sql("select link_id from link_drains").query(String.class).list());
        Map<String, LinkState> out = new HashMap<>();
        for (Link l : fabric.links()) {
            LinkState s = snapshotStates.getOrDefault(l.id(), LinkState.UP);
            if (s == LinkState.UP && drains.contains(l.id())) {
                s = LinkState.DRAINED;
            }
            out.put(l.id(), s);
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
     */
    private void restoreStoredPaths(PlacementEngine engine, List<JobStore.ActiveJob> active) {
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
        LOG.info("restart: {} flows put back on their stored paths", restored);
    }

    /** Arc indices of stored "linkId>toNode" keys, or null if any is gone or not usable now. */
    private static int[] arcsOf(FabricIndex ix, List<String> keys) {
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
            int arc = ix.nodeId(ix.to(pair[0])).equals(to) ? pair[0] : ix.nodeId(ix.to(pair[1])).equals(to) ? pair[1] : -1;
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
