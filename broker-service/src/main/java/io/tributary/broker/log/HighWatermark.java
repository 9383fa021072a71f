package io.tributary.broker.log;

import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The high watermark of one partition log: the offset below which every record is on all in-sync
 * replicas (committed, visible to consumers), with its position on disk when known, as Kafka's
 * {@code UnifiedLog} keeps {@code highWatermarkMetadata}.
 *
 * <p>Invariants: logStartOffset &lt;= offset &lt;= logEndOffset, kept by the callers passing the
 * current log start and end; a position is kept only where it cannot be stale: at the log end, in
 * the active segment, or computed from the segments under the lock. A position in an older segment
 * is dropped, since the cleaner rewrites those segments.
 *
 * <p>Thread-safety: {@link #offset()} and {@link #metadata()} read a volatile field without locking;
 * every change is made with the owning {@link PartitionLog}'s lock held, so the log end passed in
 * cannot move meanwhile.
 *
 * <p>Units: Kafka offsets; positions are bytes in the segment named by its base offset.
 */
final class HighWatermark {

    private volatile LogOffsetMetadata metadata;

    private HighWatermark(LogOffsetMetadata metadata) {
        this.metadata = metadata;
    }

    /**
     * A high watermark loaded from a checkpoint, raised to the log start offset and capped at the log
     * end; it takes the log end's position when it is the log end.
     */
    static HighWatermark fromCheckpoint(long checkpointed, long logStartOffset, LogOffsetMetadata logEnd) {
        long hw = Math.min(Math.max(checkpointed, logStartOffset), logEnd.messageOffset());
        return new HighWatermark(hw == logEnd.messageOffset() ? logEnd : LogOffsetMetadata.unknownPosition(hw));
    }

    long offset() {
        return metadata.messageOffset();
    }

    LogOffsetMetadata metadata() {
        return metadata;
    }

    /** Sets the high watermark as it is, e.g. to the log end after a truncation. Caller holds the lock. */
    void set(LogOffsetMetadata newMetadata) {
        this.metadata = newMetadata;
    }

    /**
     * Moves the high watermark up to {@code candidate} capped at the log end, or only learns its
     * position when the offset is unchanged and the position was unknown. Caller holds the lock.
     *
     * @param activeSegmentBaseOffset the active segment's base offset: only a position in it is trusted
     * @return whether it changed
     */
    boolean maybeIncrement(LogOffsetMetadata candidate, LogOffsetMetadata logEnd, long activeSegmentBaseOffset) {
        LogOffsetMetadata current = metadata;
        long newOffset = Math.min(candidate.messageOffset(), logEnd.messageOffset());
        // A position in a non-active segment may be stale (the cleaner rewrites those): keep only the offset.
        boolean positionTrusted = candidate.positionKnown() && candidate.segmentBaseOffset() == activeSegmentBaseOffset;
        LogOffsetMetadata next = newOffset == logEnd.messageOffset() ? logEnd
            : positionTrusted ? candidate : LogOffsetMetadata.unknownPosition(newOffset);
        if (newOffset > current.messageOffset()
                || (newOffset == current.messageOffset() && !current.positionKnown() && next.positionKnown())) {
            metadata = next;
            return true;
        }
        return false;
    }

    /**
     * Sets the high watermark to {@code offset}, bounded by the log end and then the log start, up or
     * down (a follower learns it from its leader). Caller holds the lock.
     */
    void update(long offset, long logStartOffset, LogOffsetMetadata logEnd) {
        long bounded = Math.max(logStartOffset, Math.min(offset, logEnd.messageOffset()));
        metadata = bounded == logEnd.messageOffset() ? logEnd : LogOffsetMetadata.unknownPosition(bounded);
    }

    /** Keeps only the offset when the position lies in one of {@code removed} segments. Caller holds the lock. */
    void forgetPositionIn(List<LogSegment> removed) {
        LogOffsetMetadata hw = metadata;
        if (hw.positionKnown() && removed.stream().anyMatch(s -> s.baseOffset() == hw.segmentBaseOffset())) {
            metadata = LogOffsetMetadata.unknownPosition(hw.messageOffset());
        }
    }

    @Override
    public String toString() {
        return "HighWatermark(" + metadata + ")";
    }

    /**
     * The high watermark with its position, computing the position under {@code lock} (the log's)
     * when it is unknown; it stays unknown if the offset is not in the log.
     */
    LogOffsetMetadata metadataWithPosition(ReentrantLock lock, LocalLog localLog) {
        LogOffsetMetadata hw = metadata;
        if (hw.positionKnown()) {
            return hw;
        }
        lock.lock();
        try {
            hw = metadata;
            if (!hw.positionKnown()) {
                hw = localLog.convertToOffsetMetadata(hw.messageOffset());
                if (hw.positionKnown()) {
                    set(hw);
                }
            }
            return hw;
        } finally {
            lock.unlock();
        }
    }
}
