package io.tributary.broker.replica;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds delayed operations, watched by key (a topic partition), until an event on one of their
 * keys lets them complete or their timeout fires. Completed operations leave every watch list
 * at once, so idle partitions do not accumulate expired requests.
 *
 * <p>Thread-safe.
 *
 * @param <T> the operation type
 */
public final class DelayedOperationPurgatory<T extends DelayedOperation> {

    private static final Logger log = LoggerFactory.getLogger(DelayedOperationPurgatory.class);

    private final String name;
    private final Map<Object, Set<T>> watchers = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor timer;

    public DelayedOperationPurgatory(String name) {
        this.name = name;
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "purgatory-" + name);
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * Completes the operation now if it can; otherwise watches it on {@code keys} and starts
     * its timeout.
     *
     * @return whether it completed at once
     */
    public boolean tryCompleteElseWatch(T operation, List<Object> keys) {
        if (operation.safeTryComplete()) {
            return true;
        }
        operation.setWatchKeys(keys);
        for (Object key : keys) {
            watchers.compute(key, (k, ops) -> {
                Set<T> set = ops == null ? ConcurrentHashMap.newKeySet() : ops;
                set.add(operation);
                return set;
            });
        }
        // An event may have arrived between the first check and the watch.
        if (operation.safeTryComplete()) {
            unwatch(operation);
            return true;
        }
        operation.setTimeout(timer.schedule(() -> {
            try {
                operation.expire();
            } catch (RuntimeException e) {
                log.error("Delayed operation in {} failed on expiry", name, e);
            } finally {
                unwatch(operation);
            }
        }, operation.delayMs(), TimeUnit.MILLISECONDS));
        if (operation.isCompleted()) {
            unwatch(operation);
        }
        return false;
    }

    /**
     * Tries to complete the operations watching {@code key}.
     *
     * @return how many completed
     */
    public int checkAndComplete(Object key) {
        Set<T> ops = watchers.get(key);
        if (ops == null || ops.isEmpty()) {
            return 0;
        }
        int completed = 0;
        for (T op : ops) {
            if (op.isCompleted()) {
                ops.remove(op);
            } else {
                try {
                    if (op.safeTryComplete()) {
                        completed++;
                        unwatch(op);
                    }
                } catch (RuntimeException e) {
                    log.error("Delayed operation in {} failed", name, e);
                    op.forceComplete();
                    unwatch(op);
                }
            }
        }
        return completed;
    }

    private void unwatch(T op) {
        for (Object key : op.watchKeys()) {
            watchers.computeIfPresent(key, (k, ops) -> {
                ops.remove(op);
                return ops.isEmpty() ? null : ops;
            });
        }
    }

    /** Operations currently watched (for tests and metrics). */
    public int watched() {
        return watchers.values().stream().mapToInt(Set::size).sum();
    }

    /** Operations currently watching {@code key} (for tests and metrics). */
    public int watched(Object key) {
        Set<T> ops = watchers.get(key);
        return ops == null ? 0 : ops.size();
    }

    /** Completes every pending operation (shutdown) and stops the timer. */
    public void shutdown() {
        for (Set<T> ops : watchers.values()) {
            for (T op : ops) {
                op.forceComplete();
            }
        }
        watchers.clear();
        timer.shutdownNow();
    }
}
