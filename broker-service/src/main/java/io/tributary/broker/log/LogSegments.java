package io.tributary.broker.log;

import io.tributary.broker.scheduler.Scheduler;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.record.internal.FileRecords;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The segments of one partition log, keyed by base offset, and the lookups that span them:
 * reads that continue into the next segment, offsets by timestamp, positions of offsets, and
 * the removal of segments with delayed file deletion.
 *
 * <p>Thread-safety: the map is concurrent, so readers iterate without locks; changes are made
 * by {@link PartitionLog} under its lock.
 */
final class LogSegments {

    private static final Logger log = LoggerFactory.getLogger(LogSegments.class);

    private final TopicPartition topicPartition;
    private final ConcurrentSkipListMap<Long, LogSegment> segments = new ConcurrentSkipListMap<>();

    LogSegments(TopicPartition topicPartition) {
        this.topicPartition = topicPartition;
    }

    void add(LogSegment segment) {
        segments.put(segment.baseOffset(), segment);
    }

    void remove(long baseOffset) {
        segments.remove(baseOffset);
    }

    boolean contains(long baseOffset) {
        return segments.containsKey(baseOffset);
    }

    boolean isEmpty() {
        return segments.isEmpty();
    }

    int count() {
        return segments.size();
    }

    LogSegment get(long baseOffset) {
        return segments.get(baseOffset);
    }

    /** The last segment, which takes appends. */
    LogSegment active() {
        return segments.lastEntry().getValue();
    }

    long firstBaseOffset() {
        return segments.firstKey();
    }

    long lastBaseOffset() {
        return segments.lastKey();
    }

    /** The segment holding {@code offset}, or null when it precedes every segment. */
    LogSegment floor(long offset) {
        Map.Entry<Long, LogSegment> e = segments.floorEntry(offset);
        return e == null ? null : e.getValue();
    }

    /** The segment after the one based at {@code baseOffset}, or null. */
    LogSegment higher(long baseOffset) {
        Map.Entry<Long, LogSegment> e = segments.higherEntry(baseOffset);
        return e == null ? null : e.getValue();
    }

    Collection<LogSegment> values() {
        return segments.values();
    }

    /** Segments whose base offset is above {@code offset}. */
    List<LogSegment> after(long offset) {
        return new ArrayList<>(segments.tailMap(offset, false).values());
    }

    /** Segments from the one holding {@code fromOffset} (or the first) up to, not including, base offset {@code toOffset}. */
    Collection<LogSegment> holdingRange(long fromOffset, long toOffset) {
        Long floor = segments.floorKey(fromOffset);
        long from = floor == null ? segments.firstKey() : floor;
        return from < toOffset ? segments.subMap(from, true, toOffset, false).values() : List.of();
    }

    List<Long> baseOffsets() {
        return new ArrayList<>(segments.keySet());
    }

    /** Bytes of all segment files. */
    long sizeInBytes() {
        long size = 0;
        for (LogSegment segment : segments.values()) {
            size += segment.size();
        }
        return size;
    }

    /**
     * Reads from {@code startOffset}, continuing into later segments when it lies past a
     * segment's last batch, never past {@code maxOffsetMetadata}.
     *
     * @param end the log end offset, returned as an empty read when nothing is left
     */
    FetchDataInfo read(long startOffset, int maxLength, LogOffsetMetadata maxOffsetMetadata, boolean minOneMessage,
                       LogOffsetMetadata end) {
        Map.Entry<Long, LogSegment> entry = segments.floorEntry(startOffset);
        while (entry != null) {
            LogSegment segment = entry.getValue();
            long maxPosition = maxOffsetMetadata.segmentBaseOffset() == segment.baseOffset()
                ? maxOffsetMetadata.relativePositionInSegment() : segment.size();
            FetchDataInfo info = segment.read(startOffset, maxLength, maxPosition, minOneMessage);
            if (info != null) {
                return info;
            }
            entry = segments.higherEntry(entry.getKey());
        }
        return FetchDataInfo.empty(end);
    }

    /**
     * The aborted transactions overlapping {@code [startOffset, upperBoundOffset)}, from the
     * transaction indexes of the segment holding {@code startOffset} and those after it, until an
     * entry shows that no later abort can overlap ({@link TransactionIndex#collect}).
     */
    List<AbortedTransaction> collectAbortedTransactions(long startOffset, long upperBoundOffset) throws IOException {
        List<AbortedTransaction> out = new ArrayList<>();
        for (TransactionIndex.AbortedTxnEntry entry : collectAbortedTxnEntries(startOffset, upperBoundOffset)) {
            out.add(new AbortedTransaction(entry.producerId(), entry.firstOffset()));
        }
        return out;
    }

