package io.weft.scheduler.agent;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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

    void schedule(long delayMs, Runnable task) {
        timer.schedule(task, delayMs, TimeUnit.MILLISECONDS);
    }
}
