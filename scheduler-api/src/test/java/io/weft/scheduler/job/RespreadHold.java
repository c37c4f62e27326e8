package io.weft.scheduler.job;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.context.ApplicationContext;

/**
 * Holds the service's first re-spread plan between planning and applying (outside the writer), so
 * a test can change the placement meanwhile; counts the plans made. Closing releases it.
 */
public final class RespreadHold implements AutoCloseable {
    private final MultipathRespread respread;
    private final CountDownLatch planned = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private final AtomicInteger plans = new AtomicInteger();

    private RespreadHold(MultipathRespread respread) {
        this.respread = respread;
    }

    /** Holds the next plan of the service in {@code context}; later plans run through. */
    public static RespreadHold nextPlan(ApplicationContext context) {
        RespreadHold h = new RespreadHold(context.getBean(MultipathRespread.class));
        h.respread.afterPlanning = () -> {
            if (h.plans.incrementAndGet() == 1) {
                h.planned.countDown();
                try {
                    h.released.await(120, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        return h;
    }

    /** True once a plan is made and held. */
    public boolean awaitPlanned(Duration timeout) throws InterruptedException {
        return planned.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public void release() {
        released.countDown();
    }

    /** Plans made since the hold was set. */
    public int plans() {
        return plans.get();
    }

    @Override
    public void close() {
        release();
        respread.afterPlanning = () -> { };
    }
}
