package io.tributary.broker.log;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.producer.AppendOrigin;
import io.tributary.broker.producer.ProducerStateManager;
import io.tributary.broker.producer.VerificationGuard;
import io.tributary.broker.scheduler.Scheduler;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of one partition replica: an ordered set of {@link LogSegment}s with the log start
 * offset, log end offset (LEO), high watermark and recovery point, the producer state used for
 * idempotence and the leader epoch cache.
 *
 * <p>Invariants: logStartOffset &lt;= lastStableOffset &lt;= highWatermark &lt;= logEndOffset; segments
 * are keyed by base offset, the last is active; recoveryPoint &lt;= logEndOffset and everything below
 * it is on disk.
 *
 * <p>Thread-safety: every change (append, roll, truncation, retention, config) holds the log's
 * lock, a {@link ReentrantLock} (so that a caller that must not wait can try it); reads never lock and see a consistent prefix bounded by the volatile end offsets.
 * The cleaner reads non-active segments without the lock and swaps cleaned segments in under it
 * ({@link CleanerSwap}); every other change that removes or rewrites segments bumps
 * {@link #segmentsVersion()}, and a swap prepared against an older version is refused.
 * Retention and segment roll retention rely on delayed deletion: a removed segment is renamed
 * {@code .deleted} and its files closed only after {@code file.delete.delay.ms}, so reads in
 * flight (including zero-copy sends) complete.
 *
 * <p>Errors: I/O failures surface as {@link KafkaStorageException} (KAFKA_STORAGE_ERROR); a
 * failed write is rolled back so the file never keeps a partial batch.
 *
 * <p>Roles: as Kafka's {@code UnifiedLog}, this class owns the lock and the offsets that tie the
 * parts together (log start offset, high watermark), and delegates the rest: the segments, log end
 * offset, recovery point and files to {@link LocalLog}; the high watermark's position to
 * {@link HighWatermark}; transactions and the last stable offset to the {@link ProducerStateManager}
 * and each segment's {@link TransactionIndex}; appends, rolls and flushes to {@link LogAppender}; retention to
 * {@link LogRetention} (its rules in {@link RetentionPolicy}); lookups across segments to
 * {@link LogSegments}; loading and recovery to {@link LogLoader}; validation to {@link LogValidator};
 * truncation to {@link LogTruncation}; an append that must not wait to {@link PreparedAppend};
 * compaction to {@link Cleaner}, whose swaps run under the lock in {@link CleanerSwap}.
 */
public final class PartitionLog {

    private static final Logger log = LoggerFactory.getLogger(PartitionLog.class);

    private final ReentrantLock lock = new ReentrantLock();
    private final TopicPartition topicPartition;
    private final LocalLog localLog;
    private final LogAppender appender;
    private final LogSegments segments;
    private final ProducerStateManager producerStateManager;
    private final LogProducers producers;
    private final LeaderEpochFileCache leaderEpochCache;
    private final PartitionMetadataFile partitionMetadataFile;
    private final Time time;
    private final HighWatermark highWatermark;
    private volatile long logStartOffset;

    PartitionLog(File dir, TopicPartition topicPartition, LogConfig config, LogSegments segments,
                 long logStartOffset, long recoveryPoint, LogOffsetMetadata nextOffsetMetadata, long highWatermark,
                 ProducerStateManager producerStateManager, LeaderEpochFileCache leaderEpochCache,
                 Scheduler scheduler, Time time) {
        this.topicPartition = topicPartition;
        this.segments = segments;
        this.logStartOffset = logStartOffset;
        this.producerStateManager = producerStateManager;
        this.leaderEpochCache = leaderEpochCache;
        this.partitionMetadataFile = new PartitionMetadataFile(dir, scheduler);
        this.time = time;
        this.localLog = new LocalLog(lock, dir, topicPartition, config, segments, recoveryPoint, nextOffsetMetadata,
            scheduler, time);
        this.producers = new LogProducers(lock, producerStateManager, time);
        this.appender = new LogAppender(topicPartition, localLog, producerStateManager, leaderEpochCache, scheduler, time);
        this.highWatermark = HighWatermark.fromCheckpoint(highWatermark, logStartOffset, nextOffsetMetadata);
    }

    public TopicPartition topicPartition() {
        return topicPartition;
    }

    public File dir() {
        return localLog.dir();
    }

    public LogConfig config() {
        return localLog.config();
    }

    /** Applies a new topic config to future appends, rolls and retention runs. */
    public void updateConfig(LogConfig newConfig) {
        localLog.updateConfig(newConfig);
    }

    public long logStartOffset() {
        return logStartOffset;
    }

    /** The offset the next record will get. */
    public long logEndOffset() {
        return localLog.logEndOffset();
    }

    public LogOffsetMetadata logEndOffsetMetadata() {
        return localLog.logEndOffsetMetadata();
    }

    public long highWatermark() {
        return highWatermark.offset();
    }

    /**
     * The last stable offset (KIP-98): the first offset of the oldest transaction still open, or
     * closed by a marker not yet below the high watermark; the high watermark when there is none.
     * read_committed consumers read below it. Any thread.
     */
    public long lastStableOffset() {
        long firstUnstable = producerStateManager.firstUnstableOffset();
        long hw = highWatermark();
        return firstUnstable != ProducerStateManager.NO_UNSTABLE_OFFSET && firstUnstable < hw ? firstUnstable : hw;
    }

    public long recoveryPoint() {
        return localLog.recoveryPoint();
    }

    public LeaderEpochFileCache leaderEpochCache() {
        return leaderEpochCache;
    }

    public ProducerStateManager producerStateManager() {
        return producerStateManager;
    }

    /** The topic id stored beside the log or assigned since, if any (read from disk once). */
    public Optional<Uuid> topicId() {
        return partitionMetadataFile.read();
    }

    /** Ties the log to {@code topicId}: see {@link PartitionMetadataFile#assign} (no fsync on the caller's thread). */
    public void assignTopicId(Uuid topicId) {
        partitionMetadataFile.assign(topicId);
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
        return localLog.activeSegment();
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
        return appendAsLeader(records, leaderEpoch, AppendOrigin.CLIENT);
    }

    /**
     * As {@link #appendAsLeader(MemoryRecords, int)}, for a client or for a transaction
     * coordinator's markers ({@link AppendOrigin#COORDINATOR}, WriteTxnMarkers), which close the
     * producer's transaction here.
     *
     * @throws org.apache.kafka.common.errors.TransactionCoordinatorFencedException for a marker of
     *         an older coordinator epoch than the producer's last one
     */
    public LogAppendInfo appendAsLeader(MemoryRecords records, int leaderEpoch, AppendOrigin origin) {
        return appendAsLeader(records, leaderEpoch, origin, VerificationGuard.NOT_REQUIRED);
    }

    /**
     * As {@link #appendAsLeader(MemoryRecords, int, AppendOrigin)}, for a client's produce holding
     * {@code requestGuard} (KIP-890 part 1, {@link LogProducers#maybeStartTransactionVerification}).
     *
     * @throws org.apache.kafka.common.errors.InvalidTxnStateException for a transactional batch that
     *         would open a transaction here without the producer's current verification guard
     */
    public LogAppendInfo appendAsLeader(MemoryRecords records, int leaderEpoch, AppendOrigin origin,
                                        VerificationGuard requestGuard) {
        LogValidator.BatchSummary summary = LogValidator.analyze(topicPartition, records, config(), origin);
        MemoryRecords valid = summary.wholeBatches(records);
        lock.lock();
        try {
            return appender.appendAsLeader(summary, valid, leaderEpoch, logStartOffset, origin, requestGuard);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Prepares {@link #appendAsLeader} for a caller that must not wait (a network thread): takes the
     * log's lock and the active segment's index locks only if they are free, and answers null,
     * holding nothing, when one is busy, the append could block, or the batches fail validation
     * (see {@link PreparedAppend}).
     */
    public PreparedAppend tryLockForAppend(MemoryRecords records, int leaderEpoch) {
        return PreparedAppend.tryLock(this, records, leaderEpoch);
    }

    /**
     * Appends batches copied from the leader, which already carry offsets and epochs.
     *
     * @throws RecordValidationException for corrupt batches
     * @throws IllegalStateException when the batches do not start at the log end offset
     */
    public LogAppendInfo appendAsFollower(MemoryRecords records) {
        LogValidator.BatchSummary summary = LogValidator.analyze(topicPartition, records, config(), false);
        MemoryRecords valid = summary.wholeBatches(records);
        lock.lock();
        try {
            return appender.appendAsFollower(summary, valid, logStartOffset);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Starts a new active segment at the log end offset, snapshots the producer state there, and
     * flushes the previous segment in the background (which advances the recovery point).
     */
    public LogSegment roll() {
        lock.lock();
        try {
            return appender.roll();
        } finally {
            lock.unlock();
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
        LogOffsetMetadata end = localLog.logEndOffsetMetadata();
        long logStart = logStartOffset;
        if (startOffset > end.messageOffset() || startOffset < logStart) {
            throw new OffsetOutOfRangeException("Offset " + startOffset + " is out of range for " + topicPartition
                + ": log start offset " + logStart + ", log end offset " + end.messageOffset());
        }
        LogOffsetMetadata maxOffsetMetadata = isolation == FetchIsolation.LOG_END ? end
            : isolation == FetchIsolation.TXN_COMMITTED ? fetchLastStableOffsetMetadata() : fetchHighWatermarkMetadata();
        if (startOffset >= maxOffsetMetadata.messageOffset()) {
            return FetchDataInfo.empty(startOffset == maxOffsetMetadata.messageOffset()
                ? maxOffsetMetadata : LogOffsetMetadata.unknownPosition(startOffset));
        }
        return segments.read(startOffset, maxLength, maxOffsetMetadata, minOneMessage, end);
    }

    /**
     * The aborted transactions a read_committed read from {@code startOffset} below
     * {@code upperBoundOffset} must tell the consumer about, oldest marker first. Any thread.
     *
     * @throws KafkaStorageException when a transaction index cannot be read
     */
    public List<AbortedTransaction> collectAbortedTransactions(long startOffset, long upperBoundOffset) {
        try {
            return segments.collectAbortedTransactions(startOffset, upperBoundOffset);
        } catch (IOException e) {
            throw new KafkaStorageException("Error reading the transaction indexes of " + topicPartition + ": " + e, e);
        }
    }

    /** The high watermark with its position, computing the position if unknown. */
    public LogOffsetMetadata fetchHighWatermarkMetadata() {
        return highWatermark.metadataWithPosition(lock, localLog);
    }

    /** The last stable offset with its position, computing the position if unknown. */
    public LogOffsetMetadata fetchLastStableOffsetMetadata() {
        LogOffsetMetadata hw = fetchHighWatermarkMetadata();
        long lastStable = lastStableOffset();
        return lastStable < hw.messageOffset() ? convertToOffsetMetadata(lastStable) : hw;
    }

    /** Where an offset lies on disk, or unknown when it is not in the log. */
    public LogOffsetMetadata convertToOffsetMetadata(long offset) {
        return localLog.convertToOffsetMetadata(offset);
    }

    /**
     * Moves the high watermark up to {@code newHighWatermark} (bounded by the log end offset).
     *
     * @return whether it moved
     */
    public boolean maybeIncrementHighWatermark(LogOffsetMetadata newHighWatermark) {
        lock.lock();
        try {
            boolean moved = highWatermark.maybeIncrement(newHighWatermark, localLog.logEndOffsetMetadata(),
                activeSegment().baseOffset());
            if (moved) {
                producerStateManager.onHighWatermarkUpdated(highWatermark.offset());
            }
            return moved;
        } finally {
            lock.unlock();
        }
    }

    /** Sets the high watermark, e.g. from a follower's fetch response or after truncation. */
    public void updateHighWatermark(long offset) {
        lock.lock();
        try {
            highWatermark.update(offset, logStartOffset, localLog.logEndOffsetMetadata());
            producerStateManager.onHighWatermarkUpdated(highWatermark.offset());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Raises the log start offset (DeleteRecords, retention), dropping producer state and leader
     * epochs below it. Segments wholly below it are deleted by the next retention run.
     *
     * @throws OffsetOutOfRangeException if {@code newLogStartOffset} is above the high watermark
     */
    public boolean maybeIncrementLogStartOffset(long newLogStartOffset, String reason) {
        return LogRetention.maybeIncrementLogStartOffset(this, newLogStartOffset, reason);
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
        return LogRetention.deleteOldSegments(this, time);
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
     * Removes everything at or above {@code targetOffset} (a follower diverged from its leader),
     * with {@link LogTruncation}.
     *
     * @return whether anything was removed
     * @throws KafkaStorageException when the files cannot be truncated
     */
    public boolean truncateTo(long targetOffset) {
        return LogTruncation.truncateTo(this, targetOffset, time);
    }

    /** Deletes every segment and restarts the log empty at {@code newOffset}, with {@link LogTruncation}. */
    public void truncateFullyAndStartAt(long newOffset) {
        LogTruncation.truncateFullyAndStartAt(this, newOffset);
    }

    /** Forces segments up to {@code offset} (exclusive) to disk and moves the recovery point there. */
    public void flush(long offset) {
        appender.flush(offset);
    }

    /** Time of the last flush, ms, for {@code flush.ms}. */
    public long lastFlushedTimeMs() {
        return localLog.lastFlushedTimeMs();
    }

    /** The producer state as read and tended outside appends: DescribeProducers, expiry, KIP-890 verification. */
    public LogProducers producers() {
        return producers;
    }

    /** Points files at a renamed directory (topic deletion renames it before deleting). */
    void renameDir(File newDir) throws IOException {
        lock.lock();
        try {
            partitionMetadataFile.flushQuietly();
            localLog.renameDir(newDir);
            leaderEpochCache.updateParentDir(newDir);
            partitionMetadataFile.updateParentDir(newDir);
            producerStateManager.updateParentDir(newDir);
        } finally {
            lock.unlock();
        }
    }

    /** Flushes, snapshots producer state at the log end and closes the files. */
    public void close() {
        lock.lock();
        try {
            if (localLog.isClosed()) {
                return;
            }
            localLog.markClosed();
            localLog.segmentsChanged();
            partitionMetadataFile.flushQuietly();
            try {
                producerStateManager.updateMapEndOffset(logEndOffset());
                producerStateManager.takeSnapshot();
            } catch (IOException e) {
                log.warn("Could not snapshot producer state of {} on close", topicPartition, e);
            }
            localLog.closeSegments();
        } finally {
            lock.unlock();
        }
    }

    /** Closes file handles without flushing or snapshotting (the log is being deleted). */
    void closeHandlers() {
        lock.lock();
        try {
            localLog.closeHandlers();
        } finally {
            lock.unlock();
        }
    }

    public boolean isClosed() {
        return localLog.isClosed();
    }

    ReentrantLock lock() {
        return lock;
    }

    /** The appender, for an append prepared in this package ({@link PreparedAppend}). */
    LogAppender appender() {
        return appender;
    }

    /** The high watermark itself, for truncation to move; callers hold the lock. */
    HighWatermark highWatermarkState() {
        return highWatermark;
    }

    /** Moves the log start offset to {@code offset} (retention raises it, a full truncation restarts it); callers hold the lock. */
    void startAt(long offset) {
        logStartOffset = offset;
    }

    /** The segments, for the cleaner to read (it never changes them but through {@link CleanerSwap}). */
    LogSegments segments() {
        return segments;
    }

    /** The segments in local files, for the log's roles in this package (retention). */
    LocalLog localLog() {
        return localLog;
    }

    /** Changes whenever segments are removed or rewritten other than by the cleaner's swap. */
    long segmentsVersion() {
        return localLog.segmentsVersion();
    }

    @Override
    public String toString() {
        return "PartitionLog(" + topicPartition + ", dir=" + dir() + ", logStartOffset=" + logStartOffset
            + ", logEndOffset=" + logEndOffset() + ", highWatermark=" + highWatermark() + ")";
    }
}
