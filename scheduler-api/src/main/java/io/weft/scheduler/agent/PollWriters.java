package io.weft.scheduler.agent;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import org.springframework.stereotype.Component;

/**
 * The threads that fan a published version out to agents (long-poll answers and stream events),
 * shared by the fast paths and the controller's: the work is kept off the thread that committed
 * the change, and waking 10,000 agents is CPU-bound (a write per agent), so one thread per core,
 * at least two. They are named {@code weft-fanout-N} so that their CPU time can be told apart
 * (the api bench reads it per thread from /proc).
 */
@Component
class PollWriters implements Executor {
    private static final int THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

    private final AtomicInteger named = new AtomicInteger();
    private final ExecutorService pool = Executors.newFixedThreadPool(THREADS, r -> {
        Thread t = new Thread(r, "weft-fanout-" + named.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    @Override
    public void execute(Runnable answer) {
        pool.execute(answer);
    }

    int threads() {
        return THREADS;
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
    }
}
