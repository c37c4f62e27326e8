package io.weft.scheduler.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

/** A woken poll's timeout must never fire, even when the wake came before the timeout was scheduled. */
class TimeoutWheelTest {

    @Test
    void aDeadlineCancelledBeforeItIsScheduledNeverRuns() throws Exception {
        TimeoutWheel.Deadline d = new TimeoutWheel.Deadline();
        AtomicBoolean ran = new AtomicBoolean();
        d.cancel();
        TimeoutWheel.INSTANCE.schedule(d, 1, () -> ran.set(true));
        assertThat(ranAfterALaterTimeout()).isTrue();
        assertThat(ran).isFalse();
    }

    @Test
    void aCancelledDeadlineNeverRunsAndAnOtherOneDoes() throws Exception {
        TimeoutWheel.Deadline d = new TimeoutWheel.Deadline();
        AtomicBoolean ran = new AtomicBoolean();
        TimeoutWheel.INSTANCE.schedule(d, 50, () -> ran.set(true));
        d.cancel();
        assertThat(ranAfterALaterTimeout()).isTrue();
        assertThat(ran).isFalse();
    }

    /** The wheel is one thread in deadline order: a later deadline that ran means the earlier one was due. */
    private static boolean ranAfterALaterTimeout() throws InterruptedException {
        CountDownLatch later = new CountDownLatch(1);
        TimeoutWheel.INSTANCE.schedule(new TimeoutWheel.Deadline(), 100, later::countDown);
        return later.await(10, TimeUnit.SECONDS);
    }
}
