package io.tributary.broker.log;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.util.OptionalLong;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One segment of a partition log: a {@code .log} file of record batches (stored exactly as in
 * the protocol, magic v2) with its sparse {@code .index} and {@code .timeindex}, and the
 * {@code .txnindex} of the transactions aborted in it ({@link TransactionIndex}). Files are
 * named by the base offset, 20 digits.
 *
 * <p>Invariant: base offset &lt;= the first offset in this segment, and &gt; every offset of a
 * previous segment. Offsets within the segment fit an int relative to the base offset.
 *
 * <p>Thread-safety: appends, truncation and recovery are called under the owning log's lock;
 * reads may run concurrently with an append (they are bounded by a position the caller knows
 * to be complete).
 */
public final class LogSegment implements Closeable {

    private static final Logger logger = LoggerFactory.getLogger(LogSegment.class);
    /** Upper bound on a decompressed record, as the library's own default. */
    private static final int MAX_RECORD_SIZE = Integer.MAX_VALUE - 8;
    private static final TimestampOffset UNKNOWN_MAX = new TimestampOffset(RecordBatch.NO_TIMESTAMP, -1);

    private final FileRecords log;
    private final OffsetIndex offsetIndex;
    private final TimeIndex timeIndex;
    private final TransactionIndex txnIndex;
    private final long baseOffset;
    private final int indexIntervalBytes;
    private final long rollJitterMs;
    private final Time time;
    private final long created;
    private int bytesSinceLastIndexEntry;
    private volatile OptionalLong rollingBasedTimestamp = OptionalLong.empty();
    private volatile TimestampOffset maxTimestampAndOffsetSoFar = UNKNOWN_MAX;

    private LogSegment(FileRecords log, OffsetIndex offsetIndex, TimeIndex timeIndex, TransactionIndex txnIndex,
                       long baseOffset, int indexIntervalBytes, long rollJitterMs, Time time) {
        this.log = log;
        this.offsetIndex = offsetIndex;
        this.timeIndex = timeIndex;
        this.txnIndex = txnIndex;
        this.baseOffset = baseOffset;
        this.indexIntervalBytes = indexIntervalBytes;
        this.rollJitterMs = rollJitterMs;
        this.time = time;
        this.created = time.milliseconds();
    }

    /**
     * Opens (or creates) the segment with the given base offset in {@code dir}.
     *
     * @param fileSuffix        suffix after the standard extensions, e.g. "" or ".cleaned"
     * @param fileAlreadyExists whether the .log file is expected to exist
     * @param initFileSize      initial file size when preallocating, bytes
     * @throws IOException when files cannot be opened or created
     */
    public static LogSegment open(File dir, long baseOffset, int maxIndexSize, int indexIntervalBytes,
                                  long rollJitterMs, boolean preallocate, int initFileSize, Time time,
                                  boolean fileAlreadyExists, String fileSuffix) throws IOException {
        File logFile = LogFileNames.logFile(dir, baseOffset, fileSuffix);
        FileRecords records = FileRecords.open(logFile, fileAlreadyExists, initFileSize, preallocate);
        try {
            OffsetIndex offsetIndex = new OffsetIndex(LogFileNames.offsetIndexFile(dir, baseOffset, fileSuffix),
                baseOffset, maxIndexSize);
            TimeIndex timeIndex = new TimeIndex(LogFileNames.timeIndexFile(dir, baseOffset, fileSuffix),
                baseOffset, maxIndexSize);
            TransactionIndex txnIndex = new TransactionIndex(LogFileNames.txnIndexFile(dir, baseOffset, fileSuffix));
            return new LogSegment(records, offsetIndex, timeIndex, txnIndex, baseOffset, indexIntervalBytes,
                rollJitterMs, time);
        } catch (IOException | RuntimeException e) {
            records.channel().close();
            throw e;
        }
    }

    public long baseOffset() {
        return baseOffset;
    }

    /** Size of the .log file, bytes. */
    public int size() {
        return log.sizeInBytes();
    }

