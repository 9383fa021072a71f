package io.tributary.broker.log;

import io.tributary.broker.config.LogConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecords.RecordFilter;
import org.apache.kafka.common.record.internal.MemoryRecords.RecordFilter.BatchRetention;
import org.apache.kafka.common.record.internal.MemoryRecords.RecordFilter.BatchRetentionResult;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.BufferSupplier;
import org.apache.kafka.common.utils.internals.CloseableIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cleans one compacted log, as Kafka's {@code Cleaner}:
 * <ol>
 *   <li>maps each key of the dirty section {@code [firstDirtyOffset, firstUncleanableOffset)} to
 *       its latest offset ({@link SkimpyOffsetMap}); when the map fills up, only the part read so
 *       far is cleaned this round ({@code latestOffset + 1} becomes the next first dirty offset);</li>
 *   <li>groups the segments from the log start up to that offset (never the active one) so that a
 *       group fits one segment ({@code segment.bytes}, {@code segment.index.bytes}, offsets
 *       relative to an int);</li>
 *   <li>copies each group into a {@code .cleaned} segment with {@link MemoryRecords#filterTo},
 *       keeping records with their original offsets: a keyed record survives if no later record
 *       of its key is mapped; a tombstone (null value) also needs its batch's delete horizon not
 *       yet reached; the first cleaning of a batch holding a tombstone stamps the horizon at now +
 *       {@code delete.retention.ms} (KIP-534). The last batch of each producer in the producer
 *       state is kept (emptied if need be) so idempotence survives a reload. Records of aborted
 *       transactions are dropped, and markers follow Kafka's rules ({@link CleanedTransactions}:
 *       kept until their transaction's records are gone and their own horizon passed);</li>
 *   <li>swaps the cleaned segment in ({@link CleanerSwap#replaceSegments}).</li>
 * </ol>
 *
 * <p>Invariant: a record is dropped only if a later record of its key is kept, or it is a
 * tombstone past its horizon; the log end offset and the active segment are never touched.
 * A swap is done only if the cleaned segment's next offset is above the base offset of every
 * segment it replaces, so a crash during the swap is settled unambiguously by {@link LogLoader}.
 * Trailing segments of a group whose records were all dropped are deleted after the swap, oldest
 * first: a crash in between leaves them uncleaned, which is consistent (every record dropped has
 * a later record of its key kept, or is a tombstone whose older records went first).
 *
 * <p>Not thread-safe: each cleaner thread owns one (it holds the offset map and I/O buffers).
 */
final class Cleaner {

    private static final Logger log = LoggerFactory.getLogger(Cleaner.class);

    /** Fraction of the offset map's slots filled before a round stops mapping (Kafka's default). */

    /** Thrown when a cleaning is abandoned: the log changed or is going away, or the cleaner stops. */
    static final class CleaningAbortedException extends RuntimeException {
        CleaningAbortedException(String message) {
            super(message);
        }
    }

    /** Throws {@link CleaningAbortedException} when the cleaning of {@code tp} must stop. */
    @FunctionalInterface
    interface AbortCheck {
        void check(TopicPartition tp);
    }

    /**
     * What a cleaning did.
     *
     * @param nextDirtyOffset         first offset not covered by the offset map: the new cleaner checkpoint
     * @param earliestDeleteHorizonMs earliest delete horizon of a retained tombstone, ms, or -1 when none
     * @param bytesRead               bytes of the segments cleaned
     * @param bytesWritten            bytes of the cleaned segments
     */
    record Result(long nextDirtyOffset, long earliestDeleteHorizonMs, long bytesRead, long bytesWritten) {
    }

    private final int dedupeBufferBytes;
    private final int ioBufferSize;
    private final double loadFactor;
    private final Throttler throttler;
    private final AbortCheck abortCheck;
    private final Time time;
    private final BufferSupplier decompression = BufferSupplier.create();
    private ByteBuffer readBuffer;
    private ByteBuffer writeBuffer;
    private long bytesRead;
    private long bytesWritten;
    private long earliestHorizon;
    /** Allocated at the first cleaning: most brokers have no compacted log to clean for a while. */
    private SkimpyOffsetMap offsetMap;
    /** For tests: called at each step of a swap. */
    volatile SwapHook swapHook = SwapHook.NONE;

    /**
     * @param dedupeBufferBytes memory of the offset map, bytes
     * @param ioBufferSize      read plus write buffer, bytes (each half; grown for a larger batch)
     * @param loadFactor        how full the offset map may get ({@code log.cleaner.io.buffer.load.factor})
     * @param throttler         holds the bytes read and written to {@code log.cleaner.io.max.bytes.per.second}
     */
    Cleaner(int dedupeBufferBytes, int ioBufferSize, double loadFactor, Throttler throttler, AbortCheck abortCheck,
            Time time) {
        if (dedupeBufferBytes / 24 < 2) {
            throw new IllegalArgumentException("A dedupe buffer of " + dedupeBufferBytes + " bytes is too small");
        }
        this.dedupeBufferBytes = dedupeBufferBytes;
        this.ioBufferSize = Math.max(ioBufferSize / 2, 1024);
        this.loadFactor = loadFactor;
        this.throttler = throttler;
        this.abortCheck = abortCheck;
        this.time = time;
        restoreBuffers();
    }

    /**
     * Cleans {@code cleanable.log()} up to as much of its dirty section as the offset map holds.
     *
     * @throws CleaningAbortedException when the cleaning was abandoned (nothing of an unfinished group is kept)
     * @throws IOException              on a read or write failure
     */
    Result clean(LogToClean cleanable) throws IOException {
        PartitionLog partitionLog = cleanable.log();
        long version = partitionLog.segmentsVersion();
        long now = time.milliseconds();
        LogConfig config = partitionLog.config();
        if (offsetMap == null) {
            offsetMap = new SkimpyOffsetMap(dedupeBufferBytes);
        }
        bytesRead = 0;
        bytesWritten = 0;
        earliestHorizon = Long.MAX_VALUE;
        log.info("Beginning cleaning of {}: dirty offsets [{}, {}), {} of {} bytes dirty", partitionLog.topicPartition(),
            cleanable.firstDirtyOffset(), cleanable.firstUncleanableOffset(), cleanable.cleanableBytes(),
            cleanable.totalBytes());
        try {
            buildOffsetMap(partitionLog, cleanable.firstDirtyOffset(), cleanable.firstUncleanableOffset());
            long endOffset = offsetMap.latestOffset() + 1;
            if (endOffset <= cleanable.firstDirtyOffset()) {
                return new Result(cleanable.firstDirtyOffset(), -1, 0, 0);
            }
            List<LogSegment> toClean = partitionLog.segments().overlapping(partitionLog.logStartOffset(), endOffset);
            CleanerFilter filter = new CleanerFilter(now, config.deleteRetentionMs(),
                cleanable.lastBatchesOfActiveProducers());
            for (List<LogSegment> group : groupSegmentsBySize(toClean, config.segmentBytes(), config.segmentIndexBytes(),
                    cleanable.firstUncleanableOffset())) {
                cleanGroup(partitionLog, group, version, filter);
            }
            log.info("Cleaned {} up to offset {}: {} bytes read, {} bytes written, offset map {}% full",
                partitionLog.topicPartition(), endOffset, bytesRead, bytesWritten, Math.round(offsetMap.utilization() * 100));
            return new Result(endOffset, earliestHorizon == Long.MAX_VALUE ? -1 : earliestHorizon, bytesRead, bytesWritten);
        } finally {
            restoreBuffers();
        }
    }

    /** Maps the keys of {@code [start, end)} to their latest offsets, segment by segment, until the map is full. */
    private void buildOffsetMap(PartitionLog partitionLog, long start, long end) {
        offsetMap.clear();
        List<LogSegment> dirty = partitionLog.segments().overlapping(start, end);
        int maxDesired = Math.max(1, (int) (offsetMap.slots() * loadFactor));
        for (int i = 0; i < dirty.size(); i++) {
            long nextSegmentStart = i + 1 < dirty.size() ? dirty.get(i + 1).baseOffset() : end;
            if (buildOffsetMapForSegment(partitionLog.topicPartition(), dirty.get(i), start, nextSegmentStart, maxDesired)) {
                log.debug("Offset map of {} is full at offset {}", partitionLog.topicPartition(), offsetMap.latestOffset());
                return;
            }
        }
    }

    /** @return whether the map filled up before the end of the segment */
    private boolean buildOffsetMapForSegment(TopicPartition tp, LogSegment segment, long start, long nextSegmentStart,
                                             int maxDesired) {
        int position = segment.offsetIndex().lookup(start).position();
        for (FileChannelRecordBatch batch : segment.log().batchesFrom(position)) {
            abortCheck.check(tp);
            if (batch.baseOffset() >= nextSegmentStart) {
                break;
            }
            throttler.maybeThrottle(batch.sizeInBytes());
            if (batch.lastOffset() < start) {
                continue;
            }
            if (!batch.isControlBatch()) {
                try (CloseableIterator<Record> records = batch.streamingIterator(decompression)) {
                    while (records.hasNext()) {
                        Record record = records.next();
                        if (record.offset() < start) {
                            continue;
                        }
                        if (record.hasKey()) {
                            if (offsetMap.size() >= maxDesired) {
                                return true;
                            }
                            offsetMap.put(record.key(), record.offset());
                        } else {
                            offsetMap.updateLatestOffset(record.offset());
                        }
                    }
                }
            }
            offsetMap.updateLatestOffset(batch.lastOffset());
        }
        offsetMap.updateLatestOffset(nextSegmentStart - 1);
        return false;
    }

    /**
     * Kafka's grouping: consecutive segments while their sizes add up to at most {@code maxSize},
     * their indexes to at most {@code maxIndexSize}, and their offsets fit an int relative to the
     * group's base offset.
     */
    static List<List<LogSegment>> groupSegmentsBySize(List<LogSegment> segments, int maxSize, int maxIndexSize,
                                                     long firstUncleanableOffset) {
        List<List<LogSegment>> groups = new ArrayList<>();
        int i = 0;
        while (i < segments.size()) {
            List<LogSegment> group = new ArrayList<>();
            LogSegment first = segments.get(i);
            group.add(first);
            long logSize = first.size();
            long indexSize = first.offsetIndex().sizeInBytes();
            long timeIndexSize = first.timeIndex().sizeInBytes();
            i++;
            while (i < segments.size()) {
                LogSegment next = segments.get(i);
                long lastOffsetOfNext = i + 1 < segments.size() ? segments.get(i + 1).baseOffset() - 1 : firstUncleanableOffset - 1;
                boolean fits = logSize + next.size() <= maxSize
                    && indexSize + next.offsetIndex().sizeInBytes() <= maxIndexSize
                    && timeIndexSize + next.timeIndex().sizeInBytes() <= maxIndexSize
                    && (next.size() == 0 || lastOffsetOfNext - first.baseOffset() <= Integer.MAX_VALUE);
                if (!fits) {
                    break;
                }
                group.add(next);
                logSize += next.size();
                indexSize += next.offsetIndex().sizeInBytes();
                timeIndexSize += next.timeIndex().sizeInBytes();
                i++;
            }
            groups.add(group);
        }
        return groups;
    }

    /** Cleans one group into a new segment and swaps it in; trailing segments left with nothing are deleted. */
    private void cleanGroup(PartitionLog partitionLog, List<LogSegment> group, long version, CleanerFilter filter)
            throws IOException {
        LogSegment cleaned = newCleanedSegment(partitionLog, group.get(0).baseOffset());
        long lastRetained = -1;
        try {
            LogSegment next = partitionLog.segments().higher(group.get(group.size() - 1).baseOffset());
            long upperBound = next == null ? partitionLog.logEndOffset() : next.baseOffset();
            filter.startGroup(new CleanedTransactions(partitionLog.segments().collectAbortedTxnEntries(
                partitionLog.logStartOffset(), upperBound), cleaned.txnIndex()));
            for (LogSegment segment : group) {
                lastRetained = Math.max(lastRetained, cleanInto(partitionLog, segment, cleaned, filter));
                bytesRead += segment.size();
            }
        } catch (IOException | RuntimeException e) {
            discard(cleaned);
            throw e;
        }
        int replaced = 1;
        while (replaced < group.size() && group.get(replaced).baseOffset() <= lastRetained) {
            replaced++;
        }
        swap(partitionLog, cleaned, group.subList(0, replaced), version);
        if (replaced < group.size()
                && !CleanerSwap.removeCleanedAwaySegments(partitionLog, group.subList(replaced, group.size()), version)) {
            throw new CleaningAbortedException("The log of " + partitionLog.topicPartition() + " changed while it was cleaned");
        }
    }

    private void swap(PartitionLog partitionLog, LogSegment cleaned, List<LogSegment> old, long version) throws IOException {
        boolean swapStarted = false;
        try {
            cleaned.onBecomeInactiveSegment();
            cleaned.flush();
            cleaned.setLastModified(old.get(old.size() - 1).lastModified());
            // From here on the files are left to the swap, or to the next load should this stop.
            swapStarted = true;
            swapHook.reached(SwapHook.Step.CLEANED_WRITTEN);
            if (!CleanerSwap.replaceSegments(partitionLog, cleaned, old, version, swapHook)) {
                swapStarted = false;
                throw new CleaningAbortedException("The log of " + partitionLog.topicPartition()
                    + " changed while it was cleaned");
            }
            bytesWritten += cleaned.size();
            log.debug("Swapped cleaned segment {} in for {} of {}", cleaned, old, partitionLog.topicPartition());
        } finally {
            if (!swapStarted) {
                discard(cleaned);
            }
        }
    }

    private LogSegment newCleanedSegment(PartitionLog partitionLog, long baseOffset) throws IOException {
        LogConfig config = partitionLog.config();
        java.io.File dir = partitionLog.dir();
        Files.deleteIfExists(LogFileNames.logFile(dir, baseOffset, LogFileNames.CLEANED_SUFFIX).toPath());
        Files.deleteIfExists(LogFileNames.offsetIndexFile(dir, baseOffset, LogFileNames.CLEANED_SUFFIX).toPath());
        Files.deleteIfExists(LogFileNames.timeIndexFile(dir, baseOffset, LogFileNames.CLEANED_SUFFIX).toPath());
        Files.deleteIfExists(LogFileNames.txnIndexFile(dir, baseOffset, LogFileNames.CLEANED_SUFFIX).toPath());
        return LogSegment.open(dir, baseOffset, config.segmentIndexBytes(), config.indexIntervalBytes(), 0, false,
            config.segmentBytes(), time, false, LogFileNames.CLEANED_SUFFIX);
    }

    private static void discard(LogSegment cleaned) {
        try {
            cleaned.closeHandlers();
            cleaned.deleteIfExists();
        } catch (IOException | RuntimeException e) {
            log.warn("Could not delete abandoned cleaned segment {}", cleaned, e);
        }
    }

    /**
     * Copies what survives of {@code source} into {@code dest}, a read buffer at a time.
     *
     * @return the largest offset written, -1 when none
     */
    private long cleanInto(PartitionLog partitionLog, LogSegment source, LogSegment dest, CleanerFilter filter)
            throws IOException {
        TopicPartition tp = partitionLog.topicPartition();
        FileRecords records = source.log();
        int size = records.sizeInBytes();
        int position = 0;
        long maxRetained = -1;
        while (position < size) {
            abortCheck.check(tp);
            readBuffer.clear();
            writeBuffer.clear();
            readBuffer.limit(Math.min(readBuffer.capacity(), size - position));
            records.readInto(readBuffer, position);
            MemoryRecords read = MemoryRecords.readableRecords(readBuffer);
            MemoryRecords.FilterResult result = read.filterTo(filter, writeBuffer, decompression,
                partitionLog.config().maxMessageBytes());
            position += result.bytesRead();
            throttler.maybeThrottle(result.bytesRead());
            ByteBuffer out = result.outputBuffer();
            if (out.position() > 0) {
                throttler.maybeThrottle(out.position());
                out.flip();
                MemoryRecords retained = MemoryRecords.readableRecords(out);
                dest.append(result.maxOffset(), result.maxTimestamp(), result.shallowOffsetOfMaxTimestamp(), retained);
                maxRetained = Math.max(maxRetained, result.maxOffset());
                trackDeleteHorizons(retained);
            }
            if (result.bytesRead() == 0) {
                growBuffers(records, position, read);
            }
        }
        return maxRetained;
    }

    /** Notes the earliest horizon of a retained tombstone the map judged, so the log is cleaned again then. */
    private void trackDeleteHorizons(MemoryRecords retained) {
        for (MutableRecordBatch batch : retained.batches()) {
            OptionalLong horizon = batch.deleteHorizonMs();
            if (horizon.isEmpty() || horizon.getAsLong() >= earliestHorizon || batch.isControlBatch()) {
                continue;
            }
            try (CloseableIterator<Record> it = batch.streamingIterator(decompression)) {
                while (it.hasNext()) {
                    Record record = it.next();
                    if (!record.hasValue() && record.offset() <= offsetMap.latestOffset()) {
                        earliestHorizon = horizon.getAsLong();
                        break;
                    }
                }
            }
        }
    }

    /** A batch larger than the read buffer: grow both buffers to hold it. */
    private void growBuffers(FileRecords source, int position, MemoryRecords read) {
        Integer nextBatchSize = read.firstBatchSize();
        int needed = nextBatchSize == null ? readBuffer.capacity() * 2 : nextBatchSize;
        if (needed <= readBuffer.capacity()) {
            throw new IllegalStateException("Batch of " + needed + " bytes at position " + position + " of " + source.file()
                + " fits the read buffer of " + readBuffer.capacity() + " bytes but was not processed");
        }
        if (needed > source.sizeInBytes() - position) {
            throw new CorruptRecordException("Segment " + source.file() + " may be corrupt: a batch of " + needed
                + " bytes at position " + position + " runs past its end");
        }
        log.info("Growing cleaner I/O buffers from {} to {} bytes", readBuffer.capacity(), needed);
        readBuffer = ByteBuffer.allocate(needed);
        writeBuffer = ByteBuffer.allocate(needed);
    }

    private void restoreBuffers() {
        if (readBuffer == null || readBuffer.capacity() != ioBufferSize) {
            readBuffer = ByteBuffer.allocate(ioBufferSize);
            writeBuffer = ByteBuffer.allocate(ioBufferSize);
        }
    }

    /** Decides, batch by batch and record by record, what survives a cleaning (Kafka's cleaner filter). */
    private final class CleanerFilter extends RecordFilter {
        private final Map<Long, LogToClean.ProducerBatchRef> lastBatchesOfProducers;
        private CleanedTransactions transactions;
        private boolean discardBatchRecords;

        CleanerFilter(long now, long deleteRetentionMs, Map<Long, LogToClean.ProducerBatchRef> lastBatchesOfProducers) {
            super(now, deleteRetentionMs);
            this.lastBatchesOfProducers = lastBatchesOfProducers;
        }

        /** The transactions of the next group of segments. */
        void startGroup(CleanedTransactions groupTransactions) {
            this.transactions = groupTransactions;
        }

        @Override
        protected BatchRetentionResult checkBatchRetention(RecordBatch batch) {
            boolean canDiscardBatch = canDiscard(batch);
            if (batch.isControlBatch()) {
                OptionalLong horizon = batch.deleteHorizonMs();
                discardBatchRecords = canDiscardBatch && horizon.isPresent() && horizon.getAsLong() <= currentTime;
            } else {
                discardBatchRecords = canDiscardBatch;
            }
            BatchRetention retention;
            if (batch.hasProducerId() && isLastBatchOfActiveProducer(batch)) {
                retention = BatchRetention.RETAIN_EMPTY;
            } else if (discardBatchRecords) {
                retention = BatchRetention.DELETE;
            } else {
                retention = BatchRetention.DELETE_EMPTY;
            }
            return new BatchRetentionResult(retention, canDiscardBatch && batch.isControlBatch());
        }

        @Override
        protected boolean shouldRetainRecord(RecordBatch batch, Record record) {
            if (discardBatchRecords) {
                return false;
            }
            if (batch.isControlBatch()) {
                return true;
            }
            if (record.offset() > offsetMap.latestOffset()) {
                return true;
            }
            if (!record.hasKey()) {
                return false;
            }
            boolean latestForKey = record.offset() >= offsetMap.get(record.key());
            OptionalLong horizon = batch.deleteHorizonMs();
            boolean retainTombstone = horizon.isEmpty() || currentTime < horizon.getAsLong();
            return latestForKey && (record.hasValue() || retainTombstone);
        }

        private boolean isLastBatchOfActiveProducer(RecordBatch batch) {
            LogToClean.ProducerBatchRef last = lastBatchesOfProducers.get(batch.producerId());
            if (last == null) {
                return false;
            }
            return last.lastDataOffset() >= 0 ? batch.lastOffset() == last.lastDataOffset()
                : batch.isControlBatch() && batch.producerEpoch() == last.producerEpoch();
        }

        /** Whether the batch's transaction lets it go (aborted data; a marker whose transaction is gone). */
        private boolean canDiscard(RecordBatch batch) {
            return batch.isControlBatch() ? transactions.onControlBatchRead(batch) : transactions.onBatchRead(batch);
        }
    }
}
