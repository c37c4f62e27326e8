package io.weft.scheduler.reroute;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.weft.contracts.DirectionKey;
import io.weft.contracts.HotspotEvent;
import io.weft.scheduler.config.KafkaProperties;
import io.weft.scheduler.events.EventLog;
import io.weft.scheduler.fabric.Placement;
import io.weft.scheduler.job.Changes;
import io.weft.scheduler.job.PathLedger;
import io.weft.scheduler.job.PathLedger.PathChange;
import io.weft.scheduler.placement.Candidates;
import io.weft.scheduler.placement.FabricIndex;
import io.weft.scheduler.placement.PlacedFlow;
import io.weft.scheduler.placement.PlacementEngine;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Closes the loop: follows {@code weft.hotspots} in its own consumer group, keeps the set of hot
 * link directions, and runs {@link ReunionPolicy} once per statistics interval and at once when a
 * hotspot starts or a link goes down (so the first move does not wait for the next tick; the k
 * budget still counts per interval). Moves are committed like every other path change: the engine
 * first, then path assignments, history (reason = cause and timings), per-NIC versions and a
 * "flows-replaced" event in one transaction; agents are woken after the commit.
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

    /** An active hotspot: the start event and when this service received it. */
    private record Active(HotspotEvent start, Instant received) {
    }

    private final Placement placement;
    private final PathLedger ledger;
    private final EventLog events;
    private final TransactionTemplate tx;
    private final KafkaProperties kafka;
    private final RerouteProperties props;
    private final ReunionPolicy policy;
    private final LoopTimings timings;
    private final CountDownLatch assigned = new CountDownLatch(1);

    private final Map<DirectionKey, Active> active = new LinkedHashMap<>();
    private final Map<String, Boolean> seen = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > SEEN_IDS;
        }
    };
    private long interval = -1;
    private final Set<String> movedThisInterval = new HashSet<>();
    private final Map<DirectionKey, Integer> usedThisInterval = new HashMap<>();
    private final Set<String> unknownLinks = new HashSet<>();
    /** Links down by event whose down state the engine's index (the last snapshot) does not have yet. */
    private final DownLinks downLinks = new DownLinks();
    /** When the running pass started on the loop thread and when it got the placement lock. */
    private Instant passStarted;
    private Instant locked;
    /** Candidate paths of the engine's current index; a new index (snapshot, link states) gets new ones. */
    private Candidates candidates;

    private volatile KafkaConsumer<String, String> consumer;
    private volatile Thread feed;
    private volatile ScheduledExecutorService loop;

    HotspotListener(Placement placement, PathLedger ledger, EventLog events, TransactionTemplate tx,
                    KafkaProperties kafka, RerouteProperties props, MeterRegistry meters) {
        this.placement = placement;
        this.ledger = ledger;
        this.events = events;
        this.tx = tx;
        this.kafka = kafka;
        this.props = props;
        this.policy = new ReunionPolicy(props.k(), props.t());
        this.timings = new LoopTimings(meters);
    }

    @Override
    public void start() {
        if (!props.enabled() || !kafka.enabled()) {
            LOG.info("re-placement on hotspots off (weft.reroute.enabled={}, Kafka {})", props.enabled(),
                    kafka.enabled() ? "on" : "off");
            return;
        }
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "weft-reroute");
            t.setDaemon(true);
            return t;
        });
        loop.scheduleAtFixedRate(() -> safely("interval pass", () -> hotspotPass(null)), props.intervalMs(),
                props.intervalMs(), TimeUnit.MILLISECONDS);
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, kafka.clientId() + "-reroute");
        p.put(ConsumerConfig.GROUP_ID_CONFIG, props.groupId());
        // A hotspot older than this process is stale: its flows were placed again at start-up.
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "10");
        consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
        feed = new Thread(this::consume, "weft-reroute-feed");
        feed.setDaemon(true);
        feed.start();
        LOG.info("re-placing on {} (k={}, t={}, interval {} ms)", props.hotspotsTopic(), props.k(), props.t(),
                props.intervalMs());
    }

    /** True once the consumer has its partitions (events published from now on are seen). */
    public boolean awaitAssigned(Duration timeout) throws InterruptedException {
        return assigned.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void consume() {
        try {
            consumer.subscribe(List.of(props.hotspotsTopic()), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    // Position now, so that "latest" is resolved before anyone is told we listen.
                    partitions.forEach(consumer::position);
                    assigned.countDown();
                }
            });
            while (!Thread.currentThread().isInterrupted()) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    handOver(r);
                }
            }
        } catch (WakeupException e) {
            // stop() asked us to leave.
        } catch (RuntimeException e) {
            LOG.error("hotspot feed stopped: {}", e.toString());
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    private void handOver(ConsumerRecord<String, String> r) {
        if (r.value() == null) {
            return;
        }
        Instant received = Instant.now();
        HotspotEvent ev;
        try {
            ev = HotspotEvent.fromJson(r.value());
        } catch (IllegalArgumentException e) {
            LOG.warn("skipping {} record at offset {}: {}", props.hotspotsTopic(), r.offset(), e.getMessage());
            return;
        }
        loop.execute(() -> safely("event " + ev.eventId(), () -> onEvent(ev, received)));
    }

    private void onEvent(HotspotEvent ev, Instant received) {
        if (seen.put(ev.eventId(), Boolean.TRUE) != null) {
            return;
        }
        switch (ev.kind()) {
            case HOTSPOT_START -> {
                active.putIfAbsent(ev.directionKey(), new Active(ev, received));
                hotspotPass(ev);
            }
            case HOTSPOT_END -> active.remove(ev.directionKey());
            case LINK_DOWN -> {
                active.keySet().removeIf(k -> k.linkId().equals(ev.linkId()));
                // Before any pass: from now on no pass may choose the link, whatever the index says.
                downLinks.reported(ev.linkId());
                linkDownPass(ev, received);
            }
            case LINK_UP ->
                // Passes may use the link again once the index does: the controller's next fabric
                // snapshot brings it back into placement if the last one had it down.
                downLinks.restored(ev.linkId());
            default -> {
            }
        }
    }

    /** Moves up to k flows off every hot direction (this interval's budget permitting). */
    private void hotspotPass(HotspotEvent trigger) {
        if (active.isEmpty()) {
            return;
        }
        rollInterval();
        passStarted = Instant.now();
        synchronized (placement) {
            locked = Instant.now();
            if (!placement.ready()) {
                return;
            }
            PlacementEngine engine = placement.engine();
            FabricIndex ix = engine.index();
            Set<Integer> downArcs = downLinks.arcs(ix);
            List<HotArc> hot = new ArrayList<>();
            Map<Integer, Integer> used = new HashMap<>();
            Map<String, Active> byId = new HashMap<>();
            for (var e : active.entrySet()) {
                int arc = arcOf(ix, e.getValue().start());
                if (arc < 0) {
                    continue;
                }
                HotspotEvent s = e.getValue().start();
                hot.add(new HotArc(arc, s.linkId(), s.eventId(), s.detectedAt().toEpochMilli(), s.sampleTimestampNs()));
                used.put(arc, usedThisInterval.getOrDefault(e.getKey(), 0));
                byId.put(s.eventId(), e.getValue());
            }
            if (hot.isEmpty()) {
                return;
            }
            List<Move> moves = policy.onHotspots(view(engine, downArcs), hot, used, movedThisInterval);
            if (moves.isEmpty()) {
                return;
            }
            Map<Move, Active> origin = new LinkedHashMap<>();
            for (Move m : moves) {
                Active a = byId.get(m.cause().substring(Move.HOTSPOT.length()));
                origin.put(m, a);
                usedThisInterval.merge(a.start().directionKey(), 1, Integer::sum);
                movedThisInterval.add(m.flowId());
            }
            commit(engine, origin, trigger == null ? "interval" : "hotspot-start", downArcs);
        }
    }

    private void linkDownPass(HotspotEvent ev, Instant received) {
        rollInterval();
        passStarted = Instant.now();
        synchronized (placement) {
            locked = Instant.now();
            if (!placement.ready()) {
                return;
            }
            PlacementEngine engine = placement.engine();
            int[] arcs = engine.index().arcsOfLink(ev.linkId());
            if (arcs == null) {
                warnUnknown(ev.linkId());
                return;
            }
            List<HotArc> hot = new ArrayList<>();
            for (Active a : active.values()) {
                int arc = arcOf(engine.index(), a.start());
                if (arc >= 0) {
                    hot.add(new HotArc(arc, a.start().linkId(), a.start().eventId(), 0, 0));
                }
            }
            Set<Integer> downArcs = downLinks.arcs(engine.index());
            PlacementView view = view(engine, downArcs);
            List<Move> moves = policy.onLinkDown(view, ev.linkId(), arcs, hot);
            Set<String> onLink = new HashSet<>(view.flowsOn(arcs[0]));
            onLink.addAll(view.flowsOn(arcs[1]));
            if (moves.size() < onLink.size()) {
                LOG.warn("link {} down: {} of its {} flow slices have no surviving path; they stay until the "
                        + "controller's snapshot", ev.linkId(), onLink.size() - moves.size(), onLink.size());
            }
            Map<Move, Active> origin = new LinkedHashMap<>();
            Active a = new Active(ev, received);
            for (Move m : moves) {
                origin.put(m, a);
                movedThisInterval.add(m.flowId());
            }
            commit(engine, origin, "link-down", downArcs);
        }
    }

    /** Pins the moves in the engine and records them; undoes the pins if the transaction fails. */
    private void commit(PlacementEngine engine, Map<Move, Active> moves, String trigger, Set<Integer> downArcs) {
        List<PathChange> changes = new ArrayList<>();
        List<Move> pinned = new ArrayList<>();
        List<Map<String, Object>> described = new ArrayList<>();
        Instant decided = Instant.now();
        for (var e : moves.entrySet()) {
            Move m = e.getKey();
            HotspotEvent cause = e.getValue().start();
            PlacedFlow was = engine.placed(m.flowId());
            PlacedFlow p;
            try {
                p = EnginePin.pin(engine, m.flowId(), m.fromArcs(), m.toArcs(), downArcs);
                if (was != null && was.encoding().ev() != null && p.encoding().ev() == null) {
                    // An EV-steered NIC would lose its only way onto the new path: keep the old one.
                    EnginePin.pin(engine, m.flowId(), m.toArcs(), m.fromArcs());
                    LOG.info("not moving {}: its new path has no entropy value", m.flowId());
                    continue;
                }
            } catch (EnginePin.PinFailure f) {
                LOG.warn("not moving {}: {}", m.flowId(), f.getMessage());
                continue;
            }
            pinned.add(m);
            long sampleToEventMs = LoopTimings.millis(cause.sampledAt(), cause.detectedAt());
            long eventToDecisionMs = LoopTimings.millis(cause.detectedAt(), decided);
            String reason = m.cause() + " sample-to-event-ms=" + sampleToEventMs + " event-to-decision-ms="
                    + eventToDecisionMs;
            changes.add(Changes.placed(p, reason));
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("flowId", m.flowId());
            d.put("jobId", p.flow().job());
            d.put("cause", m.cause());
            d.put("maxUtilAfter", m.maxUtilAfter());
            d.put("sampleToEventMs", sampleToEventMs);
            d.put("eventToDecisionMs", eventToDecisionMs);
            described.add(d);
        }
        if (changes.isEmpty()) {
            return;
        }
        Instant pinnedAt = Instant.now();
        Instant[] stamps = new Instant[2];
        try {
            tx.executeWithoutResult(s -> {
                ledger.record(changes);
                Map<String, Object> payload = new LinkedHashMap<>();
                payload.put("reason", pinned.get(0).cause());
                payload.put("trigger", trigger);
                payload.put("flows", changes.size());
                payload.put("moves", described);
                events.append("flows-replaced", pinned.get(0).cause(), payload);
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
            });
        } catch (RuntimeException e) {
            LOG.error("recording {} moves failed, undoing them: {}", pinned.size(), e.toString());
            for (Move m : pinned) {
                try {
                    EnginePin.pin(engine, m.flowId(), m.toArcs(), m.fromArcs());
                } catch (EnginePin.PinFailure f) {
                    LOG.error("could not undo the move of {}: {}", m.flowId(), f.getMessage());
                }
            }
            return;
        }
        Instant committed = stamps[0] == null ? decided : stamps[0];
        Instant woken = stamps[1] == null ? Instant.now() : stamps[1];
        Set<Active> causes = new HashSet<>(moves.values());
        List<Map<String, Object>> chains = new ArrayList<>();
        for (Active a : causes) {
            HotspotEvent s = a.start();
            timings.record(s.sampledAt(), s.detectedAt(), committed, woken);
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("eventId", s.eventId());
            c.put("linkId", s.linkId());
            c.put("sampleToEventMs", LoopTimings.millis(s.sampledAt(), s.detectedAt()));
            c.put("eventToReceivedMs", LoopTimings.millis(s.detectedAt(), a.received()));
            c.put("eventToCommitMs", LoopTimings.millis(s.detectedAt(), committed));
            c.put("commitToWakeMs", LoopTimings.millis(committed, woken));
            // Where the service's share went, in µs: waiting for the loop thread, for the placement
            // lock (a snapshot or job being applied), deciding, pinning (encoding), recording.
            if (!trigger.equals("interval")) {
                // An interval pass serves hotspots received in earlier intervals: no queue to measure.
                c.put("receivedToPassUs", LoopTimings.micros(a.received(), passStarted));
            }
            c.put("lockWaitUs", LoopTimings.micros(passStarted, locked));
            c.put("decideUs", LoopTimings.micros(locked, decided));
            c.put("pinUs", LoopTimings.micros(decided, pinnedAt));
            c.put("recordUs", LoopTimings.micros(pinnedAt, committed));
            c.put("eventToWakeMs", LoopTimings.millis(s.detectedAt(), woken));
            chains.add(c);
        }
        try {
            // After the agents were woken, so it costs the loop nothing: the whole chain, kept with the events.
            tx.executeWithoutResult(s -> events.append("loop-timings", pinned.get(0).cause(),
                    Map.of("trigger", trigger, "flows", changes.size(), "chains", chains)));
        } catch (RuntimeException e) {
            LOG.warn("loop timings not recorded: {}", e.toString());
        }
        LOG.info("moved {} flow slices ({}; {}): event to agents woken {} ms; {}", changes.size(), trigger,
                pinned.get(0).cause(), LoopTimings.millis(moves.values().iterator().next().start().detectedAt(), woken),
                chains.get(0));
    }

    private PlacementView view(PlacementEngine engine, Set<Integer> downArcs) {
        if (candidates == null || candidates.index() != engine.index()) {
            candidates = new Candidates(engine.index());
        }
        return PlacementView.of(engine, candidates, downArcs);
    }

    /** The arc of the event's hot direction in the current engine, or -1 (unknown link, logged once). */
    private int arcOf(FabricIndex ix, HotspotEvent ev) {
        int[] arcs = ix.arcsOfLink(ev.linkId());
        if (arcs != null) {
            for (int a : arcs) {
                if (ix.nodeId(ix.to(a)).equals(ev.direction())) {
                    return a;
                }
            }
        }
        warnUnknown(ev.directionKey().toString());
        return -1;
    }

    private void warnUnknown(String what) {
        if (unknownLinks.add(what)) {
            LOG.warn("hotspot on {} which the current fabric does not have: ignored", what);
        }
    }

    private void rollInterval() {
        long now = System.currentTimeMillis() / props.intervalMs();
        if (now != interval) {
            interval = now;
            movedThisInterval.clear();
            usedThisInterval.clear();
        }
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
        KafkaConsumer<String, String> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        Thread t = feed;
        if (t != null) {
            try {
                t.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        ScheduledExecutorService l = loop;
        if (l != null) {
            l.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return feed != null && feed.isAlive();
    }
}
