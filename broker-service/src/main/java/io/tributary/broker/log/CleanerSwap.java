package io.tributary.broker.log;

import java.io.IOException;
import java.util.List;
import org.apache.kafka.common.errors.KafkaStorageException;

/**
 * The cleaner's changes to a partition log's segments, under the log's lock: the swap of a cleaned
 * segment for the segments it was cleaned from, and the removal of segments it emptied. Each is
 * refused, changing nothing, when the log changed since the cleaner read it
 * ({@link PartitionLog#segmentsVersion()}) or is closed. A high watermark position inside a removed
 * segment is forgotten (recomputed on the next read).
 *
 * <p>Thread-safety: takes the log's lock; called from the cleaner thread, holding no lock.
 */
final class CleanerSwap {

    private CleanerSwap() {
    }

    /**
     * Removes segments the cleaner found nothing to keep in (they follow a segment it just swapped
     * in), oldest first, with delayed file deletion; refused like {@link #replaceSegments}.
     *
     * @return whether they were removed
     */
    static boolean removeCleanedAwaySegments(PartitionLog partitionLog, List<LogSegment> emptied, long expectedVersion) {
        partitionLog.lock().lock();
        try {
            if (!partitionLog.localLog().removeCleanedAwaySegments(emptied, expectedVersion)) {
                return false;
            }
            partitionLog.highWatermarkState().forgetPositionIn(emptied);
            return true;
        } finally {
            partitionLog.lock().unlock();
        }
    }

    /**
     * Swaps a cleaned segment in for the old segments it was cleaned from (see
     * {@link LogSegments#replace} for the protocol on disk), unless the log changed since
     * {@code expectedVersion} or is closed: then nothing is changed and the caller deletes the
     * cleaned segment. A high watermark position inside a replaced segment is forgotten (it is
     * recomputed on the next read). An I/O error closes the log; the next load completes the swap.
     *
     * @return whether the swap happened
     */
    static boolean replaceSegments(PartitionLog partitionLog, LogSegment cleaned, List<LogSegment> oldSegments,
                                   long expectedVersion, SwapHook hook) {
        partitionLog.lock().lock();
        try {
            try {
                if (!partitionLog.localLog().replaceSegments(cleaned, oldSegments, expectedVersion, hook)) {
                    return false;
                }
            } catch (IOException e) {
                throw new KafkaStorageException("Error swapping a cleaned segment into " + partitionLog.topicPartition()
                    + "; the log is closed until restart, when the swap is completed: " + e, e);
            }
            partitionLog.highWatermarkState().forgetPositionIn(oldSegments);
            return true;
        } finally {
            partitionLog.lock().unlock();
        }
    }
}
