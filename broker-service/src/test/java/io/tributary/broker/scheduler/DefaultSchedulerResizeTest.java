package io.tributary.broker.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The background threads resized while the broker runs (the dynamic {@code background.threads}). */
class DefaultSchedulerResizeTest {

    /** Schedules {@code count} tasks that each wait for all of them to run; whether they all ran at once. */
    private static boolean runConcurrently(DefaultScheduler scheduler, int count, long waitMs) throws Exception {
        CountDownLatch running = new CountDownLatch(count);
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < count; i++) {
            scheduler.schedule("task-" + i, () -> {
                running.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, 0, 0);
        }
        boolean all = running.await(waitMs, TimeUnit.MILLISECONDS);
        release.countDown();
        return all;
    }

    @Test
    void aGrownPoolRunsAsManyTasksAtOnce() throws Exception {
        DefaultScheduler scheduler = new DefaultScheduler(1, "resize-test");
        try {
            assertThat(runConcurrently(scheduler, 2, 200)).as("one thread runs one task at a time").isFalse();
            scheduler.resize(3);
            assertThat(scheduler.size()).isEqualTo(3);
            assertThat(runConcurrently(scheduler, 3, 30_000)).isTrue();
        } finally {
            scheduler.shutdown();
        }
    }
}
