package io.tributary.broker.log;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.scheduler.Scheduler;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part of a partition log that lives in local files, as Kafka's {@code LocalLog}: the
 * directory, the {@link LogSegments}, the log end offset (LEO) with its position in the active
 * segment, the recovery point, the time of the last flush, whether the files are closed, and the
 * version of the set of segments. It knows nothing of the high watermark, the log start offset,
 * producer state or leader epochs: {@link PartitionLog} (Kafka's {@code UnifiedLog}) keeps those and
 * drives this class.
 *
 * <p>Invariants: the last segment is the active one and the log end offset is at or above its base
 * offset; recoveryPoint &lt;= logEndOffset and every segment below the recovery point is on disk;
 * {@link #segmentsVersion()} grows whenever segments are removed or rewritten other than by the
 * cleaner's swap.
 *
 * <p>Thread-safety: this class takes no lock of its own but for {@link #flush}, which takes the owning
 * {@link PartitionLog}'s lock (passed in) to move the recovery point. Every other method that changes
 * state is called with that lock held; the getters read volatile fields and need no lock.
 *
 * <p>Units: offsets are Kafka offsets, sizes bytes, times ms.
 *
 * <p>Errors: I/O failures are thrown as {@link IOException}; {@link PartitionLog}, the log's boundary,
 * converts them to {@link KafkaStorageException}. Only {@link #checkOpen} throws that directly.
 */
final class LocalLog {

    /** The log lines of the local log keep the category they had before it was split from {@link PartitionLog}. */
    private static final Logger log = LoggerFactory.getLogger(PartitionLog.class);

    private final ReentrantLock lock;
    private final TopicPartition topicPartition;
    private final LogSegments segments;
    private final Scheduler scheduler;
    private final Time time;
    private volatile File dir;
    private volatile LogConfig config;
    private volatile LogOffsetMetadata nextOffsetMetadata;
    private volatile long recoveryPoint;
    private volatile long lastFlushedTimeMs;
    private volatile boolean closed;
    /** Bumped (under the lock) by truncation, retention, renames and close: a cleaning prepared before is refused. */
    private volatile long segmentsVersion;

    /**
     * @param lock the owning log's lock, taken by {@link #flush}
     */
    LocalLog(ReentrantLock lock, File dir, TopicPartition topicPartition, LogConfig config, LogSegments segments,
             long recoveryPoint, LogOffsetMetadata nextOffsetMetadata, Scheduler scheduler, Time time) {
        this.lock = lock;
        this.dir = dir;
        this.topicPartition = topicPartition;
        this.config = config;
        this.segments = segments;
        this.recoveryPoint = recoveryPoint;
        this.nextOffsetMetadata = nextOffsetMetadata;
        this.scheduler = scheduler;
        this.time = time;
        this.lastFlushedTimeMs = time.milliseconds();
    }

    File dir() {
        return dir;
    }

    LogConfig config() {
        return config;
    }

    void updateConfig(LogConfig newConfig) {
        this.config = newConfig;
    }

    LogSegments segments() {
        return segments;
    }

    LogSegment activeSegment() {
        return segments.active();
    }

    /** The offset the next record will get. */
    long logEndOffset() {
        return nextOffsetMetadata.messageOffset();
    }

    LogOffsetMetadata logEndOffsetMetadata() {
        return nextOffsetMetadata;
    }

    long recoveryPoint() {
        return recoveryPoint;
    }

    /** Sets the recovery point (truncation, a raised log start offset). Caller holds the lock. */
    void updateRecoveryPoint(long offset) {
        this.recoveryPoint = offset;
    }

    /** Time of the last flush, ms. */
    long lastFlushedTimeMs() {
        return lastFlushedTimeMs;
    }

    boolean isClosed() {
        return closed;
    }

    /** Marks the files unusable until restart (a failed rollback or swap); caller holds the lock. */
    void markClosed() {
        closed = true;
    }

    long segmentsVersion() {
        return segmentsVersion;
    }

    /** Records that segments are about to be removed or rewritten, so a cleaning prepared before is refused. Caller holds the lock. */
    void segmentsChanged() {
        segmentsVersion++;
    }

    void checkOpen() {
        if (closed) {
            throw new KafkaStorageException("The log of " + topicPartition + " in " + dir + " is closed");
        }
    }

    /** Where an offset lies on disk, or unknown when it is not in the log. */
    LogOffsetMetadata convertToOffsetMetadata(long offset) {
        return segments.convertToOffsetMetadata(offset, nextOffsetMetadata);
    }

    /**
     * Whether an append of {@code appendBytes} ending at {@code maxOffsetInAppend} must go to a new
     * segment (size, age, index capacity or relative offset range). A compacted log rolls by
     * {@code max.compaction.lag.ms} too, so no record stays uncleanable in the active segment longer.
     */
    boolean shouldRoll(int appendBytes, long maxTimestampInAppend, long maxOffsetInAppend, long now) {
        long rollMs = config.compact() ? Math.min(config.segmentMs(), config.maxCompactionLagMs()) : config.segmentMs();
        return activeSegment().shouldRoll(config.segmentBytes(), rollMs, appendBytes, maxTimestampInAppend,
            maxOffsetInAppend, now);
    }

    /**
     * Writes validated batches to {@code segment} and moves the log end offset past them. A failed
     * write (full disk) is cut back to the last whole batch; if even that fails the log is closed
     * until restart, when recovery truncates the partial batch. Caller holds the lock.
     *
     * @throws IOException the write's error, after the rollback
     */
    void append(LogSegment segment, long lastOffset, long maxTimestamp, long shallowOffsetOfMax, MemoryRecords records)
            throws IOException {
        int sizeBefore = segment.size();
        try {
            segment.append(lastOffset, maxTimestamp, shallowOffsetOfMax, records);
        } catch (IOException e) {
            rollbackPartialWrite(segment, sizeBefore, e);
            throw e;
        }
        nextOffsetMetadata = new LogOffsetMetadata(lastOffset + 1, segment.baseOffset(), segment.size());
    }

    private void rollbackPartialWrite(LogSegment segment, int sizeBefore, IOException cause) {
        try {
            segment.log().truncateTo(sizeBefore);
            log.error("Append to {} failed and was rolled back to {} bytes: {}", topicPartition, sizeBefore, cause.toString());
        } catch (IOException | RuntimeException e) {
            log.error("Append to {} failed and could not be rolled back; the log is closed until restart, "
                + "when recovery truncates the partial batch", topicPartition, e);
            closed = true;
        }
    }

    /**
     * Opens a new active segment at {@code newOffset}, the log end offset, with a random roll
     * jitter below {@code segment.jitter.ms}. Caller holds the lock and has made the previous
     * active segment inactive.
     */
    LogSegment startNewActiveSegment(long newOffset) throws IOException {
        long jitter = config.segmentJitterMs() > 0 ? ThreadLocalRandom.current().nextLong(config.segmentJitterMs()) : 0;
        LogSegment segment = LogSegment.open(dir, newOffset, config.segmentIndexBytes(), config.indexIntervalBytes(),
            jitter, config.preallocate(), config.segmentBytes(), time, false, "");
        segments.add(segment);
        nextOffsetMetadata = new LogOffsetMetadata(newOffset, newOffset, 0);
        return segment;
    }

    /**
     * Removes every segment at or above {@code targetOffset} (delayed deletion) and truncates the
     * active one to it; the log end offset becomes {@code targetOffset}. Caller holds the lock and
     * has checked that {@code targetOffset} is in the first segment or above.
     */
    void truncateTo(long targetOffset) throws IOException {
        for (LogSegment segment : segments.after(targetOffset)) {
            segments.removeAndDeleteLater(segment, scheduler, config.fileDeleteDelayMs());
        }
        LogSegment active = activeSegment();
        active.truncateTo(targetOffset);
        active.resizeIndexesToMax();
        nextOffsetMetadata = new LogOffsetMetadata(targetOffset, active.baseOffset(), active.size());
    }

    /**
     * Removes every segment (delayed deletion) and opens an empty one at {@code newOffset}, the new
     * log end offset. Caller holds the lock.
     */
    void removeAllSegmentsAndStartAt(long newOffset) throws IOException {
        for (LogSegment segment : new ArrayList<>(segments.values())) {
            segments.removeAndDeleteLater(segment, scheduler, config.fileDeleteDelayMs());
        }
        LogSegment segment = LogSegment.open(dir, newOffset, config.segmentIndexBytes(), config.indexIntervalBytes(),
            0, config.preallocate(), config.segmentBytes(), time, false, "");
        segments.add(segment);
        nextOffsetMetadata = new LogOffsetMetadata(newOffset, newOffset, 0);
    }

    /** Removes segments (delayed deletion: renamed {@code .deleted}, closed after {@code file.delete.delay.ms}). Caller holds the lock. */
    void removeAndDeleteLater(List<LogSegment> toRemove) {
        for (LogSegment segment : toRemove) {
            segments.removeAndDeleteLater(segment, scheduler, config.fileDeleteDelayMs());
        }
    }

    /**
     * Forces segments up to {@code offset} (exclusive) to disk, then, under the owning log's lock,
     * moves the recovery point there (bounded by the log end offset). Errors other than I/O errors
     * are ignored once the log is closed (a flush scheduled by a roll may run after close).
     */
    void flush(long offset) throws IOException {
        if (offset <= recoveryPoint) {
            return;
        }
        try {
            for (LogSegment segment : segments.holdingRange(recoveryPoint, offset)) {
                segment.flush();
            }
            lock.lock();
            try {
                if (offset > recoveryPoint) {
                    recoveryPoint = Math.min(offset, logEndOffset());
                    lastFlushedTimeMs = time.milliseconds();
                }
            } finally {
                lock.unlock();
            }
        } catch (RuntimeException e) {
            if (!closed) {
                throw e;
            }
        }
    }

    /** Moves the directory to {@code newDir} and points the segments at it. Caller holds the lock. */
    void renameDir(File newDir) throws IOException {
        segmentsVersion++;
        Files.move(dir.toPath(), newDir.toPath(), StandardCopyOption.ATOMIC_MOVE);
        this.dir = newDir;
        segments.updateParentDir(newDir);
    }

    /** Closes the segments' files; caller holds the lock and has marked the log closed. */
    void closeSegments() {
        segments.close();
    }

    /** Closes file handles without flushing (the log is being deleted or its directory is offline). Caller holds the lock. */
    void closeHandlers() {
        closed = true;
        segmentsVersion++;
        segments.closeHandlers();
    }

    /**
     * Removes segments the cleaner found nothing to keep in, unless the log changed since
     * {@code expectedVersion}, is closed, or one of them is the active segment. Caller holds the lock.
     *
     * @return whether they were removed
     */
    boolean removeCleanedAwaySegments(List<LogSegment> emptied, long expectedVersion) {
        if (closed || segmentsVersion != expectedVersion || !segments.containsAll(emptied)
                || emptied.stream().anyMatch(s -> s == activeSegment())) {
            return false;
        }
        removeAndDeleteLater(emptied);
        return true;
    }

    /**
     * Swaps a cleaned segment in for {@code oldSegments} ({@link LogSegments#replace}), unless the
     * log changed since {@code expectedVersion} or is closed. An I/O error closes the log: the next
     * load completes the swap. Caller holds the lock.
     *
     * @return whether the swap happened
     */
    boolean replaceSegments(LogSegment cleaned, List<LogSegment> oldSegments, long expectedVersion, SwapHook hook)
            throws IOException {
        if (closed || segmentsVersion != expectedVersion || !segments.containsAll(oldSegments)) {
            return false;
        }
        try {
            segments.replace(cleaned, oldSegments, dir, scheduler, config.fileDeleteDelayMs(), hook);
        } catch (IOException e) {
            closed = true;
            throw e;
        }
        return true;
    }
}
