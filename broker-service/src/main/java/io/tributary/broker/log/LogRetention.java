package io.tributary.broker.log;

import java.io.IOException;
import java.util.List;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies retention to one partition log, as Kafka's {@code UnifiedLog.deleteOldSegments}: first
 * the segments wholly below the log start offset (DeleteRecords), then, with
 * {@code cleanup.policy=delete}, those beyond {@code retention.bytes} and those older than
 * {@code retention.ms}. {@link RetentionPolicy} decides which segments qualify; this class deletes
 * them and moves the log start offset, for retention and for every other caller that raises it
 * (DeleteRecords, a follower).
 *
 * <p>Invariants: never deletes a segment holding data at or above the high watermark; never leaves
 * the log without an active segment (it rolls first when every segment qualifies, so an empty
 * active segment stays at the log end offset); the log start offset only moves up.
 *
 * <p>Thread-safety: each of the three steps takes the log's lock for itself, as a retention run
 * always did; an append or roll may run between steps. Callers hold no lock.
 *
 * <p>Units: sizes in bytes, times in ms.
 */
final class LogRetention {

    /** Retention's log lines keep the category they had before it was split from {@link PartitionLog}. */
    private static final Logger log = LoggerFactory.getLogger(PartitionLog.class);

    private LogRetention() {
    }

    /** @return segments deleted */
    static int deleteOldSegments(PartitionLog partitionLog, Time time) {
        int deleted = deleteSegments(partitionLog, RetentionPolicy.belowLogStartOffset(partitionLog.logStartOffset()),
            "log start offset " + partitionLog.logStartOffset());
        if (!partitionLog.config().deleteEnabled()) {
            return deleted;
        }
        if (partitionLog.config().retentionBytes() >= 0) {
            deleted += deleteSegments(partitionLog, RetentionPolicy.bySize(partitionLog.size(),
                partitionLog.config().retentionBytes()), "retention.bytes " + partitionLog.config().retentionBytes());
        }
        if (partitionLog.config().retentionMs() >= 0) {
            deleted += deleteSegments(partitionLog, RetentionPolicy.byTime(time.milliseconds(),
                partitionLog.config().retentionMs()), "retention.ms " + partitionLog.config().retentionMs());
        }
        return deleted;
    }

    private static int deleteSegments(PartitionLog partitionLog, LogSegments.DeletionPredicate predicate, String reason) {
        LocalLog localLog = partitionLog.localLog();
        partitionLog.lock().lock();
        try {
            if (localLog.isClosed()) {
                return 0;
            }
            LogSegments segments = localLog.segments();
            List<LogSegment> deletable = segments.deletable(predicate, partitionLog.highWatermark(),
                partitionLog.logEndOffset());
            if (deletable.isEmpty()) {
                return 0;
            }
            if (deletable.size() == segments.count()) {
                partitionLog.roll();
            }
            localLog.segmentsChanged();
            localLog.removeAndDeleteLater(deletable);
            long logStartOffset = partitionLog.logStartOffset();
            long newStart = Math.max(logStartOffset, segments.firstBaseOffset());
            log.info("Deleted {} segment(s) of {} by {}; log start offset now {}", deletable.size(),
                partitionLog.topicPartition(), reason, newStart);
            if (newStart > logStartOffset) {
                partitionLog.maybeIncrementLogStartOffset(newStart, "segment deletion by " + reason);
            }
            return deletable.size();
        } finally {
            partitionLog.lock().unlock();
        }
    }

    /**
     * Raises the log start offset (DeleteRecords, retention, a follower following its leader),
     * dropping producer state and leader epochs below it.
     *
     * @throws OffsetOutOfRangeException if {@code newLogStartOffset} is above the high watermark
     */
    static boolean maybeIncrementLogStartOffset(PartitionLog partitionLog, long newLogStartOffset, String reason) {
        LocalLog localLog = partitionLog.localLog();
        partitionLog.lock().lock();
        try {
            localLog.checkOpen();
            long highWatermark = partitionLog.highWatermark();
            if (newLogStartOffset > highWatermark) {
                throw new OffsetOutOfRangeException("Cannot increment the log start offset of "
                    + partitionLog.topicPartition() + " to " + newLogStartOffset
                    + " since it is larger than the high watermark " + highWatermark);
            }
            if (newLogStartOffset <= partitionLog.logStartOffset()) {
                return false;
            }
            partitionLog.startAt(newLogStartOffset);
            // Nothing below the log start offset is ever recovered or flushed again; a recovery point
            // left below it would also make a pending flush range start past its own end.
            if (partitionLog.recoveryPoint() < newLogStartOffset) {
                localLog.updateRecoveryPoint(newLogStartOffset);
            }
            partitionLog.leaderEpochCache().truncateFromStart(newLogStartOffset);
            try {
                partitionLog.producerStateManager().onLogStartOffsetIncremented(newLogStartOffset);
            } catch (IOException e) {
                throw new KafkaStorageException("Error removing producer snapshots of " + partitionLog.topicPartition(), e);
            }
            log.info("Incremented the log start offset of {} to {} ({})", partitionLog.topicPartition(),
                newLogStartOffset, reason);
            return true;
        } finally {
            partitionLog.lock().unlock();
        }
    }
}
