package io.tributary.broker.log;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.producer.AppendOrigin;
import io.tributary.broker.producer.BatchMetadata;
import io.tributary.broker.producer.ProducerAppendInfo;
import io.tributary.broker.producer.ProducerStateManager;
import io.tributary.broker.scheduler.Scheduler;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of one partition replica: an ordered set of {@link LogSegment}s with the log start
 * offset, log end offset (LEO), high watermark and recovery point, the producer state used for
 * idempotence and the leader epoch cache.
 *
 * <p>Invariants: logStartOffset &lt;= highWatermark &lt;= logEndOffset; segments are keyed by base
 * offset, the last is active; recoveryPoint &lt;= logEndOffset and everything below it is on disk.
 *
 * <p>Thread-safety: every change (append, roll, truncation, retention, config) holds the log's
 * lock; reads never lock and see a consistent prefix bounded by the volatile end offsets.
 * The cleaner reads non-active segments without the lock and swaps cleaned segments in under it
 * ({@link #replaceSegments}); every other change that removes or rewrites segments bumps
 * {@link #segmentsVersion()}, and a swap prepared against an older version is refused.
 * Retention and segment roll retention rely on delayed deletion: a removed segment is renamed
 * {@code .deleted} and its files closed only after {@code file.delete.delay.ms}, so reads in
 * flight (including zero-copy sends) complete.
 *
 * <p>Errors: I/O failures surface as {@link KafkaStorageException} (KAFKA_STORAGE_ERROR); a
 * failed write is rolled back so the file never keeps a partial batch.
 *
 * <p>Size: this class is over the house's 500 lines on purpose. It is the single owner of the
 * log's offsets (log start, high watermark, log end, recovery point) and their invariants;
 * appends, rolls, truncation and retention each move several of them under one lock, so they
 * stay together, as in Kafka's {@code UnifiedLog}; the cleaner's swap is here for the same reason
 * (it must be atomic with them). Lookups across segments live in {@link LogSegments}, loading and
 * recovery in {@link LogLoader}, validation in {@link LogValidator}, retention rules in
 * {@link RetentionPolicy}, compaction in {@link Cleaner}.
 */
public final class PartitionLog {

    private static final Logger log = LoggerFactory.getLogger(PartitionLog.class);

    private final Object lock = new Object();
    private final TopicPartition topicPartition;
    private final LogSegments segments;
    private final ProducerStateManager producerStateManager;
    private final LeaderEpochFileCache leaderEpochCache;
    private final PartitionMetadataFile partitionMetadataFile;
    private final Scheduler scheduler;
    private final Time time;
    private volatile File dir;
    private volatile LogConfig config;
    private volatile LogOffsetMetadata nextOffsetMetadata;
    private volatile LogOffsetMetadata highWatermarkMetadata;
    private volatile long logStartOffset;
    private volatile long recoveryPoint;
    private volatile long lastFlushedTimeMs;
    private volatile boolean closed;
    /** Bumped (under the lock) by truncation, retention, renames and close: a cleaning prepared before is refused. */
    private volatile long segmentsVersion;

    PartitionLog(File dir, TopicPartition topicPartition, LogConfig config, LogSegments segments,
                 long logStartOffset, long recoveryPoint, LogOffsetMetadata nextOffsetMetadata, long highWatermark,
                 ProducerStateManager producerStateManager, LeaderEpochFileCache leaderEpochCache,
                 Scheduler scheduler, Time time) {
        this.dir = dir;
        this.topicPartition = topicPartition;
        this.config = config;
        this.segments = segments;
        this.logStartOffset = logStartOffset;
        this.recoveryPoint = recoveryPoint;
        this.nextOffsetMetadata = nextOffsetMetadata;
        this.producerStateManager = producerStateManager;
        this.leaderEpochCache = leaderEpochCache;
        this.partitionMetadataFile = new PartitionMetadataFile(dir);
        this.scheduler = scheduler;
        this.time = time;
        this.lastFlushedTimeMs = time.milliseconds();
        long hw = Math.min(Math.max(highWatermark, logStartOffset), nextOffsetMetadata.messageOffset());
        this.highWatermarkMetadata = hw == nextOffsetMetadata.messageOffset()
            ? nextOffsetMetadata : LogOffsetMetadata.unknownPosition(hw);
    }

    public TopicPartition topicPartition() {
        return topicPartition;
    }

    public File dir() {
        return dir;
    }

    public LogConfig config() {
        return config;
    }

    /** Applies a new topic config to future appends, rolls and retention runs. */
    public void updateConfig(LogConfig newConfig) {
        this.config = newConfig;
    }

    public long logStartOffset() {
        return logStartOffset;
    }

    /** The offset the next record will get. */
    public long logEndOffset() {
        return nextOffsetMetadata.messageOffset();
    }

    public LogOffsetMetadata logEndOffsetMetadata() {
        return nextOffsetMetadata;
    }

    public long highWatermark() {
        return highWatermarkMetadata.messageOffset();
    }

    public long recoveryPoint() {
        return recoveryPoint;
    }

    public LeaderEpochFileCache leaderEpochCache() {
        return leaderEpochCache;
    }

    public ProducerStateManager producerStateManager() {
        return producerStateManager;
    }

    /** The topic id stored beside the log, if any. */
    public Optional<Uuid> topicId() {
        return partitionMetadataFile.read();
    }

    /** Stores the topic id beside the log. */
    public void assignTopicId(Uuid topicId) throws IOException {
        if (!topicId.equals(partitionMetadataFile.read().orElse(null))) {
            partitionMetadataFile.write(topicId);
        }
    }

    /** Total bytes of the segment files. */
    public long size() {
        return segments.sizeInBytes();
    }

    public int numberOfSegments() {
        return segments.count();
    }

    /** Base offsets of the segments, oldest first. */
    public List<Long> segmentBaseOffsets() {
        return segments.baseOffsets();
    }

    LogSegment activeSegment() {
        return segments.active();
    }

    /**
     * Appends records from a producer to this leader's log: validates them, drops a retried
     * duplicate, assigns offsets and the leader epoch in place, and writes them.
     *
     * @throws RecordValidationException for invalid records (INVALID_RECORD, CORRUPT_MESSAGE, ...)
     * @throws org.apache.kafka.common.errors.OutOfOrderSequenceException for a sequence gap
     * @throws org.apache.kafka.common.errors.InvalidProducerEpochException for a fenced producer epoch
     * @throws KafkaStorageException when the write fails
     */
    public LogAppendInfo appendAsLeader(MemoryRecords records, int leaderEpoch) {
        LogValidator.BatchSummary summary = LogValidator.analyze(topicPartition, records, config, true);
        MemoryRecords valid = summary.wholeBatches(records);
        synchronized (lock) {
            checkOpen();
            if (summary.batchCount() == 0) {
                return LogAppendInfo.empty(logEndOffset(), logStartOffset);
            }
            if (summary.hasProducerId()) {
                for (MutableRecordBatch batch : valid.batches()) {
                    if (batch.hasProducerId()) {
                        Optional<BatchMetadata> duplicate = producerStateManager.findDuplicate(batch);
                        if (duplicate.isPresent()) {
                            BatchMetadata d = duplicate.get();
                            return new LogAppendInfo(d.firstOffset(), d.lastOffset(), d.timestamp(),
                                RecordBatch.NO_TIMESTAMP, logStartOffset, 0, 0, true);
                        }
                    }
                }
            }
            long now = time.milliseconds();
            long firstOffset = logEndOffset();
            LogValidator.AssignedOffsets assigned = LogValidator.validateAndAssignOffsets(topicPartition, valid,
                firstOffset, leaderEpoch, config, now);
            Map<Long, ProducerAppendInfo> producers = summary.hasProducerId()
                ? validateProducerState(valid, AppendOrigin.CLIENT, now) : Map.of();
            leaderEpochCache.assign(leaderEpoch, firstOffset);
            commitAppend(valid, producers, assigned.lastOffset(), assigned.maxTimestamp(),
                assigned.shallowOffsetOfMaxTimestamp(), now);
            return new LogAppendInfo(firstOffset, assigned.lastOffset(), assigned.maxTimestamp(), assigned.logAppendTime(),
                logStartOffset, summary.recordCount(), summary.validBytes(), false);
        }
    }

    /**
     * Appends batches copied from the leader, which already carry offsets and epochs.
     *
     * @throws RecordValidationException for corrupt batches
     * @throws IllegalStateException when the batches do not start at the log end offset
     */
    public LogAppendInfo appendAsFollower(MemoryRecords records) {
        LogValidator.BatchSummary summary = LogValidator.analyze(topicPartition, records, config, false);
        MemoryRecords valid = summary.wholeBatches(records);
        synchronized (lock) {
            checkOpen();
            if (summary.batchCount() == 0) {
                return LogAppendInfo.empty(logEndOffset(), logStartOffset);
            }
            LogValidator.ReplicatedOffsets offsets = LogValidator.replicatedOffsets(topicPartition, valid);
            if (offsets.firstOffset() < logEndOffset()) {
                throw new IllegalStateException("Follower append to " + topicPartition + " starts at "
                    + offsets.firstOffset() + ", below the log end offset " + logEndOffset());
            }
            for (MutableRecordBatch batch : valid.batches()) {
                leaderEpochCache.assign(batch.partitionLeaderEpoch(), batch.baseOffset());
            }
            long now = time.milliseconds();
            Map<Long, ProducerAppendInfo> producers = summary.hasProducerId()
                ? validateProducerState(valid, AppendOrigin.REPLICATION, now) : Map.of();
            commitAppend(valid, producers, offsets.lastOffset(), offsets.maxTimestamp(),
                offsets.shallowOffsetOfMaxTimestamp(), now);
            return new LogAppendInfo(offsets.firstOffset(), offsets.lastOffset(), offsets.maxTimestamp(),
                RecordBatch.NO_TIMESTAMP, logStartOffset, summary.recordCount(), summary.validBytes(), false);
        }
    }

    /** Writes validated batches (rolling first if needed) and commits their producer state. Caller holds the lock. */
    private void commitAppend(MemoryRecords records, Map<Long, ProducerAppendInfo> producers, long lastOffset,
                              long maxTimestamp, long shallowOffsetOfMaxTimestamp, long now) {
        LogSegment segment = maybeRoll(records.sizeInBytes(), maxTimestamp, lastOffset, now);
        writeToSegment(segment, lastOffset, maxTimestamp, shallowOffsetOfMaxTimestamp, records);
        producers.values().forEach(producerStateManager::update);
        producerStateManager.updateMapEndOffset(lastOffset + 1);
        maybeFlushByMessages();
    }

    private Map<Long, ProducerAppendInfo> validateProducerState(MemoryRecords records, AppendOrigin origin, long now) {
        Map<Long, ProducerAppendInfo> producers = new HashMap<>();
        for (MutableRecordBatch batch : records.batches()) {
            if (batch.hasProducerId()) {
                producers.computeIfAbsent(batch.producerId(), id -> producerStateManager.prepareUpdate(id, origin))
                    .append(batch, now);
            }
        }
        return producers;
    }

    private void writeToSegment(LogSegment segment, long lastOffset, long maxTimestamp, long shallowOffsetOfMax,
                                MemoryRecords records) {
        int sizeBefore = segment.size();
        try {
            segment.append(lastOffset, maxTimestamp, shallowOffsetOfMax, records);
        } catch (IOException e) {
            rollbackPartialWrite(segment, sizeBefore, e);
            throw new KafkaStorageException("Error appending " + records.sizeInBytes() + " bytes to " + topicPartition
                + " in " + dir + ": " + e.getMessage(), e);
        }
        nextOffsetMetadata = new LogOffsetMetadata(lastOffset + 1, segment.baseOffset(), segment.size());
    }

    /** A failed write (full disk) may leave part of a batch: cut the file back to its last whole batch. */
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

    private void maybeFlushByMessages() {
        if (logEndOffset() - recoveryPoint >= config.flushMessages()) {
            flush(logEndOffset());
        }
    }

    /**
     * Rolls to a new segment if the append would overflow the active one by size, age, index
     * capacity or relative offset range. Caller holds the lock.
     */
    private LogSegment maybeRoll(int appendBytes, long maxTimestampInAppend, long maxOffsetInAppend, long now) {
        LogSegment active = activeSegment();
        // A compacted log rolls by max.compaction.lag.ms too, so no record stays uncleanable in the active segment longer.
        long rollMs = config.compact() ? Math.min(config.segmentMs(), config.maxCompactionLagMs()) : config.segmentMs();
        if (active.shouldRoll(config.segmentBytes(), rollMs, appendBytes, maxTimestampInAppend,
                maxOffsetInAppend, now)) {
            return roll();
        }
        return active;
    }

    /**
     * Starts a new active segment at the log end offset, snapshots the producer state there, and
     * flushes the previous segment in the background (which advances the recovery point).
     */
    public LogSegment roll() {
        synchronized (lock) {
            checkOpen();
            long newOffset = logEndOffset();
            LogSegment active = activeSegment();
            if (active.baseOffset() == newOffset && active.size() == 0) {
                return active;
            }
            try {
                active.onBecomeInactiveSegment();
                producerStateManager.updateMapEndOffset(newOffset);
                producerStateManager.takeSnapshot();
                long jitter = config.segmentJitterMs() > 0 ? ThreadLocalRandom.current().nextLong(config.segmentJitterMs()) : 0;
                LogSegment segment = LogSegment.open(dir, newOffset, config.segmentIndexBytes(), config.indexIntervalBytes(),
                    jitter, config.preallocate(), config.segmentBytes(), time, false, "");
                segments.add(segment);
                nextOffsetMetadata = new LogOffsetMetadata(newOffset, newOffset, 0);
                scheduler.scheduleOnce("flush-" + topicPartition, () -> flushUpTo(newOffset));
                log.debug("Rolled {} to a new segment at offset {}", topicPartition, newOffset);
                return segment;
            } catch (IOException e) {
                throw new KafkaStorageException("Error rolling " + topicPartition + " at offset " + newOffset + ": " + e, e);
            }
        }
    }

    /**
     * Reads from {@code startOffset}.
     *
     * @param maxLength     byte limit
     * @param isolation     how far the read may go
     * @param minOneMessage whether the first batch is returned whole even above {@code maxLength}
     * @throws OffsetOutOfRangeException if {@code startOffset} is below the log start or above the log end
     */
    public FetchDataInfo read(long startOffset, int maxLength, FetchIsolation isolation, boolean minOneMessage) {
        LogOffsetMetadata end = nextOffsetMetadata;
        long logStart = logStartOffset;
        if (startOffset > end.messageOffset() || startOffset < logStart) {
            throw new OffsetOutOfRangeException("Offset " + startOffset + " is out of range for " + topicPartition
                + ": log start offset " + logStart + ", log end offset " + end.messageOffset());
        }
        LogOffsetMetadata maxOffsetMetadata = isolation == FetchIsolation.LOG_END ? end : fetchHighWatermarkMetadata();
        if (startOffset >= maxOffsetMetadata.messageOffset()) {
            return FetchDataInfo.empty(startOffset == maxOffsetMetadata.messageOffset()
                ? maxOffsetMetadata : LogOffsetMetadata.unknownPosition(startOffset));
        }
        return segments.read(startOffset, maxLength, maxOffsetMetadata, minOneMessage, end);
    }

    /** The high watermark with its position, computing the position if unknown. */
    public LogOffsetMetadata fetchHighWatermarkMetadata() {
        LogOffsetMetadata hw = highWatermarkMetadata;
        if (hw.positionKnown()) {
            return hw;
        }
        synchronized (lock) {
            hw = highWatermarkMetadata;
            if (!hw.positionKnown()) {
                hw = convertToOffsetMetadata(hw.messageOffset());
                if (hw.positionKnown()) {
                    highWatermarkMetadata = hw;
                }
            }
            return hw;
        }
    }

    /** Where an offset lies on disk, or unknown when it is not in the log. */
    public LogOffsetMetadata convertToOffsetMetadata(long offset) {
        return segments.convertToOffsetMetadata(offset, nextOffsetMetadata);
    }

    /**
     * Moves the high watermark up to {@code newHighWatermark} (bounded by the log end offset).
     *
     * @return whether it moved
     */
    public boolean maybeIncrementHighWatermark(LogOffsetMetadata newHighWatermark) {
        synchronized (lock) {
            LogOffsetMetadata current = highWatermarkMetadata;
            long newOffset = Math.min(newHighWatermark.messageOffset(), logEndOffset());
            // A position in a non-active segment may be stale (the cleaner rewrites those): keep only the offset.
            boolean positionTrusted = newHighWatermark.positionKnown()
                && newHighWatermark.segmentBaseOffset() == activeSegment().baseOffset();
            LogOffsetMetadata candidate = newOffset == logEndOffset() ? nextOffsetMetadata
                : positionTrusted ? newHighWatermark : LogOffsetMetadata.unknownPosition(newOffset);
            if (newOffset > current.messageOffset()
                    || (newOffset == current.messageOffset() && !current.positionKnown() && candidate.positionKnown())) {
                highWatermarkMetadata = candidate;
                return true;
            }
            return false;
        }
    }

    /** Sets the high watermark, e.g. from a follower's fetch response or after truncation. */
    public void updateHighWatermark(long offset) {
        synchronized (lock) {
            long bounded = Math.max(logStartOffset, Math.min(offset, logEndOffset()));
            highWatermarkMetadata = bounded == logEndOffset() ? nextOffsetMetadata : LogOffsetMetadata.unknownPosition(bounded);
        }
    }

    /**
     * Raises the log start offset (DeleteRecords, retention), dropping producer state and leader
     * epochs below it. Segments wholly below it are deleted by the next retention run.
     *
     * @throws OffsetOutOfRangeException if {@code newLogStartOffset} is above the high watermark
     */
    public boolean maybeIncrementLogStartOffset(long newLogStartOffset, String reason) {
        synchronized (lock) {
            checkOpen();
            if (newLogStartOffset > highWatermark()) {
                throw new OffsetOutOfRangeException("Cannot increment the log start offset of " + topicPartition + " to "
                    + newLogStartOffset + " since it is larger than the high watermark " + highWatermark());
            }
            if (newLogStartOffset <= logStartOffset) {
                return false;
            }
            logStartOffset = newLogStartOffset;
            // Nothing below the log start offset is ever recovered or flushed again; a recovery point
            // left below it would also make a pending flush range start past its own end.
            if (recoveryPoint < newLogStartOffset) {
                recoveryPoint = newLogStartOffset;
            }
            leaderEpochCache.truncateFromStart(newLogStartOffset);
            try {
                producerStateManager.onLogStartOffsetIncremented(newLogStartOffset);
            } catch (IOException e) {
                throw new KafkaStorageException("Error removing producer snapshots of " + topicPartition, e);
            }
            log.info("Incremented the log start offset of {} to {} ({})", topicPartition, newLogStartOffset, reason);
            return true;
        }
    }

    /**
     * Applies retention: deletes segments wholly below the log start offset, then (with
     * {@code cleanup.policy=delete}) those beyond {@code retention.bytes} or older than
     * {@code retention.ms}. Never deletes data above the high watermark; rolls first when every
     * segment qualifies, so the log keeps an (empty) active segment at its end offset.
     *
     * @return segments deleted
     */
    public int deleteOldSegments() {
        int deleted = deleteSegments(RetentionPolicy.belowLogStartOffset(logStartOffset), "log start offset " + logStartOffset);
        if (!config.deleteEnabled()) {
            return deleted;
        }
        if (config.retentionBytes() >= 0) {
            deleted += deleteSegments(RetentionPolicy.bySize(size(), config.retentionBytes()),
                "retention.bytes " + config.retentionBytes());
        }
        if (config.retentionMs() >= 0) {
            deleted += deleteSegments(RetentionPolicy.byTime(time.milliseconds(), config.retentionMs()),
                "retention.ms " + config.retentionMs());
        }
        return deleted;
    }

    private int deleteSegments(LogSegments.DeletionPredicate predicate, String reason) {
        synchronized (lock) {
            if (closed) {
                return 0;
            }
            List<LogSegment> deletable = segments.deletable(predicate, highWatermark(), logEndOffset());
            if (deletable.isEmpty()) {
                return 0;
            }
            if (deletable.size() == segments.count()) {
                roll();
            }
            segmentsVersion++;
            for (LogSegment segment : deletable) {
                segments.removeAndDeleteLater(segment, scheduler, config.fileDeleteDelayMs());
            }
            long newStart = Math.max(logStartOffset, segments.firstBaseOffset());
            log.info("Deleted {} segment(s) of {} by {}; log start offset now {}", deletable.size(), topicPartition,
                reason, newStart);
            if (newStart > logStartOffset) {
                maybeIncrementLogStartOffset(newStart, "segment deletion by " + reason);
            }
            return deletable.size();
        }
    }

    /**
     * The first offset whose record timestamp is at least {@code targetTimestamp}, with that
     * timestamp and the batch's leader epoch; empty when every record is older. The caller
     * bounds the answer by what the reader may see (high watermark).
     */
    public Optional<FileRecords.TimestampAndOffset> fetchOffsetByTimestamp(long targetTimestamp) {
        return segments.offsetByTimestamp(targetTimestamp, logStartOffset);
    }

    /** The record with the largest timestamp (its first occurrence), for ListOffsets MAX_TIMESTAMP (KIP-734). */
    public Optional<FileRecords.TimestampAndOffset> fetchOffsetOfMaxTimestamp() {
        return segments.offsetOfMaxTimestamp(logStartOffset);
    }

    /**
     * Removes everything at or above {@code targetOffset} (a follower diverged from its leader).
     *
     * @return whether anything was removed
     */
    public boolean truncateTo(long targetOffset) {
        synchronized (lock) {
            checkOpen();
            if (targetOffset >= logEndOffset()) {
                return false;
            }
            segmentsVersion++;
            try {
                if (targetOffset <= logStartOffset || targetOffset < segments.firstBaseOffset()) {
                    truncateFullyAndStartAt(Math.max(targetOffset, 0));
                    return true;
                }
                for (LogSegment segment : segments.after(targetOffset)) {
                    segments.removeAndDeleteLater(segment, scheduler, config.fileDeleteDelayMs());
                }
                LogSegment active = activeSegment();
                active.truncateTo(targetOffset);
                active.resizeIndexesToMax();
                nextOffsetMetadata = new LogOffsetMetadata(targetOffset, active.baseOffset(), active.size());
                leaderEpochCache.truncateFromEnd(targetOffset);
                if (recoveryPoint > targetOffset) {
                    recoveryPoint = targetOffset;
                }
                if (highWatermark() > targetOffset) {
                    highWatermarkMetadata = nextOffsetMetadata;
                }
                LogLoader.rebuildProducerState(this, producerStateManager, segments, logStartOffset, targetOffset,
                    time.milliseconds());
                log.info("Truncated {} to offset {}", topicPartition, targetOffset);
                return true;
            } catch (IOException e) {
                throw new KafkaStorageException("Error truncating " + topicPartition + " to " + targetOffset, e);
            }
        }
    }

    /** Deletes every segment and restarts the log empty at {@code newOffset}. */
    public void truncateFullyAndStartAt(long newOffset) {
        synchronized (lock) {
            checkOpen();
            segmentsVersion++;
            try {
                for (LogSegment segment : new ArrayList<>(segments.values())) {
                    segments.removeAndDeleteLater(segment, scheduler, config.fileDeleteDelayMs());
                }
                LogSegment segment = LogSegment.open(dir, newOffset, config.segmentIndexBytes(), config.indexIntervalBytes(),
                    0, config.preallocate(), config.segmentBytes(), time, false, "");
                segments.add(segment);
                nextOffsetMetadata = new LogOffsetMetadata(newOffset, newOffset, 0);
                highWatermarkMetadata = nextOffsetMetadata;
                logStartOffset = newOffset;
                recoveryPoint = newOffset;
                leaderEpochCache.clear();
                producerStateManager.truncateFullyAndStartAt(newOffset);
            } catch (IOException e) {
                throw new KafkaStorageException("Error truncating " + topicPartition + " fully", e);
            }
        }
    }

    /** Forces segments up to {@code offset} (exclusive) to disk and moves the recovery point there. */
    public void flush(long offset) {
        if (offset <= recoveryPoint) {
            return;
        }
        try {
            for (LogSegment segment : segments.holdingRange(recoveryPoint, offset)) {
                segment.flush();
            }
            synchronized (lock) {
                if (offset > recoveryPoint) {
                    recoveryPoint = Math.min(offset, logEndOffset());
                    lastFlushedTimeMs = time.milliseconds();
                }
            }
        } catch (IOException e) {
            throw new KafkaStorageException("Error flushing " + topicPartition + " up to offset " + offset, e);
        } catch (RuntimeException e) {
            if (!closed) {
                throw e;
            }
        }
    }

    private void flushUpTo(long offset) {
        if (!closed) {
            flush(offset);
        }
    }

    /** Time of the last flush, ms, for {@code flush.ms}. */
    public long lastFlushedTimeMs() {
        return lastFlushedTimeMs;
    }

    /** Drops idle producers ({@code producer.id.expiration.ms}). */
    public void removeExpiredProducers() {
        synchronized (lock) {
            producerStateManager.removeExpiredProducers(time.milliseconds());
        }
    }

    /** Points files at a renamed directory (topic deletion renames it before deleting). */
    void renameDir(File newDir) throws IOException {
        synchronized (lock) {
            segmentsVersion++;
            java.nio.file.Files.move(dir.toPath(), newDir.toPath(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            this.dir = newDir;
            segments.updateParentDir(newDir);
            leaderEpochCache.updateParentDir(newDir);
            partitionMetadataFile.updateParentDir(newDir);
            producerStateManager.updateParentDir(newDir);
        }
    }

    /** Flushes, snapshots producer state at the log end and closes the files. */
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            segmentsVersion++;
            try {
                producerStateManager.updateMapEndOffset(logEndOffset());
                producerStateManager.takeSnapshot();
            } catch (IOException e) {
                log.warn("Could not snapshot producer state of {} on close", topicPartition, e);
            }
            segments.close();
        }
    }

    /** Closes file handles without flushing or snapshotting (the log is being deleted). */
    void closeHandlers() {
        synchronized (lock) {
            closed = true;
            segmentsVersion++;
            segments.closeHandlers();
        }
    }

    public boolean isClosed() {
        return closed;
    }

    private void checkOpen() {
        if (closed) {
            throw new KafkaStorageException("The log of " + topicPartition + " in " + dir + " is closed");
        }
    }

    Object lock() {
        return lock;
    }

    /** The segments, for the cleaner to read (it never changes them but through {@link #replaceSegments}). */
    LogSegments segments() {
        return segments;
    }

    /** Changes whenever segments are removed or rewritten other than by the cleaner's swap. */
    long segmentsVersion() {
        return segmentsVersion;
    }

    /**
     * The last batch of every producer in the producer state, by producer id: the cleaner keeps
     * these batches (emptied if need be) so the state can be rebuilt from the log.
     */
    Map<Long, ProducerBatchRef> lastBatchesOfActiveProducers() {
        synchronized (lock) {
            Map<Long, ProducerBatchRef> out = new HashMap<>();
            producerStateManager.activeProducers().forEach((id, entry) ->
                out.put(id, new ProducerBatchRef(entry.lastDataOffset(), entry.producerEpoch())));
            return out;
        }
    }

    /** A producer's last data offset (-1 when none) and epoch. */
    record ProducerBatchRef(long lastDataOffset, short producerEpoch) {
    }

    /**
     * Removes segments the cleaner found nothing to keep in (they follow a segment it just swapped
     * in), oldest first, with delayed file deletion; refused like {@link #replaceSegments}.
     *
     * @return whether they were removed
     */
    boolean removeCleanedAwaySegments(List<LogSegment> emptied, long expectedVersion) {
        synchronized (lock) {
            if (closed || segmentsVersion != expectedVersion || !segments.containsAll(emptied)
                    || emptied.stream().anyMatch(s -> s == activeSegment())) {
                return false;
            }
            LogOffsetMetadata hw = highWatermarkMetadata;
            for (LogSegment segment : emptied) {
                segments.removeAndDeleteLater(segment, scheduler, config.fileDeleteDelayMs());
                if (hw.positionKnown() && hw.segmentBaseOffset() == segment.baseOffset()) {
                    highWatermarkMetadata = LogOffsetMetadata.unknownPosition(hw.messageOffset());
                }
            }
            return true;
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
    boolean replaceSegments(LogSegment cleaned, List<LogSegment> oldSegments, long expectedVersion, SwapHook hook) {
        synchronized (lock) {
            if (closed || segmentsVersion != expectedVersion || !segments.containsAll(oldSegments)) {
                return false;
            }
            try {
                segments.replace(cleaned, oldSegments, dir, scheduler, config.fileDeleteDelayMs(), hook);
            } catch (IOException e) {
                closed = true;
                throw new KafkaStorageException("Error swapping a cleaned segment into " + topicPartition
                    + "; the log is closed until restart, when the swap is completed: " + e, e);
            }
            LogOffsetMetadata hw = highWatermarkMetadata;
            if (hw.positionKnown() && oldSegments.stream().anyMatch(s -> s.baseOffset() == hw.segmentBaseOffset())) {
                highWatermarkMetadata = LogOffsetMetadata.unknownPosition(hw.messageOffset());
            }
            return true;
        }
    }

    @Override
    public String toString() {
        return "PartitionLog(" + topicPartition + ", dir=" + dir + ", logStartOffset=" + logStartOffset
            + ", logEndOffset=" + logEndOffset() + ", highWatermark=" + highWatermark() + ")";
    }
}