    FileRecords log() {
        return log;
    }

    OffsetIndex offsetIndex() {
        return offsetIndex;
    }

    TimeIndex timeIndex() {
        return timeIndex;
    }

    /** The aborted transactions whose marker is in this segment. */
    TransactionIndex txnIndex() {
        return txnIndex;
    }

    /** Whether an offset fits this segment's relative offsets. */
    boolean canConvertToRelativeOffset(long offset) {
        long relative = offset - baseOffset;
        return relative >= 0 && relative <= Integer.MAX_VALUE;
    }

    /**
     * Whether an append of {@code appendBytes} with the given largest offset and timestamp must
     * go to a new segment: size (segment.bytes), age (segment.ms minus jitter), a full index, or
     * an offset that would overflow the relative index.
     */
    boolean shouldRoll(int maxSegmentBytes, long maxSegmentMs, int appendBytes, long maxTimestampInAppend,
                       long maxOffsetInAppend, long now) {
        boolean reachedRollMs = timeWaitedForRoll(now, maxTimestampInAppend) > maxSegmentMs - rollJitterMs;
        int size = size();
        return size > maxSegmentBytes - appendBytes
            || (size > 0 && reachedRollMs)
            || offsetIndex.isFull() || timeIndex.isFull()
            || !canConvertToRelativeOffset(maxOffsetInAppend);
    }

    private long timeWaitedForRoll(long now, long messageTimestamp) {
        loadFirstBatchTimestamp();
        OptionalLong first = rollingBasedTimestamp;
        if (first.isPresent() && first.getAsLong() >= 0) {
            return messageTimestamp - first.getAsLong();
        }
        return now - created;
    }

    /**
     * Takes both indexes' writers' locks if they are free, without waiting; false (holding neither)
     * if one is busy (an index being forced to disk). Pair with {@link #unlockIndexes}.
     */
    boolean tryLockIndexes() {
        if (!offsetIndex.tryLockWriters()) {
            return false;
        }
        if (!timeIndex.tryLockWriters()) {
            offsetIndex.unlockWriters();
            return false;
        }
        return true;
    }

    void unlockIndexes() {
        timeIndex.unlockWriters();
        offsetIndex.unlockWriters();
    }

    /** Whether {@link #shouldRoll} can answer without reading the segment file (its first batch timestamp is known). */
    boolean rollCheckReadsNothing() {
        return rollingBasedTimestamp.isPresent() || size() == 0;
    }

    /** The max timestamp of the first batch (Kafka's first batch timestamp, for max.compaction.lag.ms), if any. */
    OptionalLong firstBatchTimestamp() {
        loadFirstBatchTimestamp();
        return rollingBasedTimestamp;
    }

    private void loadFirstBatchTimestamp() {
        if (rollingBasedTimestamp.isEmpty() && size() > 0) {
            for (FileChannelRecordBatch batch : log.batches()) {
                rollingBasedTimestamp = OptionalLong.of(batch.maxTimestamp());
                break;
            }
        }
    }

    /**
     * Appends batches that already carry their final offsets.
     *
     * @param largestOffset              last offset in {@code records}
     * @param largestTimestamp           largest timestamp in {@code records}, ms
     * @param shallowOffsetOfMaxTimestamp last offset of the batch holding {@code largestTimestamp}
     * @throws IOException on a write failure (the caller marks the log directory offline)
     */
    public void append(long largestOffset, long largestTimestamp, long shallowOffsetOfMaxTimestamp,
                       MemoryRecords records) throws IOException {
        if (records.sizeInBytes() == 0) {
            return;
        }
        int physicalPosition = log.sizeInBytes();
        if (physicalPosition == 0) {
            rollingBasedTimestamp = OptionalLong.of(largestTimestamp);
        }
        if (!canConvertToRelativeOffset(largestOffset)) {
            throw new IndexOffsetOverflowException("Offset " + largestOffset + " does not fit segment " + baseOffset);
        }
        log.append(records);
        if (largestTimestamp > maxTimestampSoFar()) {
            maxTimestampAndOffsetSoFar = new TimestampOffset(largestTimestamp, shallowOffsetOfMaxTimestamp);
        }
        if (bytesSinceLastIndexEntry > indexIntervalBytes) {
            offsetIndex.append(largestOffset, physicalPosition);
            TimestampOffset max = maxTimestampAndOffsetSoFar();
            timeIndex.maybeAppend(max.timestamp(), max.offset());
            bytesSinceLastIndexEntry = 0;
        }
        bytesSinceLastIndexEntry += records.sizeInBytes();
    }

