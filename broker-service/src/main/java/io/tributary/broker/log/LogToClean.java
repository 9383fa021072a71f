package io.tributary.broker.log;

import io.tributary.broker.config.LogConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A compacted log as the cleaner sees it (Kafka's {@code LogToClean}): the clean section is
 * {@code [logStartOffset, firstDirtyOffset)}, the dirty section that may be cleaned now is
 * {@code [firstDirtyOffset, firstUncleanableOffset)}, where {@code firstUncleanableOffset} is the
 * base offset of the first segment that must not be cleaned: the active segment, the segment
 * holding the last stable offset (the high watermark, or an earlier open transaction's first
 * offset: its outcome is not known yet), or the first segment with a record younger than
 * {@code min.compaction.lag.ms}. Sizes are whole segments, bytes.
 *
 * @param log                    the log
 * @param firstDirtyOffset       where the dirty section starts (the cleaner checkpoint)
 * @param firstUncleanableOffset base offset of the first segment that must not be cleaned
 * @param cleanBytes             bytes of segments below {@code firstDirtyOffset}
 * @param cleanableBytes         bytes of segments in the dirty section
 * @param needCompactionNow      a dirty record is older than {@code max.compaction.lag.ms}
 */
record LogToClean(PartitionLog log, long firstDirtyOffset, long firstUncleanableOffset, long cleanBytes,
                  long cleanableBytes, boolean needCompactionNow) {

    long totalBytes() {
        return cleanBytes + cleanableBytes;
    }

    /** Dirty bytes over all bytes of the cleanable range, 0 for an empty log. */
    double cleanableRatio() {
        return totalBytes() == 0 ? 0 : (double) cleanableBytes / totalBytes();
    }

    /** Whether the cleaner should clean this log now: dirty enough, or a record waited past the maximum lag. */
    boolean shouldClean() {
        return cleanableBytes > 0
            && (needCompactionNow || cleanableRatio() >= log.config().minCleanableDirtyRatio());
    }

    /**
     * The last batch of every producer in the log's producer state, by producer id, read under the
     * log's lock: the cleaner keeps these batches (emptied if need be) so the state can be rebuilt
     * from the log.
     */
    Map<Long, ProducerBatchRef> lastBatchesOfActiveProducers() {
        log.lock().lock();
        try {
            Map<Long, ProducerBatchRef> out = new HashMap<>();
            log.producerStateManager().activeProducers().forEach((id, entry) ->
                out.put(id, new ProducerBatchRef(entry.lastDataOffset(), entry.producerEpoch())));
            return out;
        } finally {
            log.lock().unlock();
        }
    }

    /** A producer's last data offset (-1 when none) and epoch. */
    record ProducerBatchRef(long lastDataOffset, short producerEpoch) {
    }

    /**
     * Computes the sections of {@code log} with its first dirty offset.
     *
     * @param nowMs current time, for the compaction lags
     */
    static LogToClean of(PartitionLog log, long firstDirtyOffset, long nowMs) {
        LogSegments segments = log.segments();
        LogConfig config = log.config();
        LogSegment active = segments.active();
        long uncleanable = Math.min(log.lastStableOffset(), active.baseOffset());
        if (config.minCompactionLagMs() > 0) {
            for (LogSegment s : segments.overlapping(firstDirtyOffset, active.baseOffset())) {
                if (s.largestTimestamp() > nowMs - config.minCompactionLagMs()) {
                    uncleanable = Math.min(uncleanable, s.baseOffset());
                    break;
                }
            }
        }
        LogSegment holding = segments.floor(uncleanable);
        long firstUncleanable = holding == null ? uncleanable : holding.baseOffset();
        long cleanBytes = sum(segments.overlapping(Long.MIN_VALUE, firstDirtyOffset));
        List<LogSegment> dirty = segments.overlapping(Math.min(firstDirtyOffset, firstUncleanable), firstUncleanable);
        return new LogToClean(log, firstDirtyOffset, firstUncleanable, cleanBytes, sum(dirty),
            maxCompactionDelayMs(log, firstDirtyOffset, nowMs) > 0);
    }

    /**
     * How long past {@code max.compaction.lag.ms} the oldest dirty non-active segment's first
     * batch is, ms; 0 when none is.
     */
    static long maxCompactionDelayMs(PartitionLog log, long firstDirtyOffset, long nowMs) {
        long maxLag = log.config().maxCompactionLagMs();
        if (maxLag == Long.MAX_VALUE) {
            return 0;
        }
        LogSegments segments = log.segments();
        long earliest = Long.MAX_VALUE;
        for (LogSegment s : segments.overlapping(firstDirtyOffset, segments.active().baseOffset())) {
            OptionalLong first = s.firstBatchTimestamp();
            if (first.isPresent() && first.getAsLong() > 0) {
                earliest = Math.min(earliest, first.getAsLong());
            }
        }
        long cleanUntil = nowMs - Math.max(maxLag, 0);
        return earliest < cleanUntil ? cleanUntil - earliest : 0;
    }

    private static long sum(List<LogSegment> segments) {
        long total = 0;
        for (LogSegment s : segments) {
            total += s.size();
        }
        return total;
    }
}