    /** As {@link #collectAbortedTransactions}, whole entries (for the cleaner). */
    List<TransactionIndex.AbortedTxnEntry> collectAbortedTxnEntries(long startOffset, long upperBoundOffset)
            throws IOException {
        List<TransactionIndex.AbortedTxnEntry> out = new ArrayList<>();
        for (LogSegment segment : holdingRange(startOffset, Long.MAX_VALUE)) {
            TransactionIndex.Collected collected = segment.txnIndex().collect(startOffset, upperBoundOffset);
            out.addAll(collected.aborted());
            if (collected.isComplete()) {
                break;
            }
        }
        return out;
    }

    /** Where {@code offset} lies on disk (the start of its batch), or unknown when it is not in the log. */
    LogOffsetMetadata convertToOffsetMetadata(long offset, LogOffsetMetadata end) {
        if (offset == end.messageOffset()) {
            return end;
        }
        Map.Entry<Long, LogSegment> entry = segments.floorEntry(offset);
        if (entry == null || offset > end.messageOffset()) {
            return LogOffsetMetadata.unknownPosition(offset);
        }
        FileRecords.LogOffsetPosition position = entry.getValue().translateOffset(offset, 0);
        if (position == null) {
            Map.Entry<Long, LogSegment> next = segments.higherEntry(entry.getKey());
            return next == null ? LogOffsetMetadata.unknownPosition(offset) : new LogOffsetMetadata(offset, next.getKey(), 0);
        }
        return new LogOffsetMetadata(offset, entry.getKey(), position.position);
    }

    /** The first record at or after {@code logStartOffset} whose timestamp is at least {@code targetTimestamp}. */
    Optional<FileRecords.TimestampAndOffset> offsetByTimestamp(long targetTimestamp, long logStartOffset) {
        for (LogSegment segment : segments.values()) {
            if (segment.maxTimestampSoFar() >= targetTimestamp) {
                FileRecords.TimestampAndOffset found = segment.findOffsetByTimestamp(targetTimestamp,
                    Math.max(logStartOffset, segment.baseOffset()));
                if (found != null) {
                    return Optional.of(found);
                }
            }
        }
        return Optional.empty();
    }