    /** The largest timestamp appended so far with the last offset of its batch. */
    TimestampOffset maxTimestampAndOffsetSoFar() {
        TimestampOffset current = maxTimestampAndOffsetSoFar;
        if (current == UNKNOWN_MAX) {
            current = timeIndex.lastEntry();
            maxTimestampAndOffsetSoFar = current;
        }
        return current;
    }

    long maxTimestampSoFar() {
        return maxTimestampAndOffsetSoFar().timestamp();
    }

    /**
     * Finds the first batch whose last offset is at least {@code offset}, scanning from the
     * nearest index entry (and not before {@code startingFilePosition}).
     *
     * @return the base offset, position and size of the batch holding {@code offset} (or of the
     *         first batch after it), or null when the offset is beyond this segment
     */
    FileRecords.LogOffsetPosition translateOffset(long offset, int startingFilePosition) {
        OffsetPosition mapping = offsetIndex.lookup(offset);
        return log.searchForOffsetFromPosition(offset, Math.max(mapping.position(), startingFilePosition));
    }

    /**
     * Reads batches from the first one holding {@code startOffset}.
     *
     * @param startOffset   the offset to read from
     * @param maxSize       byte limit of the read
     * @param maxPosition   byte position the read must not pass (end of committed data)
     * @param minOneMessage whether the first batch is returned whole even above {@code maxSize} (KIP-74)
     * @return the read, or null when {@code startOffset} lies beyond this segment
     */
    public FetchDataInfo read(long startOffset, int maxSize, long maxPosition, boolean minOneMessage) {
        if (maxSize < 0) {
            throw new IllegalArgumentException("Invalid max size " + maxSize + " for a read of segment " + log.file());
        }
        FileRecords.LogOffsetPosition start = translateOffset(startOffset, 0);
        if (start == null) {
            return null;
        }
        int startPosition = start.position;
        LogOffsetMetadata offsetMetadata = new LogOffsetMetadata(startOffset, baseOffset, startPosition);
        int adjustedMaxSize = minOneMessage ? Math.max(maxSize, start.size) : maxSize;
        if (adjustedMaxSize == 0 || maxPosition <= startPosition) {
            return FetchDataInfo.empty(offsetMetadata);
        }
        int fetchSize = (int) Math.min(maxPosition - startPosition, adjustedMaxSize);
        return new FetchDataInfo(offsetMetadata, log.slice(startPosition, fetchSize), adjustedMaxSize < start.size);
    }

    /** The offset after the last batch, read from disk; the base offset when empty. */
    long readNextOffset() {
        int position = offsetIndex.lastEntry().position();
        long next = baseOffset;
        for (FileChannelRecordBatch batch : log.batchesFrom(position)) {
            next = batch.nextOffset();
        }
        return next;
    }

