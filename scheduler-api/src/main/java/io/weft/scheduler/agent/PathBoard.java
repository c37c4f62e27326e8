package io.weft.scheduler.agent;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The latest path version of every NIC and the agents long-polling for a newer one. Versions come
 * from the {@code nic_versions} table (loaded at start-up, so they stay monotonic across restarts)
 * and are published here only after the transaction that issued them committed.
 *
 * <p>Waiting costs no thread: a waiter is a callback. A publish of many NICs is fanned out in
 * chunks of {@link #WAKE_CHUNK} NICs, each split into one task per writer thread; a task wakes the
 * waiters and runs the {@link #onPublish} listener (the profile streams) of its NICs. Waking 10,000
 * agents is then a few dozen executor tasks, not one per agent. Before a chunk is woken the
 * profiles the {@code ProfileCache} does not have (on a standby, or after the writer's restart: on
 * the writer its own commits keep it current) are preloaded ({@link #beforeWake}) in reads that
 * double in size: the first chunk's
 * alone, so that the writers start early, then 256, 512, ... NICs (up to {@link #READ_BATCH}), each
 * read while the writers work through the one before. Reading chunk by chunk made the reads cost
 * sixteen statements and wait for the cores busy writing; reading everything after the first chunk
 * left the writers idle until that read was done (both measured with the api bench).
 */
@Component
public class PathBoard {
    private static final Logger LOG = LoggerFactory.getLogger(PathBoard.class);
    /** NICs woken together (one task per writer thread), and the first read of a publish. */
    static final int WAKE_CHUNK = 128;
    /** Most NICs whose profiles are read in one go (reads double from one chunk up to this). */
    static final int READ_BATCH = 4096;
    private static final Waiter[] NO_WAITERS = new Waiter[0];

    private final Map<String, Long> versions = new ConcurrentHashMap<>();
    /** When the NIC's latest version was published (epoch µs), for agents and the bench to time the fan-out. */
    private final Map<String, Published> published = new ConcurrentHashMap<>();
    private final Map<String, List<Waiter>> waiters = new ConcurrentHashMap<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private final Executor writers;
    private final int writerThreads;
    private volatile Consumer<Collection<String>> beforeWake = nics -> { };
    private volatile Listener onPublish = new Listener() {
        @Override
        public boolean interested(String nic) {
            return false;
        }

        @Override
        public void published(String nic, long version) {
        }
    };

    /** Told, on a writer thread, that a NIC has a newer committed version (after its waiters were woken). */
    interface Listener {
        /** True when the NIC has agents to tell (only those NICs' profiles are read and fanned out). */
        boolean interested(String nic);

        void published(String nic, long version);
    }

    private record Published(long version, long atUs) {
    }

    /**
     * A parked long-poll: {@code wake} gets the NIC's new version; {@code release} answers it with
     * "nothing newer" when the service stops.
     */
    public static final class Waiter {
        private final long since;
        private final LongConsumer wake;
        private final Runnable release;
        /** Counted in the waiters gauge: long-polls are, profile streams (which re-park) are not. */
        private final boolean counted;

        Waiter(long since, LongConsumer wake, Runnable release, boolean counted) {
            this.since = since;
            this.wake = wake;
            this.release = release;
            this.counted = counted;
        }
    }

    @Autowired
    PathBoard(JdbcClient jdbc, MeterRegistry meters, PollWriters writers) {
        this(loadVersions(jdbc), meters, writers, writers.threads());
    }

    PathBoard(Map<String, Long> initial, MeterRegistry meters, Executor writers, int writerThreads) {
        versions.putAll(initial);
        this.writers = writers;
        this.writerThreads = Math.max(1, writerThreads);
        Gauge.builder("weft.longpoll.waiters", waiting, AtomicInteger::get)
                .description("agent long-polls currently waiting for a newer path version").register(meters);
    }

    private static Map<String, Long> loadVersions(JdbcClient jdbc) {
        Map<String, Long> out = new HashMap<>();
        jdbc.sql("select nic, version from nic_versions").query((rs, n) -> out.put(rs.getString(1), rs.getLong(2)))
                .list();
        return out;
    }

    /** The NIC's latest committed version; 0 when it never had a path. */
    public long version(String nic) {
        return versions.getOrDefault(nic, 0L);
    }

    /**
     * When {@code version} of the NIC was published to agents, in microseconds since the epoch; 0
     * when unknown (another version is the latest, or it was committed before this process started).
     */
    long publishedUs(String nic, long version) {
        Published p = published.get(nic);
        return p != null && p.version() == version ? p.atUs() : 0;
    }

    /**
     * Parks a waiter unless a version newer than {@code since} already exists (then returns null
     * and the caller answers at once). The re-check after parking closes the race with a publish
     * that landed in between.
     */
    public Waiter park(String nic, long since, LongConsumer wake, Runnable release) {
        return park(nic, since, wake, release, true);
    }

    /** {@link #park}, for a profile stream when {@code counted} is false (not a waiting long-poll). */
    Waiter park(String nic, long since, LongConsumer wake, Runnable release, boolean counted) {
        if (version(nic) > since) {
            return null;
        }
        Waiter w = new Waiter(since, wake, release, counted);
        waiters.computeIfAbsent(nic, k -> new CopyOnWriteArrayList<>()).add(w);
        if (counted) {
            waiting.incrementAndGet();
        }
        long now = version(nic);
        if (now > since && unpark(nic, w)) {
            wake.accept(now);
        }
        return w;
    }

    /** Removes a waiter (timeout, client gone); false when a publish already took it. */
    public boolean unpark(String nic, Waiter w) {
        List<Waiter> list = waiters.get(nic);
        if (list != null && list.remove(w)) {
            if (w.counted) {
                waiting.decrementAndGet();
            }
            return true;
        }
        return false;
    }

    /** Runs before waiters are woken, with the NICs whose version changed (e.g. to preload their profiles). */
    public void beforeWake(Consumer<Collection<String>> hook) {
        this.beforeWake = hook;
    }

    /** Runs on a writer thread for every NIC published, after its waiters (the profile streams' fan-out). */
    void onPublish(Listener listener) {
        this.onPublish = listener;
    }

    /**
     * Records committed versions of many NICs (one transaction) and wakes their older waiters, in
     * chunks: the agents of one read are answered while the next read's profiles are being read
     * (the database works in its own process, so reading and waking overlap on two cores).
     */
    public void publishAll(Map<String, Long> committed) {
        long atUs = epochMicros();
        for (var e : committed.entrySet()) {
            record(e.getKey(), e.getValue(), atUs);
        }
        List<String> nics = new ArrayList<>();
        Listener listener = onPublish;
        for (String nic : committed.keySet()) {
            List<Waiter> list = waiters.get(nic);
            if ((list != null && !list.isEmpty()) || listener.interested(nic)) {
                nics.add(nic);
            }
        }
        Trace trace = LOG.isDebugEnabled() && !nics.isEmpty() ? new Trace(nics.size()) : null;
        for (int from = 0, size = WAKE_CHUNK; from < nics.size(); size = Math.min(READ_BATCH, 2 * size)) {
            int to = Math.min(nics.size(), from + size);
            List<String> read = nics.subList(from, to);
            long readFrom = System.nanoTime();
            try {
                beforeWake.accept(read);
            } catch (RuntimeException ex) {
                // Waking must not depend on the preload: woken agents then read their own profile.
                LOG.warn("preloading {} profiles failed: {}", read.size(), ex.toString());
            }
            if (trace != null) {
                trace.readNs += System.nanoTime() - readFrom;
            }
            for (int chunk = from; chunk < to; chunk += WAKE_CHUNK) {
                fanOut(nics.subList(chunk, Math.min(to, chunk + WAKE_CHUNK)), committed, trace);
            }
            from = to;
        }
        if (trace != null) {
            trace.readDoneNs = System.nanoTime();
            trace.taskDone();
        }
    }

    /**
     * With debug logging on, one publish's fan-out timed (the api bench reads it to tell the
     * service's part of the fan-out latency from its client's): how long the profile reads took on
     * the publishing thread, and when the last writer task had woken its agents (every write handed
     * to the kernel, or to Jetty when a socket was full).
     */
    private static final class Trace {
        private final long startNs = System.nanoTime();
        private final int nics;
        /** Writer tasks still running, plus one held by the publishing thread until every chunk is queued. */
        private final AtomicInteger running = new AtomicInteger(1);
        private long readNs;
        private volatile long readDoneNs;

        Trace(int nics) {
            this.nics = nics;
        }

        void taskDone() {
            if (running.decrementAndGet() == 0) {
                long now = System.nanoTime();
                LOG.debug("fan-out of {} NICs: profiles read in {} ms (last chunk read {} ms after the publish), "
                        + "last agent woken {} ms after the publish", nics, ms(readNs), ms(readDoneNs - startNs),
                        ms(now - startNs));
            }
        }

        private static String ms(long ns) {
            return String.format(java.util.Locale.ROOT, "%.1f", ns / 1e6);
        }
    }

    /**
     * {@link #publishAll} of only the NICs whose version is newer than the board's: for versions that
     * another replica (or this one, through the change feed) may already have published here.
     */
    public void publishNewer(Map<String, Long> committed) {
        Map<String, Long> newer = new HashMap<>();
        for (var e : committed.entrySet()) {
            boolean[] advanced = new boolean[1];
            versions.compute(e.getKey(), (nic, old) -> {
                if (old == null || e.getValue() > old) {
                    advanced[0] = true;
                    return e.getValue();
                }
                return old;
            });
            if (advanced[0]) {
                newer.put(e.getKey(), e.getValue());
            }
        }
        if (!newer.isEmpty()) {
            publishAll(newer);
        }
    }

    /** Records a committed version and wakes the NIC's older waiters. Versions never go back. */
    public void publish(String nic, long version) {
        publishAll(Map.of(nic, version));
    }

    private void record(String nic, long version, long atUs) {
        if (versions.merge(nic, version, Math::max) == version) {
            published.merge(nic, new Published(version, atUs),
                    (old, now) -> old.version() >= now.version() ? old : now);
        }
    }

    /** Splits the chunk over the writer threads; each wakes its NICs' waiters and streams. */
    private void fanOut(List<String> chunk, Map<String, Long> committed, Trace trace) {
        int slices = Math.min(writerThreads, chunk.size());
        for (int s = 0; s < slices; s++) {
            int from = chunk.size() * s / slices;
            int to = chunk.size() * (s + 1) / slices;
            String[] nics = chunk.subList(from, to).toArray(new String[0]);
            long[] vs = new long[nics.length];
            for (int i = 0; i < nics.length; i++) {
                vs[i] = committed.get(nics[i]);
            }
            if (trace != null) {
                trace.running.incrementAndGet();
            }
            writers.execute(() -> {
                for (int i = 0; i < nics.length; i++) {
                    wake(nics[i], vs[i]);
                }
                if (trace != null) {
                    trace.taskDone();
                }
            });
        }
    }

    /** Wakes the NIC's waiters older than {@code version}, then its listener; one failure stops neither. */
    private void wake(String nic, long version) {
        List<Waiter> list = waiters.get(nic);
        Waiter[] ws = list == null ? NO_WAITERS : list.toArray(NO_WAITERS);
        for (Waiter w : ws) {
            if (w.since < version && list.remove(w)) {
                if (w.counted) {
                    waiting.decrementAndGet();
                }
                try {
                    w.wake.accept(version);
                } catch (RuntimeException ex) {
                    LOG.warn("waking an agent of {} failed: {}", nic, ex.toString());
                }
            }
        }
        try {
            onPublish.published(nic, version);
        } catch (RuntimeException ex) {
            LOG.warn("streaming version {} of {} failed: {}", version, nic, ex.toString());
        }
    }

    /**
     * Answers every parked poll with "nothing newer" (service stopping): agents poll again at once,
     * elsewhere or after the restart, instead of holding the shutdown for their whole wait.
     */
    public int releaseAll() {
        int n = 0;
        for (var e : waiters.entrySet()) {
            for (Waiter w : e.getValue()) {
                if (unpark(e.getKey(), w)) {
                    n++;
                    try {
                        w.release.run();
                    } catch (RuntimeException ex) {
                        LOG.debug("releasing a long-poll of {} failed: {}", e.getKey(), ex.toString());
                    }
                }
            }
        }
        return n;
    }

    public int waiting() {
        return waiting.get();
    }

    /** Microseconds since the epoch (the clock agents and the bench compare against). */
    static long epochMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
