package io.tributary.broker.replica;

import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A request that waits in a {@link DelayedOperationPurgatory} until it can complete (enough
 * bytes to fetch, enough replicas caught up) or its time runs out.
 *
 * <p>Thread-safe: completion happens exactly once, whichever thread gets there first.
 */
public abstract class DelayedOperation {

    private final AtomicBoolean completed = new AtomicBoolean();
    private final long delayMs;
    private volatile ScheduledFuture<?> timeout;
    private volatile List<Object> watchKeys = List.of();

    /** @param delayMs how long the operation may wait, ms */
    protected DelayedOperation(long delayMs) {
        this.delayMs = delayMs;
    }

    public long delayMs() {
        return delayMs;
    }

    /**
     * Checks whether the operation can complete now and, if so, calls {@link #forceComplete()}.
     * Called under the operation's monitor.
     *
     * @return whether it completed
     */
    protected abstract boolean tryComplete();

    /** Sends the result; called once, on completion or expiry. */
    protected abstract void onComplete();

    /** Called before {@link #onComplete()} when the time ran out. */
    protected void onExpiration() {
    }

    /** Completes the operation unless already completed. */
    public boolean forceComplete() {
        if (completed.compareAndSet(false, true)) {
            ScheduledFuture<?> t = timeout;
            if (t != null) {
                t.cancel(false);
            }
            onComplete();
            return true;
        }
        return false;
    }

    public boolean isCompleted() {
        return completed.get();
    }

    synchronized boolean safeTryComplete() {
        return !isCompleted() && tryComplete();
    }

    void expire() {
        if (!isCompleted()) {
            onExpiration();
            forceComplete();
        }
    }

    void setTimeout(ScheduledFuture<?> timeout) {
        this.timeout = timeout;
    }

    void setWatchKeys(List<Object> keys) {
        this.watchKeys = keys;
    }

    List<Object> watchKeys() {
        return watchKeys;
    }
}
