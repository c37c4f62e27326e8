package io.weft.scheduler.agent;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import jakarta.annotation.PreDestroy;
import org.springframework.stereotype.Component;

/**
 * The threads that answer woken long-polls, shared by the fast path ({@link LongPolls}) and the
 * controller's: answering is kept off the thread that committed the change, and waking 10,000
 * agents is CPU-bound (a write, and Jetty re-arming the connection, per agent), so one thread per
 * core, at least two.
 */
@Component
class PollWriters {
    private static final int THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

    private final ExecutorService pool = Executors.newFixedThreadPool(THREADS, r -> {
        Thread t = new Thread(r, "weft-longpoll-write");
        t.setDaemon(true);
        return t;
    });

    void execute(Runnable answer) {
        pool.execute(answer);
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
    }
}
