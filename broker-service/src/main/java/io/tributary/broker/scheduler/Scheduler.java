package io.tributary.broker.scheduler;

import java.util.concurrent.ScheduledFuture;

/**
 * Runs background tasks of the broker: retention, checkpoints, delayed file deletion, producer
 * expiry. Implementations are thread-safe. Tests use a scheduler driven by a mock clock, so
 * retention and expiry are tested without sleeping.
 */
public interface Scheduler {

    /**
     * Runs {@code task} once after {@code delayMs}, or every {@code periodMs} after that when
     * {@code periodMs > 0}. A task that throws is logged and, if periodic, keeps its schedule.
     *
     * @param name     a short name for logs
     * @param delayMs  delay before the first run, ms
     * @param periodMs period between runs, ms; 0 or less for a one-shot task
     */
    ScheduledFuture<?> schedule(String name, Runnable task, long delayMs, long periodMs);

    /** Runs {@code task} once, as soon as possible. */
    default ScheduledFuture<?> scheduleOnce(String name, Runnable task) {
        return schedule(name, task, 0, 0);
    }

    /** Stops running tasks; waits for those under way. */
    void shutdown() throws InterruptedException;
}
