package io.weft.southbound.gnmi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.plan.intent.IntentChanges;

/**
 * Keeps every switch that has a gNMI endpoint at the latest plan's device intent.
 *
 * <ul>
 *   <li>{@link #provision} hands over the whole picture (targets and intents of one plan); a switch
 *       whose intent did not change is not touched, a changed one is synced: only ops whose value
 *       differs from what the switch last confirmed by Get are sent.</li>
 *   <li>At most {@code maxInFlight} switches sync at once, each RPC under a deadline, so a slow or
 *       dead switch holds one worker for at most one deadline and nothing else waits for it.</li>
 *   <li>A transport failure makes the switch UNREACHABLE and retries with capped exponential backoff
 *       and jitter on a fresh channel, reading the switch back first; intents that arrive meanwhile
 *       replace each other (latest wins), so an outage costs one push when the switch is back.</li>
 *   <li>A refusal (missing model, rejected Set, bad credentials) makes it REJECTED with the
 *       switch's text; it is tried again on the next changed intent and at every resync.</li>
 *   <li>Every {@code resyncIntervalMs} each idle switch is read back and re-pushed where it drifted
 *       (e.g. restarted with an empty kernel): no manual step after an outage.</li>
 * </ul>
 *
 * <p>Log lines go to the given consumer (one line each, naming the switch and the path) so the
 * standalone controller and the ONOS app can route them to their own logs.
 */
public final class Provisioner implements AutoCloseable {
    private final ProvisionerConfig config;
    private final ChannelFactory channels;
    private final Consumer<String> log;
    private final ExecutorService workers;
    private final ScheduledExecutorService timer;
    private final ExecutorService readers; // helps provision() read intents, one thread per further core
    private final Object lock = new Object();
    private final Map<String, SwitchSync> devices = new TreeMap<>(); // guarded by lock
    private final AtomicInteger active = new AtomicInteger(); // queued + running syncs
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    // What the desired intents were last taken from (e.g. the plan), when the caller said: a later
    // provisionChanges(from = version, ...) can then apply route-level changes to them.
    private Object version; // guarded by lock

