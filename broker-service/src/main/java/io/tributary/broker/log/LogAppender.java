package io.tributary.broker.log;

import io.tributary.broker.producer.AppendOrigin;
import io.tributary.broker.producer.BatchMetadata;
import io.tributary.broker.producer.CompletedTxn;
import io.tributary.broker.producer.ProducerAppendInfo;
import io.tributary.broker.producer.ProducerStateManager;
import io.tributary.broker.producer.VerificationGuard;
import io.tributary.broker.scheduler.Scheduler;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path at the end of one partition log, as the append half of Kafka's {@code UnifiedLog}:
 * a leader's append (duplicate check, offset and epoch assignment by {@link LogValidator}, producer
 * state validation), a follower's append of batches that already carry offsets, the roll to a new
 * segment (on {@code segment.bytes}, {@code segment.ms}, index capacity), and flushing (by
 * {@code flush.messages} after an append, in the background after a roll, or on request).
 *
 * <p>Invariants: batches are written only at the log end offset and in offset order; producer
 * state and the leader epoch cache are updated only for batches that were written, and producer
 * state's map end offset follows the log end offset; a roll snapshots producer state at the new
 * segment's base offset before opening it.
 *
 * <p>Thread-safety: stateless apart from its collaborators; {@link #appendAsLeader},
 * {@link #appendAsFollower} and {@link #roll} are called with the owning {@link PartitionLog}'s lock
 * held; {@link #flush} needs no lock (it takes it to move the recovery point).
 *
 * <p>Errors: I/O failures are converted to {@link KafkaStorageException} here, at the log's boundary.
 */
final class LogAppender {

    /** Log lines keep the category they had before the write path was split from {@link PartitionLog}. */
    private static final Logger log = LoggerFactory.getLogger(PartitionLog.class);

    private final TopicPartition topicPartition;
    private final LocalLog localLog;
    private final ProducerStateManager producerStateManager;
    private final LeaderEpochFileCache leaderEpochCache;
    private final Scheduler scheduler;
    private final Time time;

    LogAppender(TopicPartition topicPartition, LocalLog localLog, ProducerStateManager producerStateManager,
                LeaderEpochFileCache leaderEpochCache, Scheduler scheduler, Time time) {
        this.topicPartition = topicPartition;
        this.localLog = localLog;
        this.producerStateManager = producerStateManager;
        this.leaderEpochCache = leaderEpochCache;
        this.scheduler = scheduler;
        this.time = time;
    }

    /**
     * Appends a producer's batches, analysed by {@link LogValidator#analyze}, to a leader's log.
     * Caller holds the lock.
     *
     * @param valid          the whole batches of the request
     * @param logStartOffset the log start offset, for the answer
     */
    LogAppendInfo appendAsLeader(LogValidator.BatchSummary summary, MemoryRecords valid, int leaderEpoch,
                                 long logStartOffset) {
        return appendAsLeader(summary, valid, leaderEpoch, logStartOffset, AppendOrigin.CLIENT,
            VerificationGuard.NOT_REQUIRED);
    }

    /**
     * As {@link #appendAsLeader(LogValidator.BatchSummary, MemoryRecords, int, long)}, for a client or
     * a transaction coordinator's markers ({@link AppendOrigin#COORDINATOR}); a client's append holds
     * {@code requestGuard} (KIP-890 part 1). Caller holds the lock.
     */
    LogAppendInfo appendAsLeader(LogValidator.BatchSummary summary, MemoryRecords valid, int leaderEpoch,
                                 long logStartOffset, AppendOrigin origin, VerificationGuard requestGuard) {
        localLog.checkOpen();
        if (summary.batchCount() == 0) {
            return LogAppendInfo.empty(localLog.logEndOffset(), logStartOffset);
        }
        long now = time.milliseconds();
        long firstOffset = localLog.logEndOffset();
        // Records are checked before a retry is recognised, as Kafka does: a "retry" whose records
        // the topic refuses (a keyless record on a compacted topic) is refused, not answered as written.
        LogValidator.AssignedOffsets assigned = LogValidator.validateAndAssignOffsets(topicPartition, valid,
            firstOffset, leaderEpoch, localLog.config(), now);
        MemoryRecords toWrite = assigned.records(); // the batches as sent, or with a compressed one rebuilt
        // Only a client retries (Kafka's rule): a coordinator's batches reuse sequence 0 on purpose.
        Optional<BatchMetadata> duplicate = summary.hasProducerId() && origin == AppendOrigin.CLIENT
            ? producerStateManager.findDuplicate(toWrite.batches()) : Optional.empty();
        if (duplicate.isPresent()) {
            BatchMetadata d = duplicate.get();
            return new LogAppendInfo(d.firstOffset(), d.lastOffset(), d.timestamp(),
                RecordBatch.NO_TIMESTAMP, logStartOffset, 0, 0, true);
        }
        Map<Long, ProducerAppendInfo> producers = summary.hasProducerId()
            ? producerStateManager.prepareAppend(toWrite.batches(), origin, requestGuard, now) : Map.of();
        leaderEpochCache.assign(leaderEpoch, firstOffset);
        commitAppend(toWrite, producers, assigned.lastOffset(), assigned.maxTimestamp(),
            assigned.shallowOffsetOfMaxTimestamp(), now);
        return new LogAppendInfo(firstOffset, assigned.lastOffset(), assigned.maxTimestamp(), assigned.logAppendTime(),
            logStartOffset, summary.recordCount(), summary.validBytes(), false);
    }

    /**
     * Whether {@link #appendAsLeader} of these batches could block: the log is closed, the topic
     * forces flushes ({@code flush.messages} or {@code flush.ms} set, whose fsync of the active
     * segment a write could queue behind), the leader epoch is new (its checkpoint is written), the
     * roll check would read the segment file, or a roll is due, judged with a timestamp and last
     * offset at least as large as those the append will assign. Caller holds the lock; never waits.
     */
    boolean appendWouldBlock(LogValidator.BatchSummary summary, MemoryRecords valid, int leaderEpoch) {
        if (localLog.isClosed()) {
            return true;
        }
        if (summary.batchCount() == 0) {
            return false;
        }
        if (localLog.config().targetCompression().isPresent()) {
            return true; // batches may be compressed again with the topic's codec: size unknown, CPU-bound
        }
        if (localLog.config().flushMessages() != Long.MAX_VALUE || localLog.config().flushMs() != Long.MAX_VALUE) {
            return true;
        }
        if (leaderEpoch != RecordBatch.NO_PARTITION_LEADER_EPOCH && !leaderEpochCache.hasEpochAtLeast(leaderEpoch)) {
            return true;
        }
        if (!localLog.activeSegment().rollCheckReadsNothing()) {
            return true;
        }
        // A second ahead: the append checks again a little later, and must not find a roll this check missed.
        long now = time.milliseconds() + 1_000;
        long maxTimestamp = now;
        for (RecordBatch batch : valid.batches()) {
            maxTimestamp = Math.max(maxTimestamp, batch.maxTimestamp());
        }
        return localLog.shouldRoll(sizeBound(valid), maxTimestamp,
            localLog.logEndOffset() + summary.recordCount(), now);
    }

    /**
     * The bytes an append of these batches may write, for the roll check of one that must not block:
     * a compressed batch may be rebuilt ({@link LogValidator#validateAndAssignOffsets}) and so
     * compressed again at its codec's default level, which is not known before; twice its size and a
     * batch header are allowed for it.
     */
    private static int sizeBound(MemoryRecords valid) {
        long bound = 0;
        for (RecordBatch batch : valid.batches()) {
            bound += batch.isCompressed() ? 2L * batch.sizeInBytes() + DefaultRecordBatch.RECORD_BATCH_OVERHEAD
                : batch.sizeInBytes();
        }
        return (int) Math.min(Integer.MAX_VALUE, bound);
    }

    /**
     * Appends batches copied from the leader, analysed by {@link LogValidator#analyze}. Caller holds
     * the lock.
     *
     * @param logStartOffset the log start offset, for the answer
     */
    LogAppendInfo appendAsFollower(LogValidator.BatchSummary summary, MemoryRecords valid, long logStartOffset) {
        localLog.checkOpen();
        if (summary.batchCount() == 0) {
            return LogAppendInfo.empty(localLog.logEndOffset(), logStartOffset);
        }
        LogValidator.ReplicatedOffsets offsets = LogValidator.replicatedOffsets(topicPartition, valid);
        if (offsets.firstOffset() < localLog.logEndOffset()) {
            throw new IllegalStateException("Follower append to " + topicPartition + " starts at "
                + offsets.firstOffset() + ", below the log end offset " + localLog.logEndOffset());
        }
        for (MutableRecordBatch batch : valid.batches()) {
            leaderEpochCache.assign(batch.partitionLeaderEpoch(), batch.baseOffset());
        }
        long now = time.milliseconds();
        Map<Long, ProducerAppendInfo> producers = summary.hasProducerId()
            ? producerStateManager.prepareAppend(valid.batches(), AppendOrigin.REPLICATION, now) : Map.of();
        commitAppend(valid, producers, offsets.lastOffset(), offsets.maxTimestamp(),
            offsets.shallowOffsetOfMaxTimestamp(), now);
        return new LogAppendInfo(offsets.firstOffset(), offsets.lastOffset(), offsets.maxTimestamp(),
            RecordBatch.NO_TIMESTAMP, logStartOffset, summary.recordCount(), summary.validBytes(), false);
    }

    /** Writes validated batches (rolling first if needed) and commits their producer state. Caller holds the lock. */
    private void commitAppend(MemoryRecords records, Map<Long, ProducerAppendInfo> producers, long lastOffset,
                              long maxTimestamp, long shallowOffsetOfMaxTimestamp, long now) {
        LogSegment segment = localLog.shouldRoll(records.sizeInBytes(), maxTimestamp, lastOffset, now)
            ? roll() : localLog.activeSegment();
        try {
            localLog.append(segment, lastOffset, maxTimestamp, shallowOffsetOfMaxTimestamp, records);
        } catch (IOException e) {
            throw new KafkaStorageException("Error appending " + records.sizeInBytes() + " bytes to " + topicPartition
                + " in " + localLog.dir() + ": " + e.getMessage(), e);
        }
        List<CompletedTxn> completed = List.of();
        for (ProducerAppendInfo producer : producers.values()) {
            producerStateManager.update(producer);
            if (!producer.completedTransactions().isEmpty()) {
                completed = completed.isEmpty() ? new ArrayList<>() : completed;
                completed.addAll(producer.completedTransactions());
            }
        }
        if (!completed.isEmpty()) {
            completed.sort(Comparator.comparingLong(CompletedTxn::lastOffset)); // the index is in marker order
            for (CompletedTxn txn : completed) {
                completeTransaction(segment, txn);
            }
        }
        producerStateManager.updateMapEndOffset(lastOffset + 1);
        maybeFlushByMessages();
    }

    /**
     * Records a transaction a marker closed: an aborted one in the segment's transaction index, with
     * the last stable offset as of its end (Kafka's order: index first, then producer state).
     */
    private void completeTransaction(LogSegment segment, CompletedTxn txn) {
        try {
            completeTransaction(producerStateManager, segment, txn);
        } catch (IOException e) {
            throw new KafkaStorageException("Error writing the transaction index of " + topicPartition + ": " + e, e);
        }
    }

    /** As an append completes a transaction, also for recovery's replay (which may find it indexed already). */
    static void completeTransaction(ProducerStateManager producerStateManager, LogSegment segment, CompletedTxn txn)
            throws IOException {
        long lastStableOffset = producerStateManager.lastStableOffset(txn);
        if (txn.isAborted()) {
            segment.txnIndex().append(new TransactionIndex.AbortedTxnEntry(txn.producerId(), txn.firstOffset(),
                txn.lastOffset(), lastStableOffset));
        }
        producerStateManager.completeTxn(txn);
    }

    private void maybeFlushByMessages() {
        if (localLog.logEndOffset() - localLog.recoveryPoint() >= localLog.config().flushMessages()) {
            flush(localLog.logEndOffset());
        }
    }

    /**
     * Starts a new active segment at the log end offset, snapshots the producer state there, and
     * flushes the previous segment in the background (which advances the recovery point); does
     * nothing when the active segment is empty and already at the log end. Caller holds the lock.
     */
    LogSegment roll() {
        localLog.checkOpen();
        long newOffset = localLog.logEndOffset();
        LogSegment active = localLog.activeSegment();
        if (active.baseOffset() == newOffset && active.size() == 0) {
            return active;
        }
        try {
            active.onBecomeInactiveSegment();
            producerStateManager.updateMapEndOffset(newOffset);
            producerStateManager.takeSnapshot();
            LogSegment segment = localLog.startNewActiveSegment(newOffset);
            scheduler.scheduleOnce("flush-" + topicPartition, () -> flushUpTo(newOffset));
            log.debug("Rolled {} to a new segment at offset {}", topicPartition, newOffset);
            return segment;
        } catch (IOException e) {
            throw new KafkaStorageException("Error rolling " + topicPartition + " at offset " + newOffset + ": " + e, e);
        }
    }

    /** Forces segments up to {@code offset} (exclusive) to disk and moves the recovery point there. */
    void flush(long offset) {
        try {
            localLog.flush(offset);
        } catch (IOException e) {
            throw new KafkaStorageException("Error flushing " + topicPartition + " up to offset " + offset, e);
        }
    }

    private void flushUpTo(long offset) {
        if (!localLog.isClosed()) {
            flush(offset);
        }
    }
}
