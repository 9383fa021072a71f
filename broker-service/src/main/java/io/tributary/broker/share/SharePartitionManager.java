package io.tributary.broker.share;

import io.tributary.broker.replica.FetchParams;
import io.tributary.broker.replica.FetchPartition;
import io.tributary.broker.replica.FetchPartitionResult;
import io.tributary.broker.replica.PartitionLeadershipListener;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * The share-partitions this broker leads (KIP-932; Kafka's {@code SharePartitionManager}): created
 * on the first ShareFetch for them, dropped when leadership moves ({@link #onResign}) and when the
 * last share session of their group on this broker closes ({@link #onGroupEmpty}); one whose state
 * write the share coordinator fenced is loaded again, from the stored state, by the next ShareFetch.
 *
 * <p>A ShareFetch reads each share-partition from its next fetch offset through the consumer fetch
 * path, long-polling up to {@code maxWaitMs} for {@code minBytes} in the fetch purgatory (woken by
 * appends), then acquires what it read, up to {@code maxRecords} over all partitions. A fetch whose
 * share-partitions can acquire nothing (all in flight acquired, windows full) waits instead for one
 * of them to change (acknowledgement, release, lock expiry), up to {@code maxWaitMs}
 * ({@link ShareFetchWaiters}). A fetch waiting in the purgatory for new records is answered at once
 * when records before the offsets it read from become acquirable again (released, lock expired) or
 * one of its share-partitions is dropped, as Kafka's delayed share fetch is: it reads again, without
 * waiting, and acquires those; the purgatory's late answer to the first read is dropped.
 *
 * <p>Thread-safe. Nothing here blocks: reads complete on the purgatory's threads, state writes are
 * asynchronous.
 */
public final class SharePartitionManager implements PartitionLeadershipListener {

    private final ShareLog log;
    private final ShareGroupSettings settings;
    private final SharePartitionLoader loader;
    private final ShareFetchWaiters waiters;
    private final ConcurrentMap<SharePartitionKey, CompletableFuture<SharePartition>> partitions = new ConcurrentHashMap<>();

    public SharePartitionManager(ShareLog log, ShareStatePersister persister, ShareGroupSettings settings,
                                 AcquisitionLockTimer timer) {
        this(log, persister, settings, timer, ShareArchiveListener.NONE);
    }

    /** @param archiveListener told of delivered records archived (REJECT, delivery count limit): the dead-letter queue */
    public SharePartitionManager(ShareLog log, ShareStatePersister persister, ShareGroupSettings settings,
                                 AcquisitionLockTimer timer, ShareArchiveListener archiveListener) {
        this(log, persister, settings, timer, archiveListener, SharePartitionMetrics.NONE);
    }

    /** @param metrics reports the share-partitions loaded here (KIP-1103), each until it is fenced */
    public SharePartitionManager(ShareLog log, ShareStatePersister persister, ShareGroupSettings settings,
                                 AcquisitionLockTimer timer, ShareArchiveListener archiveListener,
                                 SharePartitionMetrics metrics) {
        this.log = log;
        this.settings = settings;
        this.waiters = new ShareFetchWaiters(timer);
        this.loader = new SharePartitionLoader(log, persister, timer, waiters::wake, archiveListener, metrics);
    }

    /** The acquisition lock duration of {@code groupId}, ms, as ShareFetch and ShareAcknowledge responses carry it. */
    public int recordLockDurationMs(String groupId) {
        return settings.forGroup(groupId).recordLockDurationMs();
    }

    /**
     * Reads and acquires records of {@code topicPartitions} for a member.
     *
     * @param topicPartitions the partitions, with their names resolved
     * @return per partition in the given order: the records read and the ranges acquired, or
     *         NOT_LEADER_OR_FOLLOWER, UNKNOWN_TOPIC_OR_PARTITION, the read's error, the persister's error
     */
    public CompletableFuture<Map<TopicIdPartition, ShareFetchPartitionResult>> fetch(ShareFetchParams params,
                                                                                    List<TopicIdPartition> topicPartitions) {
        LinkedHashMap<TopicIdPartition, CompletableFuture<SharePartition>> loads = new LinkedHashMap<>();
        for (TopicIdPartition tip : topicPartitions) {
            loads.put(tip, sharePartition(params.groupId(), tip));
        }
        return CompletableFuture.allOf(loads.values().toArray(CompletableFuture[]::new)).handle((v, e) -> loads)
            .thenCompose(loaded -> read(params, loaded));
    }

    private CompletableFuture<Map<TopicIdPartition, ShareFetchPartitionResult>> read(
            ShareFetchParams params, LinkedHashMap<TopicIdPartition, CompletableFuture<SharePartition>> loaded) {
        LinkedHashMap<TopicIdPartition, ShareFetchPartitionResult> results = new LinkedHashMap<>();
        LinkedHashMap<TopicPartition, FetchPartition> reads = new LinkedHashMap<>();
        Map<TopicPartition, SharePartition> readers = new LinkedHashMap<>();
        loaded.forEach((tip, future) -> {
            results.put(tip, ShareFetchPartitionResult.empty());
            if (future.isCompletedExceptionally()) {
                results.put(tip, ShareFetchPartitionResult.error(errorOf(future)));
                return;
            }
            SharePartition sp = future.join();
            if (sp.canAcquire()) {
                reads.put(tip.topicPartition(), new FetchPartition(sp.nextFetchOffset(), RecordBatch.NO_PARTITION_LEADER_EPOCH,
                    params.maxBytes(), RecordBatch.NO_PARTITION_LEADER_EPOCH));
                readers.put(tip.topicPartition(), sp);
            }
        });
        if (reads.isEmpty()) {
            List<SharePartitionKey> idle = new ArrayList<>();
            loaded.forEach((tip, future) -> {
                if (!future.isCompletedExceptionally()) {
                    idle.add(future.join().key());
                }
            });
            if (params.maxWaitMs() <= 0 || idle.isEmpty()) {
                return CompletableFuture.completedFuture(results);
            }
            // Nothing to acquire now: wait for an acknowledgement, release or lock expiry, then read once more.
            CompletableFuture<Void> woken = waiters.await(idle, params.maxWaitMs());
            if (idle.stream().anyMatch(key -> sharePartition(key).map(SharePartition::canAcquire).orElse(true))) {
                woken.complete(null); // changed before the wait began
            }
            return woken.thenCompose(v -> read(params.withMaxWaitMs(0), loaded));
        }
        FetchParams fetchParams = new FetchParams(-1, params.maxWaitMs(), Math.min(params.minBytes(), params.maxBytes()),
            params.maxBytes(), settings.forGroup(params.groupId()).isolationLevel());
        CompletableFuture<Map<TopicPartition, FetchPartitionResult>> logRead = log.fetch(fetchParams, reads);
        if (params.maxWaitMs() <= 0 || logRead.isDone()) {
            return logRead.thenApply(read -> acquire(params, results, readers, read));
        }
        // While the read waits in the fetch purgatory for new records, records before the offsets it read
        // from may become acquirable again (released, lock expired, state reset): then it answers at once
        // with those, as Kafka's delayed share fetch completes when its share-partitions can acquire.
        Map<SharePartition, Long> readFrom = new LinkedHashMap<>();
        reads.forEach((tp, fetch) -> readFrom.put(readers.get(tp), fetch.fetchOffset()));
        java.util.function.BooleanSupplier reacquirable = () -> readFrom.entrySet().stream()
            .anyMatch(e -> e.getKey().isFenced() || e.getKey().nextFetchOffset() < e.getValue());
        List<SharePartitionKey> keys = readFrom.keySet().stream().map(SharePartition::key).toList();
        CompletableFuture<Void> woken = waiters.await(keys, params.maxWaitMs(), reacquirable);
        if (reacquirable.getAsBoolean()) {
            woken.complete(null); // changed before the wait began
        }
        CompletableFuture<Map<TopicIdPartition, ShareFetchPartitionResult>> answer = new CompletableFuture<>();
        AtomicBoolean answered = new AtomicBoolean(); // by the log read or by the wake, whichever comes first
        logRead.whenComplete((read, e) -> {
            if (!answered.compareAndSet(false, true)) {
                return; // woken first: the read's late answer is dropped, nothing was acquired from it
            }
            woken.complete(null);
            if (e != null) {
                answer.completeExceptionally(e);
            } else {
                try {
                    answer.complete(acquire(params, results, readers, read));
                } catch (RuntimeException failure) {
                    answer.completeExceptionally(failure);
                }
            }
        });
        woken.thenRun(() -> {
            if (answered.compareAndSet(false, true)) {
                // Read again now, from the records acquirable again; a fenced share-partition is loaded again.
                fetch(params.withMaxWaitMs(0), new ArrayList<>(loaded.keySet())).whenComplete((r, e) -> {
                    if (e != null) {
                        answer.completeExceptionally(e);
                    } else {
                        answer.complete(r);
                    }
                });
            }
        });
        return answer;
    }

    /** Acquires, up to {@code params.maxRecords()} over all partitions, from what the log read returned. */
    private static Map<TopicIdPartition, ShareFetchPartitionResult> acquire(ShareFetchParams params,
            LinkedHashMap<TopicIdPartition, ShareFetchPartitionResult> results, Map<TopicPartition, SharePartition> readers,
            Map<TopicPartition, FetchPartitionResult> read) {
        int remaining = params.maxRecords();
        for (Map.Entry<TopicIdPartition, ShareFetchPartitionResult> e : results.entrySet()) {
            SharePartition sp = readers.get(e.getKey().topicPartition());
            FetchPartitionResult result = sp == null ? null : read.get(e.getKey().topicPartition());
            if (result == null) {
                continue;
            }
            if (result.error() != Errors.NONE) {
                e.setValue(ShareFetchPartitionResult.error(result.error()));
                continue;
            }
            List<AcquiredRange> acquired = remaining <= 0 || result.records() == null ? List.of()
                : sp.acquire(params.memberId(), result.records().batches(), result.abortedTransactions(), remaining,
                    params.strictRecordLimit());
            for (AcquiredRange range : acquired) {
                remaining -= (int) (range.lastOffset() - range.firstOffset() + 1);
            }
            e.setValue(new ShareFetchPartitionResult(Errors.NONE, AcquiredBatches.slice(result.records(), acquired),
                acquired));
        }
        return results;
    }

    /**
     * Applies a member's acknowledgements.
     *
     * @return per partition: NONE, or its error (NOT_LEADER_OR_FOLLOWER when not led here,
     *         INVALID_RECORD_STATE when nothing was acquired from it, the share-partition's errors)
     */
    public CompletableFuture<Map<TopicIdPartition, Errors>> acknowledge(String groupId, String memberId,
                                                                       Map<TopicIdPartition, List<ShareAcknowledgement>> acknowledgements) {
        LinkedHashMap<TopicIdPartition, CompletableFuture<Errors>> futures = new LinkedHashMap<>();
        acknowledgements.forEach((tip, acks) -> {
            CompletableFuture<SharePartition> sp = partitions.get(new SharePartitionKey(groupId, tip));
            if (sp == null || !sp.isDone() || sp.isCompletedExceptionally()) {
                futures.put(tip, CompletableFuture.completedFuture(log.leaderEpoch(tip.topicPartition()) < 0
                    ? Errors.NOT_LEADER_OR_FOLLOWER : Errors.INVALID_RECORD_STATE));
            } else {
                futures.put(tip, sp.join().acknowledge(memberId, acks));
            }
        });
        return CompletableFuture.allOf(futures.values().toArray(CompletableFuture[]::new)).thenApply(v -> {
            Map<TopicIdPartition, Errors> errors = new LinkedHashMap<>();
            futures.forEach((tip, f) -> errors.put(tip, f.join()));
            return errors;
        });
    }

    /**
     * Releases every record {@code memberId} of {@code groupId} holds on this broker: the member left
     * its group or closed its share session (called by the group coordinator's member listener and on
     * a share session's final epoch).
     */
    public CompletableFuture<Void> releaseSession(String groupId, String memberId) {
        List<CompletableFuture<Void>> releases = new ArrayList<>();
        partitions.forEach((key, future) -> {
            if (key.groupId().equals(groupId) && future.isDone() && !future.isCompletedExceptionally()) {
                releases.add(future.join().releaseMember(memberId));
            }
        });
        return CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new));
    }

    /**
     * No member of {@code groupId} has a share session on this broker any more (Kafka's
     * {@code ShareGroupListener.onGroupEmpty}): every share-partition of the group is dropped (fenced, its
     * waiting fetches woken), so the next ShareFetch loads it again from the stored state. That is how a
     * start offset altered or deleted while the group was empty (AlterShareGroupOffsets,
     * DeleteShareGroupOffsets) reaches a leader that is not the group's coordinator. Call once the
     * group's last members' records are released.
     */
    public void onGroupEmpty(String groupId) {
        List<SharePartitionKey> dropped = new ArrayList<>();
        partitions.entrySet().removeIf(e -> {
            if (!e.getKey().groupId().equals(groupId)) {
                return false;
            }
            e.getValue().thenAccept(SharePartition::fence);
            dropped.add(e.getKey());
            return true;
        });
        dropped.forEach(waiters::wake);
    }

    /** ShareFetches waiting for something to acquire on {@code key} (for tests and metrics). */
    public int waitingFetches(SharePartitionKey key) {
        return waiters.waiting(key);
    }

    /** The share-partition of {@code key} if this broker holds it (for tests and metrics). */
    public java.util.Optional<SharePartition> sharePartition(SharePartitionKey key) {
        CompletableFuture<SharePartition> future = partitions.get(key);
        return future == null || !future.isDone() || future.isCompletedExceptionally()
            ? java.util.Optional.empty() : java.util.Optional.of(future.join());
    }

    @Override
    public void onBecomeLeader(TopicPartition tp, int leaderEpoch) {
        // Share-partitions are created by the first ShareFetch for them.
    }

    /** Drops (and fences) every share-partition of {@code tp}: their in-flight records go with the leadership. */
    @Override
    public void onResign(TopicPartition tp) {
        partitions.entrySet().removeIf(e -> {
            if (!e.getKey().partition().topicPartition().equals(tp)) {
                return false;
            }
            e.getValue().thenAccept(SharePartition::fence);
            return true;
        });
    }

    private CompletableFuture<SharePartition> sharePartition(String groupId, TopicIdPartition tip) {
        SharePartitionKey key = new SharePartitionKey(groupId, tip);
        CompletableFuture<SharePartition> existing = partitions.get(key);
        if (existing != null && !(existing.isDone() && !existing.isCompletedExceptionally() && existing.join().isFenced())) {
            return existing;
        }
        if (existing != null) {
            partitions.remove(key, existing); // its state write was fenced: load it again from the stored state
        }
        int leaderEpoch = log.leaderEpoch(tip.topicPartition());
        if (leaderEpoch < 0) {
            return CompletableFuture.failedFuture(new NotLeaderOrFollowerException(
                "This broker does not lead " + tip.topicPartition()));
        }
        CompletableFuture<SharePartition> created = new CompletableFuture<>();
        existing = partitions.putIfAbsent(key, created);
        if (existing != null) {
            return existing;
        }
        loader.load(key, leaderEpoch, settings.forGroup(groupId)).whenComplete((sp, e) -> {
            if (e != null) {
                partitions.remove(key, created);
                created.completeExceptionally(e);
            } else if (log.leaderEpoch(tip.topicPartition()) != leaderEpoch) {
                partitions.remove(key, created);
                sp.fence();
                created.completeExceptionally(new NotLeaderOrFollowerException("Leadership of " + tip + " moved"));
            } else {
                created.complete(sp);
            }
        });
        return created;
    }

    private static Errors errorOf(CompletableFuture<?> failed) {
        try {
            failed.join();
            return Errors.NONE;
        } catch (CompletionException e) {
            return Errors.forException(e.getCause());
        } catch (RuntimeException e) {
            return Errors.forException(e);
        }
    }
}
