package io.tributary.broker.share;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ScheduledFuture;

/**
 * ShareFetches waiting because none of their share-partitions can acquire anything (every record
 * in flight acquired, the in-flight window full): each waits until one of its share-partitions
 * changes (an acknowledgement, a release, a lock expiry: {@link #wake}) or its max wait passes, as
 * Kafka's delayed share fetch does. Waits for new records are the fetch purgatory's, not these.
 * Thread-safe; completions run on the thread that wakes or on the timer's thread.
 */
final class ShareFetchWaiters {

    private final AcquisitionLockTimer timer;
    private final ConcurrentMap<SharePartitionKey, Set<CompletableFuture<Void>>> waiting = new ConcurrentHashMap<>();

    ShareFetchWaiters(AcquisitionLockTimer timer) {
        this.timer = timer;
    }

    /**
     * @param maxWaitMs how long to wait at most, ms
     * @return completes when one of {@code keys} is woken or the wait passes
     */
    CompletableFuture<Void> await(Collection<SharePartitionKey> keys, long maxWaitMs) {
        CompletableFuture<Void> woken = new CompletableFuture<>();
        for (SharePartitionKey key : keys) {
            waiting.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(woken);
        }
        ScheduledFuture<?> timeout = timer.start(maxWaitMs, () -> woken.complete(null));
        woken.whenComplete((v, e) -> {
            timeout.cancel(false);
            for (SharePartitionKey key : keys) {
                waiting.computeIfPresent(key, (k, set) -> {
                    set.remove(woken);
                    return set.isEmpty() ? null : set;
                });
            }
        });
        return woken;
    }

    /** Completes the waits on {@code key}. */
    void wake(SharePartitionKey key) {
        Set<CompletableFuture<Void>> waiters = waiting.get(key);
        if (waiters != null) {
            List.copyOf(waiters).forEach(w -> w.complete(null));
        }
    }

    /** Fetches waiting on {@code key} now. */
    int waiting(SharePartitionKey key) {
        Set<CompletableFuture<Void>> waiters = waiting.get(key);
        return waiters == null ? 0 : waiters.size();
    }
}