    public Provisioner(ProvisionerConfig config, ChannelFactory channels, Consumer<String> log) {
        this.config = config;
        this.channels = channels;
        this.log = log;
        AtomicInteger n = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(config.maxInFlight(), config.maxInFlight(), 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> daemon(r, "weft-gnmi-" + n.incrementAndGet()));
        ((ThreadPoolExecutor) workers).allowCoreThreadTimeOut(true);
        int cores = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
        AtomicInteger rn = new AtomicInteger();
        ThreadPoolExecutor readerPool = new ThreadPoolExecutor(cores, cores, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> daemon(r, "weft-gnmi-read-" + rn.incrementAndGet()));
        readerPool.allowCoreThreadTimeOut(true);
        this.readers = readerPool;
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> daemon(r, "weft-gnmi-timer"));
        t.setRemoveOnCancelPolicy(true);
        this.timer = t;
        timer.scheduleWithFixedDelay(this::resyncAll, config.resyncIntervalMs(), config.resyncIntervalMs(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * The switches to provision and their intents (as {@code DeviceIntent.render} produces them).
     * Switches not in {@code targets} are forgotten (their sessions closed, their config left alone);
     * a switch in {@code targets} without an intent keeps its previous one.
     *
     * @return problems with individual intents (a malformed intent is skipped, naming the field); empty if none
     */
    public List<String> provision(Map<String, GnmiTarget> targets, Map<String, ? extends JsonNode> intents) {
        return provision(targets, intents::get);
    }

    /**
     * As {@link #provision(Map, Map)}, rendering each switch's intent on demand: one switch at a time
     * per core (the calling thread and a helper per further core), each handed to the workers at once
     * (pushes start while later switches are still rendering), and only digests are kept once a switch
     * confirmed. {@code intentOf} is called from several threads at once (DeviceIntent.render over one
     * plan is safe so), and may be called again later, on a worker, to re-send ops a switch lost; it
     * must keep answering the same intent until the next {@code provision}.
     */
    public List<String> provision(Map<String, GnmiTarget> targets, Function<String, ? extends JsonNode> intentOf) {
        return provision(targets, null, intentOf);
    }

    /**
     * As {@link #provision(Map, Function)}, remembering that the intents are those of {@code version}
     * (e.g. the plan), so that the next {@link #provisionChanges} can build on them.
     */
    public List<String> provision(Map<String, GnmiTarget> targets, Object version,
                                  Function<String, ? extends JsonNode> intentOf) {
        List<String> problems = provisionAll(targets, intentOf);
        synchronized (lock) {
            this.version = problems.isEmpty() ? version : null; // a skipped intent breaks the lineage
        }
        return problems;
    }

    /**
     * A re-plan handed over as route-level changes ({@code IntentChanges.between(from, to)}): each
     * switch named in {@code changes} gets its intent with the change applied (and only what differs
     * from what it confirmed is sent: single routes); every other switch keeps its intent, now
     * rendered from {@code intentOf} if it is ever needed again. No switch is rendered whole. When the
     * provisioner's intents are not those of {@code from} (another version was provisioned in between,
     * an intent was skipped), the targets changed, or {@code changes} is null (a global change), this
     * is {@code provision(targets, to, intentOf)}. Not to be called concurrently with {@code provision}.
     *
     * @return problems with individual intents (that switch keeps its previous intent); empty if none
     */
    public List<String> provisionChanges(Map<String, GnmiTarget> targets, Object from, Object to,
                                         Map<String, IntentChanges.SwitchChange> changes,
                                         Function<String, ? extends JsonNode> intentOf) {
        List<SwitchSync> all;
        synchronized (lock) {
            if (changes == null || from == null || version != from || closed || !sameTargets(targets)) {
                all = null;
            } else {
                all = new ArrayList<>(devices.values());
                version = null; // until every change is taken
            }
        }
        if (all == null) {
            return provision(targets, to, intentOf);
        }
        List<String> problems = new ArrayList<>();
        boolean any = false;
        for (SwitchSync d : all) {
            IntentChanges.SwitchChange c = changes.get(d.id);
            if (c == null) {
                if (d.hasIntent()) {
                    d.desire(d.desired(), intentOf); // same ops, now rendered from the new version if needed again
                }
                continue;
            }
            Map<String, IntentOp> ops;
            try {
                ops = d.hasIntent() ? IntentOps.apply(d.id, d.desired(), c) : null;
                if (ops == null) {
                    JsonNode intent = intentOf.apply(d.id);
                    ops = intent == null ? null : IntentOps.read(d.id, intent);
                }
            } catch (IllegalArgumentException ex) {
                problems.add(ex.getMessage());
                log.accept("gnmi: " + ex.getMessage() + " (switch " + d.id + " keeps its previous intent)");
                continue;
            }
            if (ops == null) {
                continue;
            }
            synchronized (lock) {
                if (closed) {
                    break;
                }
                d.desire(ops, intentOf);
                d.markPending();
                schedule(d, true);
                any = true;
            }
        }
        synchronized (lock) {
            version = problems.isEmpty() ? to : null;
        }
        if (any) {
            fireChanged();
        }
        return problems;
    }

    /** Same switches with the same endpoints as now; guarded by lock. */
    private boolean sameTargets(Map<String, GnmiTarget> targets) {
        if (targets.size() != devices.size()) {
            return false;
        }
        for (SwitchSync d : devices.values()) {
            if (!d.target.equals(targets.get(d.id)) || d.removed) {
                return false;
            }
        }
        return true;
    }

    private List<String> provisionAll(Map<String, GnmiTarget> targets, Function<String, ? extends JsonNode> intentOf) {
        List<String> problems = new ArrayList<>();
        synchronized (lock) {
            for (SwitchSync d : new ArrayList<>(devices.values())) {
                if (!targets.containsKey(d.id)) {
                    devices.remove(d.id);
                    d.removed = true;
                    if (!d.running && !d.queued) {
                        d.dropSession();
                    }
                }
            }
        }
        List<Map.Entry<String, GnmiTarget>> todo = new ArrayList<>(targets.entrySet());
        String[] problemOf = new String[todo.size()];
        AtomicInteger next = new AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean any = new java.util.concurrent.atomic.AtomicBoolean();
        // Rendering and canonicalising an intent is CPU work (hundreds of KB per switch at k=16): one
        // thread per core takes the next switch, each switch handed to the workers as soon as it is read.
        Runnable reader = () -> {
            for (int i = next.getAndIncrement(); i < todo.size(); i = next.getAndIncrement()) {
                if (take(todo.get(i), intentOf, problemOf, i)) {
                    any.set(true);
                }
            }
        };
        int helpers = Math.min(todo.size(), Runtime.getRuntime().availableProcessors()) - 1;
        List<java.util.concurrent.Future<?>> running = new ArrayList<>();
        for (int h = 0; h < helpers; h++) {
            running.add(readers.submit(reader));
        }
        RuntimeException failure = null;
        try {
            reader.run();
        } catch (RuntimeException ex) {
            failure = ex;
        }
        for (java.util.concurrent.Future<?> f : running) {
            try {
                f.get();
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            } catch (java.util.concurrent.ExecutionException ex) {
                if (failure == null) {
                    failure = ex.getCause() instanceof RuntimeException ? (RuntimeException) ex.getCause()
                            : new IllegalStateException(ex.getCause());
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        for (String p : problemOf) {
            if (p != null) {
                problems.add(p);
            }
        }
        if (any.get()) {
            fireChanged();
        }
        return problems;
    }

    /** Reads one switch's intent and schedules its sync if anything changed; false when nothing did. */
    private boolean take(Map.Entry<String, GnmiTarget> e, Function<String, ? extends JsonNode> intentOf,
                         String[] problemOf, int index) {
        String id = e.getKey();
        Map<String, IntentOp> ops = null;
        try {
            JsonNode intent = intentOf.apply(id);
            ops = intent == null ? null : IntentOps.read(id, intent);
        } catch (IllegalArgumentException ex) {
            problemOf[index] = ex.getMessage();
            log.accept("gnmi: " + ex.getMessage() + " (switch " + id + " keeps its previous intent)");
        }
        synchronized (lock) {
            if (closed) {
                return false;
            }
            SwitchSync d = devices.get(id);
            boolean changed = false;
            if (d == null) {
                d = new SwitchSync(id, e.getValue(), channels, config.rpcTimeoutMs(), log);
                devices.put(id, d);
                changed = true;
            } else if (!d.target.equals(e.getValue())) {
                d.target = e.getValue();
                d.failures = 0;
                changed = true;
            }
            if (ops != null && !sameOps(ops, d.desired())) {
                d.desire(ops, intentOf);
                changed = true;
            } else if (ops != null) {
                d.desire(d.desired(), intentOf); // same ops: keep the stripped ones, let go of the old plan
            }
            if (changed) {
                d.markPending();
                schedule(d, true);
            }
            return changed;
        }
    }

    /** All switches, by id. */
    public List<DeviceStatus> devices() {
        List<DeviceStatus> out = new ArrayList<>();
        synchronized (lock) {
            for (SwitchSync d : devices.values()) {
                out.add(d.status());
            }
        }
        return out;
    }

    /** One switch, or null. */
    public DeviceStatus device(String id) {
        synchronized (lock) {
            SwitchSync d = devices.get(id);
            return d == null ? null : d.status();
        }
    }

    /** Called (on a provisioner thread) after any switch's state may have changed; must not block. */
    public void addListener(Runnable onChange) {
        listeners.add(onChange);
    }

    /**
     * Waits until no sync is queued or running (switches waiting out a backoff do not count).
     *
     * @return false on timeout
     */
    public boolean awaitIdle(long timeoutMs) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        synchronized (active) {
            while (active.get() > 0) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(active, left);
            }
        }
        return true;
    }

    /** Reads every idle switch back now, as the periodic resync does (e.g. after an operator repaired one). */
    public void resyncAll() {
        synchronized (lock) {
            for (SwitchSync d : devices.values()) {
                if (!d.running && !d.queued && !d.backoffPending) {
                    d.verifyDue = true;
                    schedule(d, true);
                }
            }
        }
    }

    /** With {@code now}, a switch waiting out a backoff stays waiting: its newest intent goes with the retry. */
    private void schedule(SwitchSync d, boolean now) {
        synchronized (lock) {
            if (closed || d.removed) {
                return;
            }
            if (d.running) {
                d.rerun = true;
                return;
            }
            if (d.queued || (now && d.backoffPending)) {
                return;
            }
            d.queued = true;
            active.incrementAndGet();
        }
        workers.execute(() -> run(d));
    }

    private void run(SwitchSync d) {
        synchronized (lock) {
            d.queued = false;
            d.running = true;
        }
        SwitchSync.Outcome outcome;
        try {
            outcome = d.sync();
        } catch (RuntimeException e) {
            // A bug must not kill the worker or leave the switch marked running forever.
            log.accept("gnmi: switch " + d.id + ": sync failed: " + e);
            outcome = SwitchSync.Outcome.RETRY;
        }
        boolean again = false;
        synchronized (lock) {
            d.running = false;
            if (d.removed || closed) {
                d.dropSession();
            } else if (outcome == SwitchSync.Outcome.RETRY) {
                d.failures++;
                d.rerun = false; // the retry takes the newest intent
                long delay = config.backoffMs(d.failures, ThreadLocalRandom.current().nextDouble());
                d.backoffPending = true;
                timer.schedule(() -> {
                    synchronized (lock) {
                        d.backoffPending = false;
                    }
                    schedule(d, false);
                }, delay, TimeUnit.MILLISECONDS);
            } else {
                d.failures = 0;
                again = d.rerun;
                d.rerun = false;
            }
        }
        if (again) {
            schedule(d, true);
        }
        fireChanged();
        synchronized (active) {
            if (active.decrementAndGet() == 0) {
                active.notifyAll();
            }
        }
    }

    private void fireChanged() {
        for (Runnable l : listeners) {
            try {
                l.run();
            } catch (RuntimeException e) {
                log.accept("gnmi: device-state listener failed: " + e);
            }
        }
    }

    private static boolean sameOps(Map<String, IntentOp> a, Map<String, IntentOp> b) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (IntentOp op : a.values()) {
            if (!op.sameValue(b.get(op.key()))) {
                return false;
            }
        }
        return true;
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** Stops syncing: running RPCs are cancelled with their channels; switches keep what they have. */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
        }
        timer.shutdownNow();
        readers.shutdownNow();
        workers.shutdownNow();
        try {
            workers.awaitTermination(config.rpcTimeoutMs() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (lock) {
            for (SwitchSync d : devices.values()) {
                d.dropSession();
            }
            devices.clear();
        }
    }
}
