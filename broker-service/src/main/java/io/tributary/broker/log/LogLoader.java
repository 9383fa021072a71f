package io.tributary.broker.log;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.producer.CompletedTxn;
import io.tributary.broker.producer.ProducerStateManager;
import io.tributary.broker.scheduler.Scheduler;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a partition directory and brings its log to a consistent state.
 *
 * <p>After a clean shutdown the segments are trusted and only indexes that are missing or fail
 * their sanity check are rebuilt. After an unclean stop every segment from the recovery point
 * on is re-read: each batch's CRC and offsets are checked, the indexes are rebuilt, and the
 * log is truncated at the first invalid or incomplete batch (a torn write), dropping later
 * segments. Every valid batch before the damage is kept; the broker never refuses to start
 * because of a torn tail. Producer state is then reloaded from the latest snapshot and the
 * log after it replayed.
 *
 * <p>Before segments are opened, an interrupted cleaner swap is settled (Kafka's protocol, see
 * {@link LogSegments#replace}): {@code .cleaned} files are deleted (the clean is abandoned, the
 * old segments are intact); a {@code .log.swap} file completes its swap: the old segment files
 * with base offsets in {@code [swap base, swap next offset)} (at least the one at the swap base)
 * are deleted, the {@code .swap} files are renamed into place, and the indexes of the swapped-in
 * segment are rebuilt. This is unambiguous because the cleaner only swaps a segment whose next
 * offset is above the base offset of every segment it replaces (see {@link Cleaner}).
 */
final class LogLoader {

    private static final Logger log = LoggerFactory.getLogger(LogLoader.class);

    private LogLoader() {
    }

    /**
     * Loads the log in {@code dir}.
     *
     * @param recoveryPointCheckpoint  offset below which data is known to be on disk
     * @param logStartOffsetCheckpoint last checkpointed log start offset
     * @param highWatermarkCheckpoint  last checkpointed high watermark
     * @param hadCleanShutdown         whether the log directory holds a clean-shutdown marker
     * @throws IOException when files cannot be read or repaired
     */
    static PartitionLog load(File dir, TopicPartition tp, LogConfig config, long recoveryPointCheckpoint,
                             long logStartOffsetCheckpoint, long highWatermarkCheckpoint, boolean hadCleanShutdown,
                             Scheduler scheduler, Time time, int producerIdExpirationMs) throws IOException {
        removeTemporaryFiles(dir);
        Set<Long> needRebuild = completeInterruptedSwaps(dir);
        LogSegments segments = new LogSegments(tp);
        openSegments(dir, config, time, segments, needRebuild);

        LeaderEpochFileCache leaderEpochCache = new LeaderEpochFileCache(dir);
        ProducerStateManager producerStateManager = new ProducerStateManager(tp, dir, producerIdExpirationMs);

        // After an unclean stop, every segment from the one holding the recovery point on is re-read.
        Long recoverFrom = null;
        if (!hadCleanShutdown && !segments.isEmpty()) {
            LogSegment floor = segments.floor(recoveryPointCheckpoint);
            recoverFrom = floor == null ? segments.firstBaseOffset() : floor.baseOffset();
        }
        List<LogSegment> toRecover = new ArrayList<>();
        for (LogSegment segment : segments.values()) {
            if ((recoverFrom != null && segment.baseOffset() >= recoverFrom) || needRebuild.contains(segment.baseOffset())) {
                toRecover.add(segment);
            }
        }
        recoverSegments(tp, segments, toRecover, leaderEpochCache);

        if (segments.isEmpty()) {
            long start = Math.max(logStartOffsetCheckpoint, 0);
            segments.add(LogSegment.open(dir, start, config.segmentIndexBytes(), config.indexIntervalBytes(), 0,
                config.preallocate(), config.segmentBytes(), time, false, ""));
        }
        LogSegment active = segments.active();
        active.resizeIndexesToMax();
        long nextOffset = active.readNextOffset();
        long logStartOffset = Math.min(Math.max(logStartOffsetCheckpoint, segments.firstBaseOffset()), nextOffset);
        long recoveryPoint = hadCleanShutdown ? nextOffset : Math.min(recoveryPointCheckpoint, nextOffset);
        leaderEpochCache.truncateFromEnd(nextOffset);
        leaderEpochCache.truncateFromStart(logStartOffset);
        LogOffsetMetadata nextOffsetMetadata = new LogOffsetMetadata(nextOffset, active.baseOffset(), active.size());

        PartitionLog partitionLog = new PartitionLog(dir, tp, config, segments, logStartOffset, recoveryPoint,
            nextOffsetMetadata, highWatermarkCheckpoint, producerStateManager, leaderEpochCache, scheduler, time);
        // A recovered segment's transaction index may lack aborts (lost with an unflushed page, or deleted with
        // its other indexes): the replay starts at or before the first recovered segment and adds them again.
        long replayFrom = toRecover.stream().mapToLong(LogSegment::baseOffset).filter(segments::contains).min()
            .orElse(Long.MAX_VALUE);
        rebuildProducerState(partitionLog, producerStateManager, segments, logStartOffset, nextOffset, replayFrom,
            time.milliseconds());
        log.info("Loaded {} from {}: {} segment(s), log start offset {}, log end offset {}, {} shutdown",
            tp, dir, segments.count(), logStartOffset, nextOffset, hadCleanShutdown ? "clean" : "unclean");
        return partitionLog;
    }

    private static void removeTemporaryFiles(File dir) throws IOException {
        File[] files = dir.listFiles();
        if (files == null) {
            throw new IOException("Could not list " + dir);
        }
        for (File f : files) {
            String name = f.getName();
            if (name.endsWith(LogFileNames.CLEANED_SUFFIX)) {
                log.info("Deleting {} of an interrupted cleaning", f);
            }
            if (name.endsWith(".tmp") || name.endsWith(LogFileNames.DELETED_SUFFIX)
                    || name.endsWith(LogFileNames.CLEANED_SUFFIX)) {
                Files.deleteIfExists(f.toPath());
            }
        }
    }

    /**
     * Completes the swaps the cleaner committed ({@code .swap} files) but did not finish.
     *
     * @return base offsets of the swapped-in segments, whose indexes must be rebuilt
     */
    private static Set<Long> completeInterruptedSwaps(File dir) throws IOException {
        File[] files = dir.listFiles();
        if (files == null) {
            throw new IOException("Could not list " + dir);
        }
        Set<Long> swapped = new HashSet<>();
        String logSwap = LogFileNames.LOG_SUFFIX + LogFileNames.SWAP_SUFFIX;
        for (File f : files) {
            if (!f.getName().endsWith(logSwap)) {
                continue;
            }
            long base = LogFileNames.offsetFromFileName(f.getName());
            long next = nextOffsetOf(f, base);
            long end = Math.max(next, base + 1);
            log.info("Completing the interrupted swap of cleaned segment {} in {}: replacing segments in [{}, {})",
                f.getName(), dir, base, end);
            for (File old : files) {
                String name = old.getName();
                boolean segmentFile = name.endsWith(LogFileNames.LOG_SUFFIX) || name.endsWith(LogFileNames.INDEX_SUFFIX)
                    || name.endsWith(LogFileNames.TIME_INDEX_SUFFIX) || name.endsWith(LogFileNames.TXN_INDEX_SUFFIX);
                if (segmentFile) {
                    long offset = LogFileNames.offsetFromFileName(name);
                    if (offset >= base && offset < end) {
                        log.info("Deleting {}: it was cleaned into {}", old, f.getName());
                        Files.deleteIfExists(old.toPath());
                    }
                }
            }
            swapped.add(base);
        }
        for (File f : files) {
            String name = f.getName();
            if (name.endsWith(LogFileNames.SWAP_SUFFIX) && f.exists()) {
                File target = new File(dir, LogFileNames.replaceSuffix(name, LogFileNames.SWAP_SUFFIX, ""));
                Files.move(f.toPath(), target.toPath(), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                swapped.add(LogFileNames.offsetFromFileName(name));
            }
        }
        if (!swapped.isEmpty()) {
            org.apache.kafka.common.utils.Utils.flushDir(dir.toPath());
        }
        return swapped;
    }

    /** The offset after the last whole batch of a segment file; {@code base} when it has none. */
    private static long nextOffsetOf(File logFile, long base) throws IOException {
        long next = base;
        try (FileRecords records = FileRecords.open(logFile, false)) {
            for (FileChannelRecordBatch batch : records.batches()) {
                next = batch.nextOffset();
            }
        } catch (org.apache.kafka.common.errors.CorruptRecordException e) {
            log.warn("Swap file {} ends with invalid data after offset {}: {}", logFile, next, e.getMessage());
        }
        return next;
    }

    /** Opens every segment; adds to {@code needRebuild} those whose indexes are missing or corrupt. */
    private static void openSegments(File dir, LogConfig config, Time time, LogSegments segments,
                                     Set<Long> needRebuild) throws IOException {
        File[] files = dir.listFiles();
        if (files == null) {
            throw new IOException("Could not list " + dir);
        }
        Set<Long> logOffsets = new HashSet<>();
        for (File f : files) {
            if (f.getName().endsWith(LogFileNames.LOG_SUFFIX)) {
                logOffsets.add(LogFileNames.offsetFromFileName(f.getName()));
            }
        }
        for (File f : files) {
            String name = f.getName();
            if ((name.endsWith(LogFileNames.INDEX_SUFFIX) || name.endsWith(LogFileNames.TIME_INDEX_SUFFIX)
                    || name.endsWith(LogFileNames.TXN_INDEX_SUFFIX)) && !logOffsets.contains(LogFileNames.offsetFromFileName(name))) {
                log.warn("Deleting index {} which has no segment file", f);
                Files.deleteIfExists(f.toPath());
            }
        }
        for (long baseOffset : logOffsets) {
            boolean indexMissing = !LogFileNames.offsetIndexFile(dir, baseOffset, "").exists()
                || !LogFileNames.timeIndexFile(dir, baseOffset, "").exists();
            LogSegment segment = LogSegment.open(dir, baseOffset, config.segmentIndexBytes(), config.indexIntervalBytes(),
                0, config.preallocate(), config.segmentBytes(), time, true, "");
            if (indexMissing) {
                log.warn("Index files of segment {} in {} are missing; rebuilding them", baseOffset, dir);
                needRebuild.add(baseOffset);
            } else {
                try {
                    segment.offsetIndex().sanityCheck(segment.size());
                    segment.timeIndex().sanityCheck(segment.size());
                } catch (CorruptIndexException e) {
                    log.warn("{}; rebuilding the indexes of segment {}", e.getMessage(), baseOffset);
                    needRebuild.add(baseOffset);
                }
            }
            segments.add(segment);
        }
    }

    /**
     * Recovers the given segments in offset order. A segment that loses bytes ends the log:
     * every later segment is deleted.
     */
    private static void recoverSegments(TopicPartition tp, LogSegments segments,
                                        List<LogSegment> toRecover, LeaderEpochFileCache leaderEpochCache) throws IOException {
        for (LogSegment segment : toRecover) {
            if (!segments.contains(segment.baseOffset())) {
                continue;
            }
            int truncated = segment.recover(batch -> leaderEpochCache.assign(batch.partitionLeaderEpoch(), batch.baseOffset()));
            if (truncated > 0) {
                List<LogSegment> later = segments.after(segment.baseOffset());
                for (LogSegment l : later) {
                    log.warn("Deleting segment {} of {}: it follows invalid data in segment {}", l.baseOffset(), tp,
                        segment.baseOffset());
                    segments.remove(l.baseOffset());
                    l.deleteIfExists();
                }
            }
        }
        // An empty segment between two others holds nothing; keep the ordering invariant simple. The first one
        // stays even when empty (the cleaner empties head segments): it holds the log start offset in place.
        for (LogSegment segment : new ArrayList<>(segments.values())) {
            if (segment.size() == 0 && segment.baseOffset() != segments.lastBaseOffset()
                    && segment.baseOffset() != segments.firstBaseOffset()) {
                segments.remove(segment.baseOffset());
                segment.deleteIfExists();
            }
        }
        // The last valid segment becomes active again: its indexes must take appends.
        if (!segments.isEmpty()) {
            segments.active().resizeIndexesToMax();
        }
    }

    /**
     * Reloads producer state from the latest snapshot and replays batches from there to
     * {@code logEndOffset}, with the transactions they open and close (an abort found again goes to
     * its segment's transaction index unless already there); snapshots the result when anything was
     * replayed.
     */
    static void rebuildProducerState(PartitionLog partitionLog, ProducerStateManager producerStateManager,
                                     LogSegments segments, long logStartOffset,
                                     long logEndOffset, long now) throws IOException {
        rebuildProducerState(partitionLog, producerStateManager, segments, logStartOffset, logEndOffset, Long.MAX_VALUE,
            now);
    }

    /**
     * As {@link #rebuildProducerState(PartitionLog, ProducerStateManager, LogSegments, long, long, long)}, but
     * replaying from a snapshot at or below {@code replayFrom} (later snapshots are deleted, and a new one is
     * taken at the end), so every transaction completed from there on is found again: how a rebuilt segment
     * gets its transaction index back.
     */
    static void rebuildProducerState(PartitionLog partitionLog, ProducerStateManager producerStateManager,
                                     LogSegments segments, long logStartOffset,
                                     long logEndOffset, long replayFrom, long now) throws IOException {
        producerStateManager.truncateAndReload(logStartOffset, Math.min(logEndOffset, replayFrom), now);
        long from = producerStateManager.mapEndOffset();
        if (from < logEndOffset) {
            LogSegment first = segments.floor(from);
            int replayed = 0;
            for (LogSegment segment : first == null ? segments.values() : segments.holdingRange(from, Long.MAX_VALUE)) {
                FileRecords.LogOffsetPosition start = segment.translateOffset(from, 0);
                if (start == null) {
                    continue;
                }
                for (FileChannelRecordBatch batch : segment.log().batchesFrom(start.position)) {
                    if (batch.lastOffset() >= from && batch.baseOffset() < logEndOffset) {
                        for (CompletedTxn txn : producerStateManager.replay(batch, now)) {
                            LogAppender.completeTransaction(producerStateManager, segment, txn);
                        }
                        replayed++;
                    }
                }
            }
            producerStateManager.updateMapEndOffset(logEndOffset);
            if (replayed > 0) {
                producerStateManager.takeSnapshot();
            }
            log.debug("Rebuilt producer state of {} from offset {} to {} ({} batches)", partitionLog.topicPartition(),
                from, logEndOffset, replayed);
        } else {
            producerStateManager.updateMapEndOffset(logEndOffset);
        }
        producerStateManager.onHighWatermarkUpdated(partitionLog.highWatermark());
    }
}