    /**
     * Rebuilds the indexes from the .log file, verifying every batch, and truncates the file at
     * the first invalid or incomplete batch (a torn write after a crash).
     *
     * @param visitor called for every valid batch in order, to rebuild producer state and the leader epoch cache
     * @return bytes truncated from the end of the file
     */
    int recover(BatchVisitor visitor) throws IOException {
        offsetIndex.reset();
        timeIndex.reset();
        bytesSinceLastIndexEntry = 0;
        maxTimestampAndOffsetSoFar = new TimestampOffset(RecordBatch.NO_TIMESTAMP, baseOffset);
        int validBytes = 0;
        int lastIndexEntry = 0;
        long nextExpectedOffset = baseOffset;
        try {
            for (FileChannelRecordBatch batch : log.batches()) {
                if (batch.magic() != RecordBatch.MAGIC_VALUE_V2) {
                    throw new CorruptRecordException("Batch at position " + validBytes + " has magic " + batch.magic());
                }
                batch.ensureValid();
                if (batch.baseOffset() < nextExpectedOffset || !canConvertToRelativeOffset(batch.lastOffset())) {
                    throw new CorruptRecordException("Batch at position " + validBytes + " has offsets "
                        + batch.baseOffset() + ".." + batch.lastOffset() + ", expected at least " + nextExpectedOffset);
                }
                if (batch.maxTimestamp() > maxTimestampSoFar()) {
                    maxTimestampAndOffsetSoFar = new TimestampOffset(batch.maxTimestamp(), batch.lastOffset());
                }
                if (validBytes - lastIndexEntry > indexIntervalBytes) {
                    offsetIndex.append(batch.lastOffset(), validBytes);
                    TimestampOffset max = maxTimestampAndOffsetSoFar();
                    timeIndex.maybeAppend(max.timestamp(), max.offset());
                    lastIndexEntry = validBytes;
                }
                validBytes += batch.sizeInBytes();
                nextExpectedOffset = batch.nextOffset();
                visitor.visit(batch);
            }
        } catch (CorruptRecordException | org.apache.kafka.common.InvalidRecordException e) {
            logger.warn("Found invalid data in {} at byte {}: {}", log.file().getAbsolutePath(), validBytes, e.getMessage());
        }
        int truncated = log.sizeInBytes() - validBytes;
        if (truncated > 0) {
            logger.warn("Truncating {} from {} to {} bytes: dropping {} bytes after the last valid batch",
                log.file().getAbsolutePath(), log.sizeInBytes(), validBytes, truncated);
        }
        log.truncateTo(validBytes);
        txnIndex.truncateTo(nextExpectedOffset);
        bytesSinceLastIndexEntry = validBytes - lastIndexEntry;
        rollingBasedTimestamp = OptionalLong.empty();
        if (maxTimestampSoFar() >= 0) {
            TimestampOffset max = maxTimestampAndOffsetSoFar();
            timeIndex.maybeAppend(max.timestamp(), max.offset());
        }
        return truncated;
    }

    /**
     * Removes every batch with an offset at or above {@code offset}.
     *
     * @return bytes removed
     */
    int truncateTo(long offset) throws IOException {
        FileRecords.LogOffsetPosition mapping = translateOffset(offset, 0);
        offsetIndex.truncateTo(offset);
        timeIndex.truncateTo(offset);
        txnIndex.truncateTo(offset);
        offsetIndex.resizeToMax();
        timeIndex.resizeToMax();
        int bytesTruncated = mapping == null ? 0 : log.truncateTo(mapping.position);
        if (log.sizeInBytes() == 0) {
            rollingBasedTimestamp = OptionalLong.empty();
        }
        bytesSinceLastIndexEntry = 0;
        maxTimestampAndOffsetSoFar = readLargestTimestamp();
        return bytesTruncated;
    }

    /**
     * The largest timestamp in the segment with the last offset of its batch: the last time index
     * entry, unless a batch after it (the index is sparse) holds a larger one.
     */
    private TimestampOffset readLargestTimestamp() {
        TimestampOffset lastEntry = timeIndex.lastEntry();
        int position = offsetIndex.lookup(lastEntry.offset()).position();
        FileRecords.TimestampAndOffset after = log.largestTimestampAfter(position);
        if (after.timestamp > lastEntry.timestamp()) {
            return new TimestampOffset(after.timestamp, after.offset);
        }
        return lastEntry;
    }

