package io.weft.scheduler.agent;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One timer thread for every long-poll deadline: 10,000 waiting agents are 10,000 small entries
 * in a heap, not 10,000 threads. Cancelled work is removed at once so the heap holds only live
 * deadlines.
 */
final class TimeoutWheel {
    static final TimeoutWheel INSTANCE = new TimeoutWheel();

    private final ScheduledExecutorService timer;

    private TimeoutWheel() {
        ScheduledThreadPoolExecutor t = (ScheduledThreadPoolExecutor) Executors.newScheduledThreadPool(1, r -> {
            Thread th = new Thread(r, "weft-longpoll-timeout");
            th.setDaemon(true);
            return th;
        });
        t.setRemoveOnCancelPolicy(true);
        this.timer = t;
    }

    /** Runs {@code task} after the delay unless {@code deadline} is (or was already) cancelled. */
    void schedule(Deadline deadline, long delayMs, Runnable task) {
        if (deadline.isCancelled()) {
            return;
        }
        // Checked again when due: a short delay can fire before set() has seen a cancel that came
        // in between (seen on a loaded machine with a 1 ms delay).
        deadline.set(timer.schedule(() -> {
            if (!deadline.isCancelled()) {
                task.run();
            }
        }, delayMs, TimeUnit.MILLISECONDS));
    }

    /** Runs {@code task} every {@code periodMs} on the timer thread (which it must not hold up). */
    ScheduledFuture<?> repeat(Runnable task, long periodMs) {
        return timer.scheduleWithFixedDelay(task, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    /**
     * A scheduled timeout that a woken poll cancels: a woken poll's timeout would otherwise keep its
     * request and response reachable for the rest of the wait, and agents re-poll at once, so
     * after one job change 10,000 dead polls would sit in memory beside 10,000 live ones.
     * Cancelling may happen before the schedule call has returned (a wake can beat it).
     */
    static final class Deadline {
        private ScheduledFuture<?> future;
        private boolean cancelled;

        synchronized void cancel() {
            cancelled = true;
            if (future != null) {
                future.cancel(false);
                future = null;
            }
        }

        synchronized boolean isCancelled() {
            return cancelled;
        }

        synchronized void set(ScheduledFuture<?> f) {
            if (cancelled) {
                f.cancel(false);
            } else {
                future = f;
            }
        }
    }
}
