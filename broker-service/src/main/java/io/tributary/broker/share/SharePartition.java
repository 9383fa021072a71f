package io.tributary.broker.share;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One share-partition (KIP-932): the records of a topic partition as a share group consumes them,
 * on the partition's leader. Members acquire records with ShareFetch; each acquisition holds an
 * acquisition lock for {@code share.record.lock.duration.ms}, and the records go back to AVAILABLE
 * (delivered again, delivery count up) when it expires, unless acknowledged first: ACCEPT makes them
 * ACKNOWLEDGED, RELEASE AVAILABLE, REJECT and GAP ARCHIVED; a release at
 * {@code share.delivery.count.limit} deliveries archives them. The share-partition start offset
 * (SPSO) moves past acknowledged and archived records; new records are acquired only while the
 * in-flight window holds fewer than {@code share.partition.max.record.locks} offsets. Delivered records
 * it archives (REJECT, a release at the limit) are reported to its {@link ShareArchiveListener} once the
 * state saying so is written: the group's dead-letter queue (KIP-1191).
 *
 * <p>State changes other than acquisitions are written to the {@link ShareStatePersister} one at a
 * time, in order, each state taken when its turn comes (so a later write never carries an older
 * state), each with its delivery complete count (KIP-1226); acknowledgements are applied once their
 * write succeeds. Thread-safe: every method holds this object's monitor and none does I/O under it
 * (persister calls return at once), except the lock-free meter values (KIP-1103: in-flight counts,
 * {@link #stats()}); lock expiry runs on a scheduler thread. After {@link #fence} (leadership lost) it
 * acquires nothing and answers acknowledgements NOT_LEADER_OR_FOLLOWER; a state write fenced by the
 * share coordinator fences it too.
 */
public final class SharePartition {

    private static final Logger log = LoggerFactory.getLogger(SharePartition.class);

    private final SharePartitionKey key;
    private final int leaderEpoch;
    private final int stateEpoch;
    private final SharePartitionConfig config;
    private final ShareStatePersister persister;
    private final AcquisitionLockTimer timer;
    private final Runnable onRecordsAvailable;
    private final ShareArchiveListener archiveListener;
    private final java.util.function.Consumer<SharePartition> onFenced;
    private final SharePartitionStats stats = new SharePartitionStats();
    private final InFlightRecords inFlight;
    private final Map<Long, AcquisitionLock> locks = new HashMap<>();
    private long nextLockId;
    private boolean fenced;
    /** The last state write queued ({@link #enqueueWrite}). */
    private CompletableFuture<Void> writeQueue = CompletableFuture.completedFuture(null);

    /** A batch's offsets, and whether it is to be archived rather than delivered (control or aborted). */
    private record BatchBounds(long baseOffset, long lastOffset, boolean undeliverable) {
    }

    /** An acquisition lock: the offsets it may cover and its timer. */
    private record AcquisitionLock(long firstOffset, long lastOffset, ScheduledFuture<?> expiry) {
    }

    /**
     * @param leaderEpoch        the partition's leader epoch on this broker, written with the state
     * @param state              the state read from the persister (or initialized from the auto offset reset)
     * @param onRecordsAvailable called, with no lock held, when records may be acquirable again
     *                           (acknowledged, released or expired: AVAILABLE again, or the window moved)
     */
    public SharePartition(SharePartitionKey key, int leaderEpoch, ShareGroupState state, SharePartitionConfig config,
                          ShareStatePersister persister, AcquisitionLockTimer timer, Runnable onRecordsAvailable) {
        this(key, leaderEpoch, state, config, persister, timer, onRecordsAvailable, ShareArchiveListener.NONE);
    }

    /** @param archiveListener told of delivered records archived (REJECT, delivery count limit) once written */
    public SharePartition(SharePartitionKey key, int leaderEpoch, ShareGroupState state, SharePartitionConfig config,
                          ShareStatePersister persister, AcquisitionLockTimer timer, Runnable onRecordsAvailable,
                          ShareArchiveListener archiveListener) {
        this(key, leaderEpoch, state, config, persister, timer, onRecordsAvailable, archiveListener, sp -> { });
    }

    /**
     * @param onFenced called once when this share-partition is fenced (it is unloaded: its metrics go); must
     *                 return at once, it may run with this share-partition's monitor held
     */
    public SharePartition(SharePartitionKey key, int leaderEpoch, ShareGroupState state, SharePartitionConfig config,
                          ShareStatePersister persister, AcquisitionLockTimer timer, Runnable onRecordsAvailable,
                          ShareArchiveListener archiveListener, java.util.function.Consumer<SharePartition> onFenced) {
        this.key = key;
        this.onFenced = onFenced;
        this.archiveListener = archiveListener;
        this.leaderEpoch = leaderEpoch;
        this.stateEpoch = state.stateEpoch();
        this.config = config;
        this.persister = persister;
        this.timer = timer;
        this.onRecordsAvailable = onRecordsAvailable;
        this.inFlight = InFlightRecords.fromState(state);
    }

    public SharePartitionKey key() {
        return key;
    }

    public SharePartitionConfig config() {
        return config;
    }

    /** The share-partition start offset (SPSO). */
    public synchronized long startOffset() {
        return inFlight.startOffset();
    }

    /** The first offset never acquired (Kafka's SPEO plus one). */
    public synchronized long endOffset() {
        return inFlight.endOffset();
    }

    /** Where the next read for this share-partition starts: its first AVAILABLE offset, else the end offset. */
    public synchronized long nextFetchOffset() {
        return inFlight.nextFetchOffset();
    }

    /** Whether an acquisition may find something: AVAILABLE records, or room in the in-flight window. */
    public synchronized boolean canAcquire() {
        return !fenced && (inFlight.windowSize() < config.maxRecordLocks() || inFlight.nextFetchOffset() < inFlight.endOffset());
    }

    /**
     * Acquires for {@code memberId} the records of {@code batches} it may (read from the log at
     * {@link #nextFetchOffset}), under one new acquisition lock. Control batches, and with
     * read_committed the batches of aborted transactions, are archived instead.
     *
     * @param batches    batches read, in offset order; only their headers are read (control batches decoded)
     * @param aborted    the aborted transactions of a read_committed read, else empty
     * @param maxRecords most records to acquire: whole batches are taken until it is reached, unless
     *                   {@code strict} (record_limit acquire mode, KIP-1206) cuts the last one
     * @return the offset ranges acquired with their delivery counts, by offset; empty once fenced
     */
    public List<AcquiredRange> acquire(String memberId, Iterable<? extends RecordBatch> batches,
                                       List<FetchResponseData.AbortedTransaction> aborted, int maxRecords, boolean strict) {
        // Batch bounds are read before taking the monitor: reading a file slice's headers is I/O.
        boolean readCommitted = config.isolationLevel() == IsolationLevel.READ_COMMITTED;
        AbortedBatchFilter filter = readCommitted && !aborted.isEmpty() ? new AbortedBatchFilter(aborted) : null;
        List<BatchBounds> bounds = new ArrayList<>();
        for (RecordBatch batch : batches) {
            boolean abortedBatch = filter != null && filter.isAborted(batch);
            bounds.add(new BatchBounds(batch.baseOffset(), batch.lastOffset(), batch.isControlBatch() || abortedBatch));
        }
        boolean archived = false;
        List<AcquiredRange> acquired = new ArrayList<>();
        synchronized (this) {
            if (fenced || maxRecords <= 0) {
                return List.of();
            }
            long lockId = nextLockId++;
            int remaining = maxRecords;
            for (BatchBounds batch : bounds) {
                if (remaining <= 0) {
                    break;
                }
                if (batch.lastOffset() < inFlight.startOffset()) {
                    continue;
                }
                if (batch.undeliverable()) {
                    inFlight.archiveUndelivered(batch.baseOffset(), batch.lastOffset());
                    archived = true;
                } else {
                    for (AcquiredRange range : inFlight.acquire(batch.baseOffset(), batch.lastOffset(), memberId, lockId,
                            remaining, strict, config.maxRecordLocks())) {
                        remaining -= (int) (range.lastOffset() - range.firstOffset() + 1);
                        acquired.add(range);
                    }
                }
                if (inFlight.endOffset() <= batch.lastOffset()) {
                    break; // the window is full: later batches would leave this one's rest behind
                }
            }
            if (!acquired.isEmpty()) {
                long first = acquired.get(0).firstOffset();
                long last = acquired.get(acquired.size() - 1).lastOffset();
                locks.put(lockId, new AcquisitionLock(first, last,
                    timer.start(config.recordLockDurationMs(), () -> expire(lockId))));
            }
            if (archived) {
                inFlight.advanceStartOffset();
                enqueueWrite(this::snapshot, () -> { });
            }
        }
        return AcquiredRange.merge(acquired);
    }

    /**
     * Applies a member's acknowledgements, all or none: each batch must be well formed and every
     * in-flight offset in it ACQUIRED by {@code memberId}. As in Kafka, the state they lead to is
     * written first and applied only once written: when the write fails the acknowledgement fails
     * with the persister's error and nothing changes (the records stay acquired by the member until
     * acknowledged again or their lock expires, so none is lost). RENEW extends the lock at once
     * (nothing to write). Offsets whose lock expired while the write was in flight were released
     * meanwhile and stay so (they are delivered again: at least once).
     *
     * @return NONE once the new state is written; INVALID_REQUEST for a malformed batch, INVALID_RECORD_STATE
     *         for offsets not acquired by this member (never acquired, acknowledged already, another
     *         member's, lock expired), NOT_LEADER_OR_FOLLOWER once fenced, or the persister's error
     */
    public CompletableFuture<Errors> acknowledge(String memberId, List<ShareAcknowledgement> acknowledgements) {
        Errors[] refusal = {Errors.NONE};
        CompletableFuture<Void> written;
        synchronized (this) {
            if (fenced) {
                return CompletableFuture.completedFuture(Errors.NOT_LEADER_OR_FOLLOWER);
            }
            for (ShareAcknowledgement ack : acknowledgements) {
                if (!ack.isValid(true)) {
                    return CompletableFuture.completedFuture(Errors.INVALID_REQUEST);
                }
                if (!inFlight.heldBy(memberId, ack.firstOffset(), ack.lastOffset())) {
                    return CompletableFuture.completedFuture(Errors.INVALID_RECORD_STATE);
                }
            }
            Set<Long> touchedLocks = new HashSet<>();
            long renewLockId = -1;
            List<InFlightRange> renewed = new ArrayList<>();
            boolean changes = false;
            for (ShareAcknowledgement ack : acknowledgements) {
                for (long[] run : ack.runs()) {
                    if ((byte) run[2] != ShareAcknowledgement.RENEW) {
                        changes = true;
                        continue;
                    }
                    for (InFlightRange range : inFlight.isolateAll(run[0], run[1])) {
                        touchedLocks.add(range.lockId);
                        renewLockId = renewLockId >= 0 ? renewLockId : nextLockId++;
                        range.lockId = renewLockId;
                        renewed.add(range);
                    }
                }
            }
            if (!renewed.isEmpty()) {
                long lockId = renewLockId;
                locks.put(lockId, new AcquisitionLock(renewed.get(0).firstOffset,
                    renewed.get(renewed.size() - 1).lastOffset,
                    timer.start(config.recordLockDurationMs(), () -> expire(lockId))));
            }
            touchedLocks.forEach(this::cancelIfUnused);
            if (!changes) {
                return CompletableFuture.completedFuture(Errors.NONE);
            }
            written = enqueueWrite(() -> {
                if (fenced) {
                    refusal[0] = Errors.NOT_LEADER_OR_FOLLOWER;
                    return null;
                }
                InFlightRecords next = inFlight.copy();
                for (ShareAcknowledgement ack : acknowledgements) {
                    for (long[] run : ack.runs()) {
                        if ((byte) run[2] == ShareAcknowledgement.RENEW) {
                            continue;
                        }
                        if (!inFlight.heldBy(memberId, run[0], run[1])) {
                            refusal[0] = Errors.INVALID_RECORD_STATE; // the lock expired while earlier writes ran
                            return null;
                        }
                        for (InFlightRange range : next.isolateAll(run[0], run[1])) {
                            applyAcknowledgement(range, (byte) run[2]);
                        }
                    }
                }
                next.advanceStartOffset();
                return next.toState(stateEpoch, leaderEpoch);
            }, () -> commit(memberId, acknowledgements));
        }
        return written.handle((ok, e) -> {
            if (e != null) {
                return Errors.forException(e);
            }
            if (refusal[0] != Errors.NONE) {
                return refusal[0];
            }
            onRecordsAvailable.run();
            return Errors.NONE;
        });
    }

    /** Applies written acknowledgements (RENEW aside) to the offsets the member still holds. */
    private synchronized void commit(String memberId, List<ShareAcknowledgement> acknowledgements) {
        if (fenced) {
            return;
        }
        Set<Long> touchedLocks = new HashSet<>();
        for (ShareAcknowledgement ack : acknowledgements) {
            for (long[] run : ack.runs()) {
                byte type = (byte) run[2];
                if (type == ShareAcknowledgement.RENEW || !inFlight.heldBy(memberId, run[0], run[1])) {
                    continue;
                }
                for (InFlightRange range : inFlight.isolateAll(run[0], run[1])) {
                    touchedLocks.add(range.lockId);
                    notifyArchived(range, applyAcknowledgement(range, type));
                }
            }
        }
        touchedLocks.forEach(this::cancelIfUnused);
        inFlight.advanceStartOffset();
    }

    /**
     * Releases every record {@code memberId} holds (it left the group or closed its share session):
     * AVAILABLE again, or ARCHIVED at the delivery count limit.
     */
    public CompletableFuture<Void> releaseMember(String memberId) {
        return releaseWhere(range -> memberId.equals(range.memberId), 0, Long.MAX_VALUE, false);
    }

    /** Stops this share-partition (leadership moved): its locks are cancelled, nothing more is acquired. */
    public void fence() {
        synchronized (this) {
            if (fenced) {
                return;
            }
            fenced = true;
            locks.values().forEach(lock -> lock.expiry().cancel(false));
            locks.clear();
        }
        onFenced.accept(this);
    }

    /** The state of {@code offset}, or null when it is not in flight (before the SPSO, or never read). */
    public synchronized RecordState stateOf(long offset) {
        InFlightRange range = inFlight.rangeOf(offset);
        return range == null ? null : range.state;
    }

    /** The delivery count of {@code offset}, or 0 when it is not in flight. */
    public synchronized int deliveryCountOf(long offset) {
        InFlightRange range = inFlight.rangeOf(offset);
        return range == null ? 0 : range.deliveryCount;
    }

    /** Offsets acquired now, by any member. */
    public synchronized long acquiredCount() {
        return inFlight.acquiredCount();
    }

    /** The delivery complete count (KIP-1226) of the current state: see {@link InFlightRecords#deliveryCompleteCount}. */
    public synchronized int deliveryCompleteCount() {
        return inFlight.deliveryCompleteCount();
    }

    /** KIP-1103 {@code InFlightMessageCount}: offsets from the SPSO to the last acquired one, 0 when none. Lock-free. */
    public long inFlightMessageCount() {
        return inFlight.inFlightMessageCount();
    }

    /** KIP-1103 {@code InFlightBatchCount}: in-flight ranges (batches, split by partial acknowledgements). Lock-free. */
    public int inFlightBatchCount() {
        return inFlight.inFlightBatchCount();
    }

    /** Its lock expiries and archived records since it was loaded (lock-free). */
    public SharePartitionStats stats() {
        return stats;
    }

    /** Acquisition locks running now. */
    public synchronized int lockCount() {
        return locks.size();
    }

    private void expire(long lockId) {
        AcquisitionLock lock;
        synchronized (this) {
            lock = locks.get(lockId);
        }
        if (lock != null) {
            releaseWhere(range -> range.lockId == lockId, lock.firstOffset(), lock.lastOffset(), true);
        }
    }

    private CompletableFuture<Void> releaseWhere(java.util.function.Predicate<InFlightRange> filter, long first, long last,
                                                 boolean lockExpired) {
        CompletableFuture<Void> written;
        synchronized (this) {
            if (fenced) {
                return CompletableFuture.completedFuture(null);
            }
            Set<Long> touchedLocks = new HashSet<>();
            List<InFlightRange> ranges = inFlight.acquired(first, last, filter);
            if (ranges.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            List<InFlightRange> archived = new ArrayList<>();
            for (InFlightRange range : ranges) {
                if (lockExpired) {
                    stats.recordLockTimeout(range.count());
                }
                touchedLocks.add(range.lockId);
                if (applyAcknowledgement(range, ShareAcknowledgement.RELEASE) != null) {
                    archived.add(range.slice(range.firstOffset, range.lastOffset));
                }
            }
            touchedLocks.forEach(this::cancelIfUnused);
            inFlight.advanceStartOffset();
            written = enqueueWrite(this::snapshot, () -> archived.forEach(
                range -> notifyArchived(range, ArchiveReason.DELIVERY_COUNT_EXCEEDED)));
        }
        onRecordsAvailable.run();
        return written.exceptionally(e -> null);
    }

    /** @return why the delivered records were archived (REJECT, delivery count limit), else null */
    private ArchiveReason applyAcknowledgement(InFlightRange range, byte type) {
        boolean atLimit = range.deliveryCount >= config.deliveryCountLimit();
        switch (type) {
            case ShareAcknowledgement.ACCEPT -> range.transition(RecordState.ACKNOWLEDGED);
            case ShareAcknowledgement.RELEASE -> range.transition(atLimit ? RecordState.ARCHIVED : RecordState.AVAILABLE);
            default -> range.transition(RecordState.ARCHIVED); // REJECT, GAP
        }
        return type == ShareAcknowledgement.REJECT ? ArchiveReason.REJECTED
            : type == ShareAcknowledgement.RELEASE && atLimit ? ArchiveReason.DELIVERY_COUNT_EXCEEDED : null;
    }

    private void notifyArchived(InFlightRange range, ArchiveReason reason) {
        if (reason != null) {
            stats.recordArchived(reason, range.count());
            archiveListener.onArchived(new ArchivedRange(key, range.firstOffset, range.lastOffset, range.deliveryCount, reason));
        }
    }

    /** Cancels and forgets lock {@code lockId} once no ACQUIRED offset holds it. */
    private void cancelIfUnused(long lockId) {
        AcquisitionLock lock = locks.get(lockId);
        if (lock != null && inFlight.acquired(lock.firstOffset(), lock.lastOffset(), r -> r.lockId == lockId).isEmpty()) {
            lock.expiry().cancel(false);
            locks.remove(lockId);
        }
    }

    private ShareGroupState snapshot() {
        return inFlight.toState(stateEpoch, leaderEpoch);
    }

    /**
     * Queues a state write behind the ones before it, so the share coordinator receives this
     * share-partition's states in order and each reflects every write before it: when its turn
     * comes, {@code state} computes (under the monitor) the state to write, or null for none; once
     * it is written, {@code onWritten} runs under the monitor. A failed write fails the returned
     * future and skips {@code onWritten}; the writes after it still run.
     */
    private synchronized CompletableFuture<Void> enqueueWrite(java.util.function.Supplier<ShareGroupState> state,
                                                              Runnable onWritten) {
        CompletableFuture<Void> done = writeQueue.handle((v, e) -> null).thenCompose(v -> {
            ShareGroupState next;
            synchronized (this) {
                next = state.get();
            }
            if (next == null) {
                return CompletableFuture.completedFuture(null);
            }
            return write(next).thenRun(() -> {
                synchronized (this) {
                    onWritten.run();
                }
            });
        });
        writeQueue = done;
        return done;
    }

    /**
     * Writes a state. A write fenced by the share coordinator (FENCED_LEADER_EPOCH: a newer leader read
     * the state; FENCED_STATE_EPOCH: the state was re-initialized) fences this share-partition, as
     * Kafka's does: the manager then loads it again from the stored state.
     */
    private CompletableFuture<Void> write(ShareGroupState snapshot) {
        return persister.writeState(key, snapshot).whenComplete((ok, e) -> {
            if (e != null) {
                log.warn("Could not write the state of share-partition {}: {}", key, e.toString());
                Errors error = Errors.forException(e);
                if (error == Errors.FENCED_LEADER_EPOCH || error == Errors.FENCED_STATE_EPOCH) {
                    fence();
                }
            }
        });
    }

    /** Whether this share-partition was fenced (leadership lost, or its state write fenced). */
    public synchronized boolean isFenced() {
        return fenced;
    }
}