    /**
     * The first record at or after {@code startingOffset} with a timestamp of at least
     * {@code timestamp}, or null when there is none in this segment.
     */
    FileRecords.TimestampAndOffset findOffsetByTimestamp(long timestamp, long startingOffset) {
        TimestampOffset timestampOffset = timeIndex.lookup(timestamp);
        int position = offsetIndex.lookup(Math.max(timestampOffset.offset(), startingOffset)).position();
        return log.searchForTimestamp(timestamp, position, startingOffset, MAX_RECORD_SIZE);
    }

    /** The largest record timestamp in this segment, or the file's modification time when there is none. */
    public long largestTimestamp() {
        long max = maxTimestampSoFar();
        return max >= 0 ? max : lastModified();
    }

    long lastModified() {
        return log.file().lastModified();
    }

    void setLastModified(long ms) throws IOException {
        Files.setLastModifiedTime(log.file().toPath(), FileTime.fromMillis(ms));
    }

    /** Called when a newer segment becomes active: records the final time index entry and trims the files. */
    void onBecomeInactiveSegment() throws IOException {
        TimestampOffset max = maxTimestampAndOffsetSoFar();
        if (max.timestamp() >= 0) {
            timeIndex.maybeAppend(max.timestamp(), max.offset());
        }
        offsetIndex.trimToValidSize();
        timeIndex.trimToValidSize();
        log.trim();
    }

    /** Grows the indexes back to their maximum so the segment can take appends (it is active again). */
    void resizeIndexesToMax() throws IOException {
        offsetIndex.resizeToMax();
        timeIndex.resizeToMax();
    }

    /** Forces the files to disk. */
    public void flush() throws IOException {
        log.flush();
        offsetIndex.flush();
        timeIndex.flush();
        txnIndex.flush();
    }

    /** Renames the files, e.g. adding {@code .deleted}. */
    void changeFileSuffixes(String oldSuffix, String newSuffix) throws IOException {
        log.renameTo(new File(LogFileNames.replaceSuffix(log.file().getPath(), oldSuffix, newSuffix)));
        offsetIndex.renameTo(new File(LogFileNames.replaceSuffix(offsetIndex.file().getPath(), oldSuffix, newSuffix)));
        timeIndex.renameTo(new File(LogFileNames.replaceSuffix(timeIndex.file().getPath(), oldSuffix, newSuffix)));
        txnIndex.renameTo(new File(LogFileNames.replaceSuffix(txnIndex.file().getPath(), oldSuffix, newSuffix)));
    }

    /** Whether the .log file name carries {@code suffix}. */
    boolean hasSuffix(String suffix) {
        return log.file().getName().endsWith(suffix);
    }

    /** Closes the file handles and deletes the files. */
    void deleteIfExists() throws IOException {
        log.deleteIfExists();
        offsetIndex.deleteIfExists();
        timeIndex.deleteIfExists();
        txnIndex.deleteIfExists();
    }

    /** Points the files at a renamed directory. */
    void updateParentDir(File dir) {
        log.updateParentDir(dir);
        offsetIndex.updateParentDir(dir);
        timeIndex.updateParentDir(dir);
        txnIndex.updateParentDir(dir);
    }

    /** Records the final time index entry, trims the indexes and closes the files. */
    @Override
    public void close() throws IOException {
        TimestampOffset max = maxTimestampAndOffsetSoFar;
        if (max != UNKNOWN_MAX && max.timestamp() >= 0) {
            try {
                timeIndex.maybeAppend(max.timestamp(), max.offset());
            } catch (IllegalStateException e) {
                logger.warn("Could not record the last time index entry of {}: {}", log.file(), e.getMessage());
            }
        }
        offsetIndex.close();
        timeIndex.close();
        txnIndex.close();
        log.close();
    }

    /** Closes the file handles without writing. */
    void closeHandlers() {
        try {
            log.channel().close();
        } catch (IOException e) {
            logger.warn("Error closing {}", log.file(), e);
        }
    }

    @Override
    public String toString() {
        return "LogSegment(baseOffset=" + baseOffset + ", size=" + size() + ")";
    }

    /** Receives each valid batch during recovery. */
    @FunctionalInterface
    interface BatchVisitor {
        void visit(RecordBatch batch);
    }
}
