package io.weft.scheduler.reroute;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.weft.auth.KafkaClientSecurity;
import io.weft.contracts.HotspotEvent;
import io.weft.placement.Candidates;
import io.weft.placement.DenseFabric;
import io.weft.placement.PlacementEngine;
import io.weft.scheduler.config.SchedulerKafkaProperties;
import io.weft.scheduler.events.EventLog;
import io.weft.scheduler.fabric.HotspotPassApplied;
import io.weft.scheduler.fabric.Placement;
import io.weft.scheduler.job.PathLedger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Closes the loop: follows {@code weft.hotspots} ({@link HotspotFeed}), keeps the hot link directions
 * ({@link ActiveHotspots}, redeliveries dropped by {@link SeenEvents}), and runs {@link ReunionPolicy}
 * once per statistics interval and at once when a hotspot starts or a link goes down (so the first
 * move does not wait for the next tick; {@link MoveBudget} still counts per interval). Moves are
 * applied as one change of the single writer ({@link Placement#write}): pinned in the engine
 * ({@link MovePins}), then path assignments, history (reason = cause and timings), per-NIC versions
 * and a "flows-replaced" event in one transaction, the pins undone if it fails; agents are woken
 * after the commit, and the pass's timing chain ({@link PassTimes}) is kept as a "loop-timings" event.
 *
 * <p>Runs only on the replica holding the writer lease: it starts when the replica becomes the writer
 * and stops when it stops being one. The consumer joins the group with a fixed instance id, so a new
 * writer takes the partitions over at once instead of waiting for the dead one's session to expire.
 *
 * <p>All loop state lives on one thread ("weft-reroute"); the Kafka thread only hands events over.
 * A link-down here moves the flows before the controller's new fabric snapshot arrives; that
 * snapshot then finds nothing left on the link. Until it arrives, the engine's index still calls the
 * link up, so {@link DownLinks} keeps it out of every pass.
 */
@Component
public class HotspotListener implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(HotspotListener.class);
    /** Event ids remembered to drop redeliveries (at-least-once consumption). */
    private static final int SEEN_IDS = 10_000;

    private final Placement placement;
    private final PathLedger ledger;
    private final EventLog events;
    private final TransactionTemplate tx;
    private final SchedulerKafkaProperties kafka;
    private final KafkaClientSecurity login;
    private final RerouteProperties props;
    private final ReunionPolicy policy;
    private final LoopTimings timings;
    private final ApplicationEventPublisher passes;

    /** One writer term's loop: state, thread and feed; replaced when the replica becomes writer again. */
    private final class Term {
        final ActiveHotspots active = new ActiveHotspots();
        final SeenEvents seen = new SeenEvents(SEEN_IDS);
        final MoveBudget budget = new MoveBudget(props.intervalMs());
        /** Links down by event whose down state the engine's index (the last snapshot) does not have yet. */
        final DownLinks downLinks = new DownLinks();
        final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "weft-reroute");
            t.setDaemon(true);
            return t;
        });
        final HotspotFeed feed;
        /** Candidate paths of the engine's current index; a new index (snapshot, link states) gets new ones. */
        Candidates candidates;

        Term() {
            feed = new HotspotFeed(consumer(), props.hotspotsTopic(),
                    (ev, received) -> loop.execute(() -> safely("event " + ev.eventId(), () -> onEvent(this, ev,
                            received))));
        }
    }

    private volatile boolean running;
    private boolean warmedUp;
    /** What the start-up warm-up did; null before it ran or when it failed. */
    private volatile LoopWarmUp.Report warmUp;
    private volatile Term term;

    HotspotListener(Placement placement, PathLedger ledger, EventLog events, TransactionTemplate tx,
                    SchedulerKafkaProperties kafka, KafkaClientSecurity login, RerouteProperties props,
                    MeterRegistry meters, ApplicationEventPublisher passes) {
        this.placement = placement;
        this.ledger = ledger;
        this.events = events;
        this.tx = tx;
        this.kafka = kafka;
        this.login = login;
        this.props = props;
        this.policy = new ReunionPolicy(props.k(), props.t());
        this.timings = new LoopTimings(meters);
        this.passes = passes;
        placement.onRoleChange(writer -> {
            if (writer) {
                startTerm();
            } else {
                stopTerm();
            }
        });
    }

    @Override
    public void start() {
        running = true;
        if (!props.enabled() || !kafka.enabled()) {
            LOG.info("re-placement on hotspots off (weft.reroute.enabled={}, Kafka {})", props.enabled(),
                    kafka.enabled() ? "on" : "off");
            return;
        }
        warmUp();
        if (placement.writer()) {
            startTerm();
        } else {
            LOG.info("re-placement on hotspots waits for this replica to hold the writer lease");
        }
    }

    /**
     * Once per process, before any event can arrive: runs the loop's decide and pin code on a scratch
     * engine ({@link LoopWarmUp}), so the first real pass is not the one that loads it. Never fatal.
     */
    private void warmUp() {
        if (warmedUp) {
            return;
        }
        warmedUp = true;
        try {
            LoopWarmUp.Report r = LoopWarmUp.run(policy);
            warmUp = r;
            LOG.info("loop warmed up on a scratch engine: {} passes, {} hotspot and {} link-down moves pinned and "
                    + "undone, {} ms", r.passes(), r.hotspotMoves(), r.linkDownMoves(), r.elapsedMs());
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("loop warm-up failed (the first pass will be slower): {}", e.toString());
        }
    }

    private synchronized void startTerm() {
        if (!running || term != null || !props.enabled() || !kafka.enabled()) {
            return;
        }
        Term t = new Term();
        t.loop.scheduleAtFixedRate(() -> safely("interval pass", () -> hotspotPass(t, null)), props.intervalMs(),
                props.intervalMs(), TimeUnit.MILLISECONDS);
        t.feed.start();
        term = t;
        LOG.info("re-placing on {} (k={}, t={}, interval {} ms)", props.hotspotsTopic(), props.k(), props.t(),
                props.intervalMs());
    }

    private synchronized void stopTerm() {
        Term t = term;
        term = null;
        if (t != null) {
            t.feed.stop();
            t.loop.shutdownNow();
            LOG.info("re-placement on hotspots stopped: this replica is no longer the writer");
        }
    }

    private KafkaConsumer<String, String> consumer() {
        Properties p = login.applyTo(new Properties());
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, kafka.clientId() + "-reroute");
        p.put(ConsumerConfig.GROUP_ID_CONFIG, props.groupId());
        // Only the writer consumes, always as this one member: a standby taking over replaces the dead
        // writer's membership at once (static membership) instead of waiting out its session.
        p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, props.groupId() + "-writer");
        // A hotspot older than this process is stale: its flows were placed again at start-up.
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "10");
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }

    /** What the start-up warm-up did (null before it ran, when it failed, or with the loop off). */
    LoopWarmUp.Report warmUpReport() {
        return warmUp;
    }

    /** True once the consumer has its partitions (events published from now on are seen). */
    public boolean awaitAssigned(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Term t = term;
        while (t == null && System.nanoTime() < deadline) {
            Thread.sleep(20);
            t = term;
        }
        return t != null && t.feed.awaitAssigned(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }

    private void onEvent(Term t, HotspotEvent ev, Instant received) {
        if (!t.seen.firstTime(ev.eventId())) {
            return;
        }
        switch (ev.kind()) {
            case HOTSPOT_START -> {
                t.active.started(ev, received);
                hotspotPass(t, ev);
            }
            case HOTSPOT_END -> t.active.ended(ev);
            case LINK_DOWN -> {
                t.active.linkDown(ev.linkId());
                // Before any pass: from now on no pass may choose the link, whatever the index says.
                t.downLinks.reported(ev.linkId());
                linkDownPass(t, ev, received);
            }
            case LINK_UP ->
                // Passes may use the link again once the index does: the controller's next fabric
                // snapshot brings it back into placement if the last one had it down.
                t.downLinks.restored(ev.linkId());
            default -> {
            }
        }
    }

    /** Moves up to k flows off every hot direction (this interval's budget permitting). */
    private void hotspotPass(Term t, HotspotEvent trigger) {
        if (t.active.isEmpty()) {
            return;
        }
        t.budget.roll(System.currentTimeMillis());
        Instant started = Instant.now();
        placement.write("move flows off hotspots", w -> {
            Instant writing = Instant.now();
            if (!placement.ready()) {
                return null;
            }
            PlacementEngine engine = w.engine();
            DenseFabric ix = engine.index();
            Set<Integer> downArcs = t.downLinks.arcs(ix);
            ActiveHotspots.Hot hot = t.active.resolve(ix, t.budget, true);
            if (hot.arcs().isEmpty()) {
                return null;
            }
            List<Move> moves = policy.onHotspots(view(t, engine, downArcs), hot.arcs(), hot.usedByArc(),
                    t.budget.movedThisInterval());
            if (moves.isEmpty()) {
                return null;
            }
            Map<Move, ActiveHotspot> origin = new LinkedHashMap<>();
            for (Move m : moves) {
                ActiveHotspot a = hot.byEventId().get(m.cause().substring(Move.HOTSPOT.length()));
                origin.put(m, a);
                t.budget.spend(a.start().directionKey().toString(), m.flowId());
            }
            commit(w, engine, origin, trigger == null ? "interval" : "hotspot-start", downArcs, started, writing);
            return null;
        });
    }

    private void linkDownPass(Term t, HotspotEvent ev, Instant received) {
        t.budget.roll(System.currentTimeMillis());
        Instant started = Instant.now();
        placement.write("move flows off a down link", w -> {
            Instant writing = Instant.now();
            if (!placement.ready()) {
                return null;
            }
            PlacementEngine engine = w.engine();
            int[] arcs = engine.index().arcsOfLink(ev.linkId());
            if (arcs == null) {
                t.active.warnUnknown(ev.linkId());
                return null;
            }
            List<HotArc> hot = t.active.resolve(engine.index(), t.budget, false).arcs();
            Set<Integer> downArcs = t.downLinks.arcs(engine.index());
            PlacementView view = view(t, engine, downArcs);
            List<Move> moves = policy.onLinkDown(view, ev.linkId(), arcs, hot);
            Set<String> onLink = new HashSet<>(view.flowsOn(arcs[0]));
            onLink.addAll(view.flowsOn(arcs[1]));
            if (moves.size() < onLink.size()) {
                LOG.warn("link {} down: {} of its {} flow slices have no surviving path; they stay until the "
                        + "controller's snapshot", ev.linkId(), onLink.size() - moves.size(), onLink.size());
            }
            Map<Move, ActiveHotspot> origin = new LinkedHashMap<>();
            ActiveHotspot a = new ActiveHotspot(ev, received);
            for (Move m : moves) {
                origin.put(m, a);
                t.budget.moved(m.flowId());
            }
            commit(w, engine, origin, "link-down", downArcs, started, writing);
            return null;
        });
    }

    /** Pins the moves in the engine and records them; the writer undoes the pins if the transaction fails. */
    private void commit(Placement.Writing w, PlacementEngine engine, Map<Move, ActiveHotspot> moves, String trigger,
                        Set<Integer> downArcs, Instant started, Instant writing) {
        Instant decided = Instant.now();
        MovePins.Pinned pinned = MovePins.apply(engine, moves, downArcs, decided);
        if (pinned.isEmpty()) {
            return;
        }
        Instant pinnedAt = Instant.now();
        Instant[] stamps = new Instant[2];
        String cause = pinned.moves().get(0).cause();
        try {
            w.commit(s -> {
                ledger.record(pinned.changes());
                Map<String, Object> payload = new LinkedHashMap<>();
                payload.put("reason", cause);
                payload.put("trigger", trigger);
                payload.put("flows", pinned.changes().size());
                payload.put("moves", pinned.described());
                events.append("flows-replaced", cause, payload);
                // Registered after the ledger's: runs once the agents' long-polls were answered.
                TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                    @Override
                    public void afterCommit() {
                        stamps[1] = Instant.now();
                    }

                    @Override
                    public void beforeCommit(boolean readOnly) {
                        stamps[0] = Instant.now();
                    }
                });
                return null;
            }, () -> MovePins.undo(engine, pinned.moves()));
        } catch (RuntimeException e) {
            LOG.error("recording {} moves failed (undone): {}", pinned.moves().size(), e.toString());
            return;
        }
        // Committed: whoever re-optimises after the loop's moves (the multipath re-spread) is told.
        Set<String> jobs = new HashSet<>();
        pinned.changes().forEach(c -> jobs.add(c.jobId()));
        passes.publishEvent(new HotspotPassApplied(cause, jobs));
        PassTimes times = new PassTimes(started, writing, decided, pinnedAt, stamps[0] == null ? decided : stamps[0],
                stamps[1] == null ? Instant.now() : stamps[1]);
        List<Map<String, Object>> chains = new java.util.ArrayList<>();
        for (ActiveHotspot a : new HashSet<>(moves.values())) {
            HotspotEvent s = a.start();
            timings.record(s.sampledAt(), s.detectedAt(), times.committed(), times.woken());
            chains.add(times.chain(a, trigger));
        }
        try {
            // After the agents were woken, so it costs the loop nothing: the whole chain, kept with the events.
            tx.executeWithoutResult(s -> events.append("loop-timings", cause,
                    Map.of("trigger", trigger, "flows", pinned.changes().size(), "chains", chains)));
        } catch (RuntimeException e) {
            LOG.warn("loop timings not recorded: {}", e.toString());
        }
        LOG.info("moved {} flow slices ({}; {}): event to agents woken {} ms; {}", pinned.changes().size(), trigger,
                cause, LoopTimings.millis(moves.values().iterator().next().start().detectedAt(), times.woken()),
                chains.get(0));
    }

    private PlacementView view(Term t, PlacementEngine engine, Set<Integer> downArcs) {
        if (t.candidates == null || t.candidates.index() != engine.index()) {
            t.candidates = new Candidates(engine.index());
        }
        return PlacementView.of(engine, t.candidates, downArcs);
    }

    private static void safely(String what, Runnable r) {
        try {
            r.run();
        } catch (RuntimeException | LinkageError e) {
            // One bad pass must not stop the loop thread, nor cancel the periodic pass. LinkageError:
            // EnginePin cannot reach engine internals that changed (its tests say which).
            LOG.error("re-placement {} failed: {}", what, e.toString(), e);
        }
    }

    @Override
    public void stop() {
        running = false;
        stopTerm();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
