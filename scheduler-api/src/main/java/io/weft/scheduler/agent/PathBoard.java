package io.weft.scheduler.agent;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The latest path version of every NIC and the agents long-polling for a newer one. Versions come
 * from the {@code nic_versions} table (loaded at start-up, so they stay monotonic across restarts)
 * and are published here only after the transaction that issued them committed.
 *
 * <p>Waiting costs no thread: a waiter is a callback; {@link #publish} runs the callbacks of the
 * NIC's waiters whose version is older.
 */
@Component
public class PathBoard {
    private static final Logger LOG = LoggerFactory.getLogger(PathBoard.class);
    /** NICs whose profiles are read in one go before their agents are woken. */
    static final int WAKE_CHUNK = 128;
    private final Map<String, Long> versions = new ConcurrentHashMap<>();
    private final Map<String, List<Waiter>> waiters = new ConcurrentHashMap<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile Consumer<Collection<String>> beforeWake = nics -> { };

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

    PathBoard(JdbcClient jdbc, MeterRegistry meters) {
        jdbc.sql("select nic, version from nic_versions").query((rs, n) -> versions.put(rs.getString(1), rs.getLong(2)))
                .list();
        Gauge.builder("weft.longpoll.waiters", waiting, AtomicInteger::get)
                .description("agent long-polls currently waiting for a newer path version").register(meters);
    }

    /** The NIC's latest committed version; 0 when it never had a path. */
    public long version(String nic) {
        return versions.getOrDefault(nic, 0L);
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

    /**
     * Records committed versions of many NICs (one transaction) and wakes their older waiters, in
     * chunks: the first agents are answered while the profiles of the next chunk are being read
     * (the database works in its own process, so reading and waking overlap on two cores).
     */
    public void publishAll(Map<String, Long> committed) {
        List<String> withWaiters = new ArrayList<>();
        for (var e : committed.entrySet()) {
            versions.merge(e.getKey(), e.getValue(), Math::max);
            List<Waiter> list = waiters.get(e.getKey());
            if (list != null && !list.isEmpty()) {
                withWaiters.add(e.getKey());
            }
        }
        for (int from = 0; from < withWaiters.size(); from += WAKE_CHUNK) {
            List<String> chunk = withWaiters.subList(from, Math.min(withWaiters.size(), from + WAKE_CHUNK));
            try {
                beforeWake.accept(chunk);
            } catch (RuntimeException ex) {
                // Waking must not depend on the preload: woken agents then read their own profile.
                LOG.warn("preloading {} profiles failed: {}", chunk.size(), ex.toString());
            }
            for (String nic : chunk) {
                publish(nic, committed.get(nic));
            }
        }
    }

    /** Records a committed version and wakes the NIC's older waiters. Versions never go back. */
    public void publish(String nic, long version) {
        versions.merge(nic, version, Math::max);
        List<Waiter> list = waiters.get(nic);
        if (list == null) {
            return;
        }
        for (Waiter w : list) {
            if (w.since < version && list.remove(w)) {
                if (w.counted) {
                    waiting.decrementAndGet();
                }
                w.wake.accept(version);
            }
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
}
