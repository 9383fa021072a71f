package io.tributary.broker.replica;

import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A request that waits in a {@link DelayedOperationPurgatory} until it can complete (enough
 * bytes to fetch, enough replicas caught up) or its time runs out.
 *
 * <p>Thread-safe: completion happens exactly once, whichever thread gets there first.
 * {@link #onComplete()} never runs under the operation's monitor: a completion found by
 * {@link #tryComplete()} is sent once the monitor is released. Callbacks take locks of their
 * own (a group's, when an offset commit's append is acknowledged), and the thread that holds
 * such a lock may be appending, which checks this operation under its monitor: completing
 * under the monitor deadlocked a broker in the fault campaign (seed 21, kill-leader: one
 * request handler held a group and waited for a DelayedProduce, the other held that
 * DelayedProduce and waited for the group).
 */
public abstract class DelayedOperation {

    private final AtomicBoolean completed = new AtomicBoolean();
    /** Set by {@link #forceComplete()} under the monitor; read by the same thread once it is released. */
    private boolean completeAfterUnlock;
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

    /**
     * Completes the operation unless already completed. Called under the operation's monitor
     * (from {@link #tryComplete()}), it leaves {@link #onComplete()} to {@link #safeTryComplete()}
     * after the monitor is released.
     */
    public boolean forceComplete() {
        if (completed.compareAndSet(false, true)) {
            ScheduledFuture<?> t = timeout;
            if (t != null) {
                t.cancel(false);
            }
            if (Thread.holdsLock(this)) {
                completeAfterUnlock = true;
            } else {
                onComplete();
            }
            return true;
        }
        return false;
    }

    public boolean isCompleted() {
        return completed.get();
    }

    boolean safeTryComplete() {
        boolean sendCompletion = false;
        try {
            synchronized (this) {
                try {
                    return !isCompleted() && tryComplete();
                } finally {
                    sendCompletion = completeAfterUnlock;
                    completeAfterUnlock = false;
                }
            }
        } finally {
            if (sendCompletion) {
                onComplete();
            }
        }
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
