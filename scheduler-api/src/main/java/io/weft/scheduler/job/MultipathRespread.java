package io.weft.scheduler.job;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import io.weft.placement.ColumnGenerationMultipath;
import io.weft.placement.Flow;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlacementException;
import io.weft.placement.PlanFlowEncoder;
import io.weft.plan.FabricPlan;
import io.weft.scheduler.config.RespreadProperties;
import io.weft.scheduler.events.EventLog;
import io.weft.scheduler.fabric.HotspotPassApplied;
import io.weft.scheduler.fabric.LinkPassApplied;
import io.weft.scheduler.fabric.Placement;
import io.weft.scheduler.job.JobStore.FlowRow;
import io.weft.scheduler.job.JobViews.RespreadView;
import io.weft.scheduler.job.PathLedger.PathChange;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Fabric-wide multipath: re-spreads every multipath job's flows together ({@link FabricSpread}) and
 * applies the answer as one change of the single writer: new slices and weights in the engine,
 * their carriers and entropy values, one PostgreSQL transaction (slices, paths, one new version per
 * affected agent, the event), or nothing at all when the new answer is not better, the planner
 * falls back or runs out of its budget (the answer says why).
 *
 * <p><b>Planned outside the writer.</b> The writer is held only to copy a snapshot of the engine
 * ({@link FabricSpread.Snapshot}, with the writer's change count) and, for an answer worth applying,
 * to apply it: job submissions, releases and re-placements go on while the planner runs (up to
 * {@code budget-ms}). The plan is applied only if no change of the placement came in between
 * (then the engine is exactly the snapshot); otherwise it is made again on the new state, up to
 * {@link #REPLANS} more times, then the answer is "superseded" and the placement stays. A dry run
 * takes the writer only for the snapshot.
 *
 * <p>Runs when an operator asks ({@code POST /v1/fabric/multipath/respread}, also as a dry run that
 * changes nothing) and after a link-down, drain, link-up or new-fabric pass of the re-placement loop
 * ({@link LinkPassApplied}) when the max load is then above the fabric-wide optimum by more than the
 * configured margin, and after a hotspot pass that moved slices of a job that may spread
 * ({@link HotspotPassApplied}); triggered passes are rate-limited ({@code weft.scheduler.respread.*}).
 */
@Component
class MultipathRespread {
    private static final Logger LOG = LoggerFactory.getLogger(MultipathRespread.class);
    static final String REASON = "respread";
    /** Plans after the first when the placement changed while one was made. */
    static final int REPLANS = 2;

    private final Placement placement;
    private final JobStore store;
    private final PathLedger ledger;
    private final EventLog events;
    private final RespreadProperties props;
    private final ScheduledExecutorService triggered = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "weft-respread");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean pending = new AtomicBoolean();
    private final ReentrantLock planning = new ReentrantLock();
    /**
     * Runs after each plan, before the writer is asked to apply it: tests hold a pass here to
     * change the placement meanwhile.
     */
    volatile Runnable afterPlanning = () -> { };
    /** What the pending triggered pass was asked for (guarded by itself). */
    private final Triggers triggers = new Triggers();
    /** When the last triggered pass started (System.nanoTime), or 0. */
    private volatile long lastTriggeredNs;

    /** Triggers coalesced into the pending pass: the first reason, and whether any job or which. */
    private static final class Triggers {
        String reason;
        boolean anyJob;
        final Set<String> jobs = new HashSet<>();
    }

    MultipathRespread(Placement placement, JobStore store, PathLedger ledger, EventLog events,
                      RespreadProperties props) {
        this.placement = placement;
        this.store = store;
        this.ledger = ledger;
        this.events = events;
        this.props = props;
    }

    @PreDestroy
    void stop() {
        triggered.shutdownNow();
    }

    /**
     * The operator's pass: re-spreads now (or, with {@code dryRun}, says what it would do and changes
     * nothing). 503 on a standby, as every write.
     */
    RespreadView run(boolean dryRun, String operator) {
        return pass(dryRun, "operator " + operator, false);
    }

    /**
     * After a link pass of the writer: one re-spread, at once or, within {@code minIntervalMs} of the
     * last one, at the end of that interval (coalesced: many passes inside it give one re-spread).
     */
    @EventListener
    void afterLinkPass(LinkPassApplied pass) {
        if (props.afterLinkPasses()) {
            trigger(pass.reason(), null);
        }
    }

    /**
     * After a hotspot (or fast link-down) pass of the re-placement loop that moved slices of a job
     * that may spread: it moves slices one at a time, off the spread's optimum. The same coalescing
     * and rate limit as link passes: within {@code minIntervalMs} the hotspot's moves stand, so the
     * loop and the re-spread (which sees reservations, not the measured load) cannot undo each other
     * faster than that; the margin keeps a spread close enough to its optimum as it is.
     */
    @EventListener
    void afterHotspotPass(HotspotPassApplied pass) {
        if (props.afterHotspotPasses()) {
            trigger(pass.reason(), pass.jobs());
        }
    }

    /** Schedules one triggered pass; {@code jobs} null = unconditional, else only if one of them spreads. */
    private void trigger(String reason, Set<String> jobs) {
        synchronized (triggers) {
            if (jobs == null) {
                triggers.anyJob = true;
            } else {
                triggers.jobs.addAll(jobs);
            }
            if (triggers.reason == null) {
                triggers.reason = reason;
            }
            if (!pending.compareAndSet(false, true)) {
                return;
            }
        }
        long sinceMs = lastTriggeredNs == 0 ? Long.MAX_VALUE : (System.nanoTime() - lastTriggeredNs) / 1_000_000;
        long delayMs = Math.max(0, props.minIntervalMs() - sinceMs);
        triggered.schedule(this::triggeredPass, delayMs, TimeUnit.MILLISECONDS);
    }

    private void triggeredPass() {
        String reason;
        boolean anyJob;
        Set<String> moved;
        synchronized (triggers) {
            pending.set(false);
            reason = triggers.reason;
            anyJob = triggers.anyJob;
            moved = Set.copyOf(triggers.jobs);
            triggers.reason = null;
            triggers.anyJob = false;
            triggers.jobs.clear();
        }
        lastTriggeredNs = System.nanoTime();
        try {
            if (!anyJob && store.spreadJobs().stream().noneMatch(j -> moved.contains(j.id()))) {
                LOG.debug("after {}: no moved slice belongs to a job that may spread", reason);
                return;
            }
            RespreadView v = pass(false, "after " + reason, true);
            LOG.info("re-spread after {}: {}", reason, v.reason() == null ? "applied" : v.reason());
        } catch (RuntimeException e) {
            // A standby, a lost lease or a failed transaction: the placement stays, the next pass retries.
            LOG.warn("re-spread after {} not done: {}", reason, e.getMessage());
        }
    }

    /**
     * One pass: a snapshot under the writer, the plan outside it, then (unless it is a dry run or
     * not better) back into the writer to apply it if nothing changed since the snapshot; after a
     * change, planned again on the new state up to {@link #REPLANS} times, then "superseded".
     */
    private RespreadView pass(boolean dryRun, String trigger, boolean onlyAboveMargin) {
        long start = System.nanoTime();
        planning.lock(); // one pass plans at a time: two would only supersede each other
        try {
            String superseded = null;
            for (int attempt = 0; attempt <= REPLANS; attempt++) {
                Taken t = placement.read("take a snapshot for a re-spread", w -> {
                    List<FabricSpread.SpreadJob> jobs = store.spreadJobs();
                    return new Taken(FabricSpread.Snapshot.of(w.engine(), jobs), jobs, w.view().plan(),
                            w.generation());
                });
                long planStart = System.nanoTime();
                Planned p = plan(t, dryRun, trigger, onlyAboveMargin, start);
                if (p.answer() == null) {
                    // The bench (and an operator chasing a slow pass) reads when the plan was done.
                    LOG.debug("re-spread ({}): plan {} made in {} ms, applying", trigger, attempt + 1,
                            (System.nanoTime() - planStart) / 1_000_000);
                }
                afterPlanning.run();
                if (p.answer() != null) {
                    return p.answer();
                }
                Applied a = placement.write("re-spread the multipath jobs", w -> {
                    String moved = w.changedSince(t.generation());
                    return moved == null ? new Applied(apply(w, p.plan(), trigger, start), null)
                            : new Applied(null, moved);
                });
                if (a.view() != null) {
                    return a.view();
                }
                superseded = a.superseded();
                LOG.info("re-spread ({}) planned on a snapshot that changed: {}", trigger, superseded);
                if (attempt == REPLANS) {
                    return RespreadView.of(p.plan(), false, false, trigger, "superseded: " + superseded + "; planned "
                            + (REPLANS + 1) + " times, the placement changed each time: the placement stays",
                            agentsOf(p.plan().changed()), slices(p.plan().changed(), true),
                            slices(p.plan().changed(), false), start);
                }
            }
            throw new IllegalStateException("re-spread: no answer after " + (REPLANS + 1) + " plans (" + superseded
                    + ")");
        } finally {
            planning.unlock();
        }
    }

    /** The writer's state for one plan: the engine's snapshot, the jobs, the fabric plan, the change count. */
    private record Taken(FabricSpread.Snapshot snapshot, List<FabricSpread.SpreadJob> jobs, FabricPlan plan,
                         long generation) {
    }

    /** What the writer did with a plan: applied it (or refused it, with the reason), or what superseded it. */
    private record Applied(RespreadView view, String superseded) {
    }

    /** A plan to apply, or the answer when there is nothing to apply (dry run, not better, failed). */
    private record Planned(FabricSpread.Plan plan, RespreadView answer) {
    }

    /** Plans on the snapshot, outside the writer. */
    private Planned plan(Taken t, boolean dryRun, String trigger, boolean onlyAboveMargin, long start) {
        FabricSpread.Snapshot snap = t.snapshot();
        FabricSpread.Plan plan;
        PlanFlowEncoder encoder = new PlanFlowEncoder(t.plan());
        try {
            plan = FabricSpread.plan(snap, t.jobs(), props.budgetMs(), (j, options, background) ->
                    new ColumnGenerationMultipath(snap.index(), encoder, snap.config()).place(j, options, background),
                    encoder);
        } catch (PlacementException | RuntimeException e) {
            LOG.error("multipath re-spread planner failed: {}", e.toString(), e);
            return new Planned(null, RespreadView.kept(dryRun, trigger, "the multipath planner failed ("
                    + e.getMessage() + "): the placement stays", snap.maxLoad(), null, start));
        }
        boolean withinMargin = plan.maxLoadBefore()
                <= bound(plan) * (1 + props.margin()) + FabricSpread.LOAD_EPSILON;
        String why = plan.fallback() != null ? plan.fallback()
                : onlyAboveMargin && withinMargin
                        ? String.format(java.util.Locale.ROOT, "max load %.4f is within %.1f %% of the optimum "
                                + "%.4f: the placement stays", plan.maxLoadBefore(), props.margin() * 100,
                                bound(plan))
                : plan.changed().isEmpty()
                        ? "the flows are already where the re-spread puts them: the placement stays"
                : plan.maxLoadAfter() >= plan.maxLoadBefore() - FabricSpread.LOAD_EPSILON
                        ? String.format(java.util.Locale.ROOT, "the re-spread (max load %.4f) does not beat the "
                                + "placement now (%.4f): the placement stays", plan.maxLoadAfter(),
                                plan.maxLoadBefore())
                : null;
        if (why != null || dryRun) {
            return new Planned(plan, RespreadView.of(plan, false, dryRun, trigger, why != null ? why : plan.note(),
                    agentsOf(plan.changed()),
                    slices(plan.changed(), true), slices(plan.changed(), false), start));
        }
        return new Planned(plan, null);
    }

    private RespreadView apply(Placement.Writing w, FabricSpread.Plan plan, String trigger, long start) {
        long applyStart = System.nanoTime();
        PlacementEngine engine = w.engine();
        Set<String> jobs = new LinkedHashSet<>();
        plan.changed().forEach(f -> jobs.add(f.job().id()));
        Map<String, PathChange> before = new HashMap<>();
        for (String job : jobs) {
            engine.placedFlows(job).forEach(p -> before.put(p.flow().id(), Changes.placed(p, REASON)));
        }
        Map<String, Flow> oldSlices = new LinkedHashMap<>();
        plan.changed().forEach(f -> f.slices().forEach(s -> oldSlices.put(s.id(), s)));
        List<String> pinnedBack;
        long reAdded;
        try {
            pinnedBack = FabricSpread.apply(engine, plan);
            reAdded = System.nanoTime();
        } catch (PlacementException | RuntimeException e) {
            w.discardEngine(); // half-changed: rebuilt from PostgreSQL, which still holds the old placement
            return RespreadView.of(plan, false, false, trigger, "the engine refused the re-spread ("
                    + e.getMessage() + "): the placement stays", agentsOf(plan.changed()),
                    slices(plan.changed(), true), slices(plan.changed(), false), start);
        }
        double after = engine.quality().maxLoad();
        String refusal = after >= plan.maxLoadBefore() - FabricSpread.LOAD_EPSILON
                ? String.format(java.util.Locale.ROOT, "the engine's max load with the re-spread (%.4f) does not "
                        + "beat the placement now (%.4f): the placement stays", after, plan.maxLoadBefore())
                : evRefusal(engine, plan);
        if (refusal != null) {
            w.discardEngine();
            return RespreadView.of(plan, false, false, trigger, refusal, agentsOf(plan.changed()),
                    slices(plan.changed(), true), slices(plan.changed(), false), start);
        }
        List<PathChange> changes = new ArrayList<>();
        List<FlowRow> rows = new ArrayList<>();
        Map<String, Double> weights = new HashMap<>();
        Set<String> kept = new LinkedHashSet<>();
        for (FabricSpread.PatternFlow f : plan.changed()) {
            List<Flow> news = f.plannedSlices();
            for (int i = 0; i < news.size(); i++) {
                Flow s = news.get(i);
                kept.add(s.id());
                // A slice that keeps its share writes no row; its path is written only if it moved.
                Flow was = oldSlices.get(s.id());
                if (was == null || was.demandGbps() != s.demandGbps() || was.slice() != s.slice()) {
                    rows.add(new FlowRow(s.id(), f.job().id(), f.index(), s.slice(), s.srcNic(), s.dstNic(),
                            s.demandGbps()));
                    weights.put(s.id(), f.weight(i));
                }
            }
        }
        for (String job : jobs) {
            for (PlacedFlow p : engine.placedFlows(job)) {
                PathChange c = Changes.placed(p, REASON);
                PathChange old = before.get(c.flowId());
                // New or re-weighted slices are news to their agent even on an old path.
                if (old == null || !same(old, c) || weights.containsKey(c.flowId())) {
                    changes.add(c);
                }
            }
        }
        for (String id : pinnedBack) {
            // Moved while adding and pinned back: only a changed encoding is news to its agent.
            PlacedFlow p = engine.placed(id);
            changes.add(Changes.placed(p, "rebalanced:" + REASON));
        }
        List<String> retired = new ArrayList<>();
        for (Flow s : oldSlices.values()) {
            if (!kept.contains(s.id())) {
                retired.add(s.id());
                changes.add(new PathChange(s.id(), s.job(), s.srcNic(), List.of(), List.of(), List.of(), null,
                        PathLedger.DENIED, REASON + ": slice retired"));
            }
        }
        Map<String, Map<String, Object>> summaries = summaries(engine, plan, after);
        long engineDone = System.nanoTime();
        long[] txParts = new long[3];
        Map<String, Long> versions = w.commit(status -> {
            long t0 = System.nanoTime();
            store.respread(rows, weights, retired);
            long t1 = System.nanoTime();
            store.respreadSummaries(summaries);
            long t2 = System.nanoTime();
            Map<String, Long> v = ledger.record(changes);
            txParts[0] = t1 - t0;
            txParts[1] = t2 - t1;
            txParts[2] = System.nanoTime() - t2;
            RespreadView view = RespreadView.of(plan, true, false, trigger, plan.note(), new TreeSet<>(v.keySet()),
                    oldSlices.size(), kept.size(), start).withMaxLoadAfter(after);
            events.append("multipath-respread", trigger, Map.of("jobs", jobs.size(), "view", view));
            return v;
        }, w::discardEngine);
        long end = System.nanoTime();
        LOG.info("re-spread ({}): {} flows of {} jobs, {} slices -> {} ({} rows written, {} retired), max load {} -> "
                + "{}, {} agents, {} path changes, {} ms ({} ms under the writer: engine {} ms (jobs re-added {} ms), "
                + "transaction {} ms: flows {} ms, summaries {} ms, ledger {} ms)", trigger, plan.changed().size(),
                jobs.size(), oldSlices.size(), kept.size(), rows.size(), retired.size(), plan.maxLoadBefore(), after,
                versions.size(), changes.size(), (end - start) / 1_000_000, (end - applyStart) / 1_000_000,
                (engineDone - applyStart) / 1_000_000, (reAdded - applyStart) / 1_000_000,
                (end - engineDone) / 1_000_000, txParts[0] / 1_000_000,
                txParts[1] / 1_000_000, txParts[2] / 1_000_000);
        return RespreadView.of(plan, true, false, trigger, plan.note(), new TreeSet<>(versions.keySet()),
                oldSlices.size(), kept.size(), start).withMaxLoadAfter(after);
    }

    /**
     * Each spread job's multipath summary after an applied pass: the most paths any of its flows has
     * now, the fabric's max load, the joint optimum and bounds (the granular one only for jobs whose
     * granularity divides the pass's units), when.
     */
    static Map<String, Map<String, Object>> summaries(PlacementEngine engine, FabricSpread.Plan plan, double after) {
        String at = java.time.Instant.now().toString();
        // The pass rounds in units every job's granularity divides: a bound on any routing in them is
        // one on each job's own units too (eighths are sixteenths); absent when some job's do not.
        int passGranularity = FabricSpread.passGranularity(plan.flows().stream().map(FabricSpread.PatternFlow::job)
                .distinct().toList());
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        for (FabricSpread.PatternFlow f : plan.flows()) {
            out.computeIfAbsent(f.job().id(), id -> {
                Map<Integer, Integer> paths = new HashMap<>();
                for (PlacedFlow p : engine.placedFlows(id)) {
                    paths.merge(JobRequests.flowIndex(id, p.flow().id()), 1, Integer::sum);
                }
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("maxPathsPerFlow", paths.values().stream().mapToInt(Integer::intValue).max().orElse(0));
                m.put("maxLoad", after);
                putFinite(m, "splittableOptimum", plan.optimum());
                putFinite(m, "lowerBound", plan.lowerBound());
                if (passGranularity % f.job().granularity() == 0) {
                    putFinite(m, "granularBound", plan.granularBound());
                }
                putFinite(m, "gapBound", after / plan.lowerBound() - 1);
                m.put("respreadAt", at);
                return m;
            });
        }
        return out;
    }

    private static void putFinite(Map<String, Object> m, String key, double v) {
        if (Double.isFinite(v)) {
            m.put(key, v);
        }
    }

    /** An EV-only job's slice whose path EV routing cannot reach, or null. */
    private static String evRefusal(PlacementEngine engine, FabricSpread.Plan plan) {
        for (FabricSpread.PatternFlow f : plan.changed()) {
            if (f.job().encoding() == Encoding.EV) {
                for (PlacedFlow p : engine.placedFlows(f.job().id())) {
                    if (p.encoding().ev() == null) {
                        return "slice " + p.flow().id() + " of an EV-only job is not reachable by EV routing: "
                                + "the placement stays";
                    }
                }
            }
        }
        return null;
    }

    /** The fabric-wide optimum if proven, else the proven lower bound. */
    private static double bound(FabricSpread.Plan plan) {
        return Double.isFinite(plan.optimum()) ? plan.optimum() : plan.lowerBound();
    }

    private static boolean same(PathChange a, PathChange b) {
        return a.arcs().equals(b.arcs()) && a.carriers().equals(b.carriers()) && a.usids().equals(b.usids())
                && java.util.Objects.equals(a.ev(), b.ev()) && a.state().equals(b.state());
    }

    private static Set<String> agentsOf(List<FabricSpread.PatternFlow> flows) {
        Set<String> out = new TreeSet<>();
        flows.forEach(f -> out.add(f.flow().srcNic()));
        return out;
    }

    /** Slices of the changed flows now ({@code before}) or as planned. */
    private static int slices(List<FabricSpread.PatternFlow> flows, boolean before) {
        return flows.stream().mapToInt(f -> before ? f.slices().size() : f.paths().size()).sum();
    }
}
