package io.tributary.broker.share;

import io.tributary.broker.scheduler.Scheduler;
import java.util.concurrent.ScheduledFuture;

/**
 * Times the acquisition locks of share-partitions ({@code group.share.record.lock.duration.ms},
 * KIP-932): each lock is a one-shot task on the broker's {@link Scheduler}, run when the lock
 * expires (tests drive it with a scheduler on a mock clock). Expiry runs on a scheduler thread,
 * never on an event loop. Thread-safe.
 */
public final class AcquisitionLockTimer {

    private final Scheduler scheduler;

    public AcquisitionLockTimer(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * Runs {@code onExpiry} after {@code durationMs}, unless the returned future is cancelled first.
     *
     * @param durationMs the lock duration, ms
     */
    public ScheduledFuture<?> start(long durationMs, Runnable onExpiry) {
        return scheduler.schedule("share-acquisition-lock", onExpiry, durationMs, 0);
    }
}