    /** The first record carrying the largest timestamp of the log. */
    Optional<FileRecords.TimestampAndOffset> offsetOfMaxTimestamp(long logStartOffset) {
        LogSegment best = null;
        for (LogSegment segment : segments.values()) {
            if (segment.maxTimestampSoFar() >= 0 && (best == null || segment.maxTimestampSoFar() > best.maxTimestampSoFar())) {
                best = segment;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(best.findOffsetByTimestamp(best.maxTimestampSoFar(),
            Math.max(logStartOffset, best.baseOffset())));
    }

    /** Decides whether retention deletes a segment, given the one after it (null for the last). */
    interface DeletionPredicate {
        boolean shouldDelete(LogSegment segment, LogSegment next);
    }

    /**
     * The oldest segments, in order, that {@code predicate} accepts, stopping at the first it
     * refuses; a segment whose data reaches above {@code highWatermark}, and an empty last
     * segment, are never deletable.
     */
    List<LogSegment> deletable(DeletionPredicate predicate, long highWatermark, long logEndOffset) {
        List<LogSegment> deletable = new ArrayList<>();
        for (Map.Entry<Long, LogSegment> entry : segments.entrySet()) {
            LogSegment segment = entry.getValue();
            LogSegment next = higher(entry.getKey());
            long upperBoundOffset = next == null ? logEndOffset : next.baseOffset();
            boolean lastAndEmpty = next == null && segment.size() == 0;
            if (lastAndEmpty || upperBoundOffset > highWatermark || !predicate.shouldDelete(segment, next)) {
                break;
            }
            deletable.add(segment);
        }
        return deletable;
    }

    /**
     * Removes a segment from the log at once and deletes its files after {@code delayMs}: they
     * are renamed {@code .deleted} meanwhile, so reads in flight (zero-copy sends included) finish.
     *
     * @throws KafkaStorageException when the rename fails
     */
    void removeAndDeleteLater(LogSegment segment, Scheduler scheduler, long delayMs) {
        segments.remove(segment.baseOffset());
        try {
            segment.changeFileSuffixes("", LogFileNames.DELETED_SUFFIX);
        } catch (IOException e) {
            throw new KafkaStorageException("Error renaming segment " + segment.baseOffset() + " of " + topicPartition, e);
        }
        scheduler.schedule("delete-segment-" + topicPartition + "-" + segment.baseOffset(), () -> {
            try {
                segment.deleteIfExists();
            } catch (IOException e) {
                log.warn("Could not delete segment files of {} at {}", topicPartition, segment.baseOffset(), e);
            }
        }, delayMs, 0);
    }

    /**
     * Replaces {@code oldSegments} (consecutive, the first based at {@code cleaned}'s base offset)
     * by {@code cleaned}, with Kafka's swap protocol so that a crash at any point leaves either the
     * old segments or the cleaned one after {@link LogLoader} ran:
     * <ol>
     *   <li>the cleaned segment, flushed, is renamed from {@code .cleaned} to {@code .swap} and the
     *       directory is flushed: from here the replacement is committed (a {@code .cleaned} file
     *       found on load is deleted; a {@code .swap} file completes the swap);</li>
     *   <li>the map switches to the cleaned segment; the old segments are renamed {@code .deleted}
     *       and their files deleted after {@code delayMs} (reads in flight finish);</li>
     *   <li>the swap segment is renamed to its final names and the directory flushed.</li>
     * </ol>
     * Caller holds the log's lock and has checked that the old segments are still in the log.
     *
     * @throws IOException when a rename or flush fails; the caller must stop using the log (the
     *                     next load completes or abandons the swap from the files)
     */
    void replace(LogSegment cleaned, List<LogSegment> oldSegments, File dir, Scheduler scheduler, long delayMs,
                 SwapHook hook) throws IOException {
        if (oldSegments.isEmpty() || oldSegments.get(0).baseOffset() != cleaned.baseOffset()) {
            throw new IllegalArgumentException("Cleaned segment " + cleaned.baseOffset() + " does not replace " + oldSegments);
        }
        cleaned.changeFileSuffixes(LogFileNames.CLEANED_SUFFIX, LogFileNames.SWAP_SUFFIX);
        org.apache.kafka.common.utils.Utils.flushDir(dir.toPath());
        hook.reached(SwapHook.Step.SWAP_RENAMED);
        segments.put(cleaned.baseOffset(), cleaned);
        for (LogSegment old : oldSegments) {
            if (old.baseOffset() != cleaned.baseOffset()) {
                segments.remove(old.baseOffset(), old);
            }
        }
        for (LogSegment old : oldSegments) {
            old.changeFileSuffixes("", LogFileNames.DELETED_SUFFIX);
            scheduler.schedule("delete-segment-" + topicPartition + "-" + old.baseOffset(), () -> {
                try {
                    old.deleteIfExists();
                } catch (IOException e) {
                    log.warn("Could not delete cleaned-away segment files of {} at {}", topicPartition, old.baseOffset(), e);
                }
            }, delayMs, 0);
            hook.reached(SwapHook.Step.OLD_SEGMENT_REMOVED);
        }
        cleaned.changeFileSuffixes(LogFileNames.SWAP_SUFFIX, "");
        org.apache.kafka.common.utils.Utils.flushDir(dir.toPath());
        hook.reached(SwapHook.Step.SWAP_COMPLETED);
    }

    /** Whether every one of {@code expected} is still the segment at its base offset. */
    boolean containsAll(List<LogSegment> expected) {
        for (LogSegment segment : expected) {
            if (segments.get(segment.baseOffset()) != segment) {
                return false;
            }
        }
        return true;
    }

    /** Segments overlapping offsets {@code [from, to)}: from the one holding {@code from} (or the first), base below {@code to}. */
    List<LogSegment> overlapping(long from, long to) {
        Long floor = segments.floorKey(from);
        long start = floor == null ? Long.MIN_VALUE : floor;
        return start < to ? new ArrayList<>(segments.subMap(start, true, to, false).values()) : List.of();
    }

    void updateParentDir(File dir) {
        segments.values().forEach(s -> s.updateParentDir(dir));
    }

    /** Closes every segment, writing final index entries. */
    void close() {
        for (LogSegment segment : segments.values()) {
            try {
                segment.close();
            } catch (IOException e) {
                log.warn("Error closing segment {} of {}", segment.baseOffset(), topicPartition, e);
            }
        }
    }

    void closeHandlers() {
        segments.values().forEach(LogSegment::closeHandlers);
    }
}
