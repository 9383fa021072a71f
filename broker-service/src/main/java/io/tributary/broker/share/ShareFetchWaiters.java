package io.tributary.broker.share;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ScheduledFuture;
import java.util.function.BooleanSupplier;

/**
 * ShareFetches waiting for a change of their share-partitions, as Kafka's delayed share fetch is
 * checked again when its share-partitions change: a fetch none of whose share-partitions can acquire
 * anything (every record in flight acquired, the in-flight window full) waits for any change; a fetch
 * waiting in the fetch purgatory for new records also waits here, with a condition, for records
 * before the offsets it read from to become acquirable again (released, lock expired, state reset).
 * A change is an acknowledgement, a release, a lock expiry or a share-partition dropped
 * ({@link #wake}); each wait ends at its max wait at the latest.
 * Thread-safe; completions run on the thread that wakes or on the timer's thread.
 */
final class ShareFetchWaiters {

    private final AcquisitionLockTimer timer;
    private final ConcurrentMap<SharePartitionKey, Set<Waiter>> waiting = new ConcurrentHashMap<>();

    /** A waiting fetch: completed by a wake when {@code ready} holds. */
    private record Waiter(CompletableFuture<Void> woken, BooleanSupplier ready) {
    }

    ShareFetchWaiters(AcquisitionLockTimer timer) {
        this.timer = timer;
    }

    /**
     * @param maxWaitMs how long to wait at most, ms
     * @return completes when one of {@code keys} is woken or the wait passes
     */
    CompletableFuture<Void> await(Collection<SharePartitionKey> keys, long maxWaitMs) {
        return await(keys, maxWaitMs, () -> true);
    }

    /**
     * @param maxWaitMs how long to wait at most, ms
     * @param ready     checked on each wake of one of {@code keys} (on the waking thread, holding no
     *                  lock of this class): the wait ends only when it holds
     * @return completes when one of {@code keys} is woken while {@code ready} holds, or the wait passes
     */
    CompletableFuture<Void> await(Collection<SharePartitionKey> keys, long maxWaitMs, BooleanSupplier ready) {
        CompletableFuture<Void> woken = new CompletableFuture<>();
        Waiter waiter = new Waiter(woken, ready);
        for (SharePartitionKey key : keys) {
            waiting.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(waiter);
        }
        ScheduledFuture<?> timeout = timer.start(maxWaitMs, () -> woken.complete(null));
        woken.whenComplete((v, e) -> {
            timeout.cancel(false);
            for (SharePartitionKey key : keys) {
                waiting.computeIfPresent(key, (k, set) -> {
                    set.remove(waiter);
                    return set.isEmpty() ? null : set;
                });
            }
        });
        return woken;
    }

    /** Completes the waits on {@code key} whose condition holds. */
    void wake(SharePartitionKey key) {
        Set<Waiter> waiters = waiting.get(key);
        if (waiters != null) {
            for (Waiter w : List.copyOf(waiters)) {
                if (!w.woken().isDone() && w.ready().getAsBoolean()) {
                    w.woken().complete(null);
                }
            }
        }
    }

    /** Fetches waiting on {@code key} now. */
    int waiting(SharePartitionKey key) {
        Set<Waiter> waiters = waiting.get(key);
        return waiters == null ? 0 : waiters.size();
    }
}
