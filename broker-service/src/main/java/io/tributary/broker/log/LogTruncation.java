package io.tributary.broker.log;

import io.tributary.broker.producer.ProducerStateManager;
import java.io.IOException;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Truncates one partition log, as Kafka's {@code UnifiedLog.truncateTo} and
 * {@code truncateFullyAndStartAt}: a follower that diverged from its leader removes everything at
 * or above an offset, or starts over empty. Each moves several of the log's parts at once (its
 * segments, leader epochs, recovery point, high watermark, producer state), so each runs whole
 * under the log's lock and bumps {@link PartitionLog#segmentsVersion()}, which refuses a cleaner
 * swap prepared before it.
 *
 * <p>Thread-safety: takes the log's lock; callers hold no lock (or the log's own, which is
 * reentrant).
 *
 * <p>Errors: I/O failures surface as {@link KafkaStorageException} (KAFKA_STORAGE_ERROR).
 */
final class LogTruncation {

    /** Truncation's log lines keep the category they had before it was split from {@link PartitionLog}. */
    private static final Logger log = LoggerFactory.getLogger(PartitionLog.class);

    private LogTruncation() {
    }

    /** @return whether anything was removed */
    static boolean truncateTo(PartitionLog partitionLog, long targetOffset, Time time) {
        LocalLog localLog = partitionLog.localLog();
        partitionLog.lock().lock();
        try {
            localLog.checkOpen();
            if (targetOffset >= partitionLog.logEndOffset()) {
                return false;
            }
            localLog.segmentsChanged();
            LogSegments segments = localLog.segments();
            try {
                if (targetOffset <= partitionLog.logStartOffset() || targetOffset < segments.firstBaseOffset()) {
                    truncateFullyAndStartAt(partitionLog, Math.max(targetOffset, 0));
                    return true;
                }
                localLog.truncateTo(targetOffset);
                partitionLog.leaderEpochCache().truncateFromEnd(targetOffset);
                if (partitionLog.recoveryPoint() > targetOffset) {
                    localLog.updateRecoveryPoint(targetOffset);
                }
                if (partitionLog.highWatermark() > targetOffset) {
                    partitionLog.highWatermarkState().set(localLog.logEndOffsetMetadata());
                }
                LogLoader.rebuildProducerState(partitionLog, partitionLog.producerStateManager(), segments,
                    partitionLog.logStartOffset(), targetOffset, time.milliseconds());
                log.info("Truncated {} to offset {}", partitionLog.topicPartition(), targetOffset);
                return true;
            } catch (IOException e) {
                throw new KafkaStorageException("Error truncating " + partitionLog.topicPartition() + " to "
                    + targetOffset, e);
            }
        } finally {
            partitionLog.lock().unlock();
        }
    }

    static void truncateFullyAndStartAt(PartitionLog partitionLog, long newOffset) {
        LocalLog localLog = partitionLog.localLog();
        ProducerStateManager producerStateManager = partitionLog.producerStateManager();
        partitionLog.lock().lock();
        try {
            localLog.checkOpen();
            localLog.segmentsChanged();
            try {
                localLog.removeAllSegmentsAndStartAt(newOffset);
                partitionLog.highWatermarkState().set(localLog.logEndOffsetMetadata());
                partitionLog.startAt(newOffset);
                localLog.updateRecoveryPoint(newOffset);
                partitionLog.leaderEpochCache().clear();
                producerStateManager.truncateFullyAndStartAt(newOffset);
            } catch (IOException e) {
                throw new KafkaStorageException("Error truncating " + partitionLog.topicPartition() + " fully", e);
            }
        } finally {
            partitionLog.lock().unlock();
        }
    }
}
