package io.tributary.broker.log;

import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.common.record.internal.MemoryRecords;

/**
 * A leader append prepared to run without waiting, for a caller that must not block (a network
 * thread, docs/broker-internals.md "Produce on the network thread"): the log's lock and the active
 * segment's index locks are held, and nothing the append does can block. Built by
 * {@link PartitionLog#tryLockForAppend}, which answers null instead when a lock is busy or the
 * append could block ({@link LogAppender#appendWouldBlock}: a roll, a forced flush, a new leader
 * epoch to checkpoint).
 *
 * <p>Thread-safety: confined to the thread that prepared it, since it holds that thread's locks.
 * Call {@link #append} at most once, then {@link #unlock}, always.
 */
public final class PreparedAppend {

    private final PartitionLog partitionLog;
    private final LogValidator.BatchSummary summary;
    private final MemoryRecords valid;
    private final int leaderEpoch;
    private final LogSegment segment;

    private PreparedAppend(PartitionLog partitionLog, LogValidator.BatchSummary summary, MemoryRecords valid,
                           int leaderEpoch, LogSegment segment) {
        this.partitionLog = partitionLog;
        this.summary = summary;
        this.valid = valid;
        this.leaderEpoch = leaderEpoch;
        this.segment = segment;
    }

    /**
     * Takes the locks only if they are free and the append cannot block; null, holding nothing,
     * otherwise. Null too for batches that fail validation: the caller appends them the ordinary
     * way, which reports the error.
     */
    static PreparedAppend tryLock(PartitionLog partitionLog, MemoryRecords records, int leaderEpoch) {
        LogValidator.BatchSummary summary;
        try {
            summary = LogValidator.analyze(partitionLog.topicPartition(), records, partitionLog.config(), true);
        } catch (RuntimeException e) {
            return null;
        }
        MemoryRecords valid = summary.wholeBatches(records);
        ReentrantLock lock = partitionLog.lock();
        if (!lock.tryLock()) {
            return null;
        }
        boolean prepared = false;
        try {
            if (partitionLog.appender().appendWouldBlock(summary, valid, leaderEpoch)) {
                return null;
            }
            LogSegment segment = partitionLog.localLog().activeSegment();
            if (!segment.tryLockIndexes()) {
                return null;
            }
            prepared = true;
            return new PreparedAppend(partitionLog, summary, valid, leaderEpoch, segment);
        } catch (RuntimeException e) {
            return null;
        } finally {
            if (!prepared) {
                lock.unlock();
            }
        }
    }

    /** As {@link PartitionLog#appendAsLeader}, with the same errors. */
    public LogAppendInfo append() {
        return partitionLog.appender().appendAsLeader(summary, valid, leaderEpoch, partitionLog.logStartOffset());
    }

    /** Releases the locks. */
    public void unlock() {
        segment.unlockIndexes();
        partitionLog.lock().unlock();
    }
}
