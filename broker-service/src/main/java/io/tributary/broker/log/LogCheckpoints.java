package io.tributary.broker.log;

import java.io.File;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;

/**
 * The per-directory offset checkpoints of a broker's partition logs, as Kafka's log manager keeps
 * them: {@code recovery-point-offset-checkpoint} (below it, data is known to be on disk, so recovery
 * starts there), {@code log-start-offset-checkpoint} and {@code replication-offset-checkpoint}
 * (high watermarks), each an {@link OffsetCheckpointFile} of {@code topic partition offset} lines.
 *
 * <p>Invariants: one file of each kind per log directory; a file, once written, lists exactly the
 * logs that were in its directory at the time, so a deleted log drops out; the files of a
 * directory not passed as online are left as they are.
 *
 * <p>Thread-safety: thread-safe (each {@link OffsetCheckpointFile} replaces its file atomically);
 * the scheduler's checkpoint tasks and the shutdown may write at the same time.
 *
 * <p>Units: Kafka offsets.
 */
final class LogCheckpoints {

    static final String RECOVERY_POINT_CHECKPOINT = "recovery-point-offset-checkpoint";
    static final String LOG_START_OFFSET_CHECKPOINT = "log-start-offset-checkpoint";
    static final String HIGH_WATERMARK_CHECKPOINT = "replication-offset-checkpoint";

    /**
     * The checkpointed offsets of the partitions in one directory.
     *
     * @param recoveryPoints  partition to recovery point
     * @param logStartOffsets partition to log start offset
     * @param highWatermarks  partition to high watermark
     */
    record DirOffsets(Map<TopicPartition, Long> recoveryPoints, Map<TopicPartition, Long> logStartOffsets,
                      Map<TopicPartition, Long> highWatermarks) {
    }

    private final Map<File, OffsetCheckpointFile> recoveryPoints = new HashMap<>();
    private final Map<File, OffsetCheckpointFile> logStartOffsets = new HashMap<>();
    private final Map<File, OffsetCheckpointFile> highWatermarks = new HashMap<>();

    LogCheckpoints(List<File> logDirs) {
        for (File dir : logDirs) {
            recoveryPoints.put(dir, new OffsetCheckpointFile(dir, RECOVERY_POINT_CHECKPOINT));
            logStartOffsets.put(dir, new OffsetCheckpointFile(dir, LOG_START_OFFSET_CHECKPOINT));
            highWatermarks.put(dir, new OffsetCheckpointFile(dir, HIGH_WATERMARK_CHECKPOINT));
        }
    }

    /** Reads the three checkpoints of {@code dir}, in that order; a missing or unreadable file reads as empty. */
    DirOffsets read(File dir) {
        Map<TopicPartition, Long> recovery = recoveryPoints.get(dir).read();
        Map<TopicPartition, Long> logStart = logStartOffsets.get(dir).read();
        Map<TopicPartition, Long> hw = highWatermarks.get(dir).read();
        return new DirOffsets(recovery, logStart, hw);
    }

    /**
     * Writes the recovery point, then the log start offset checkpoint of every online directory.
     *
     * @param logs       the partition logs, read as each file is written
     * @param onlineDirs the directories to write, asked again for each file
     */
    void writeRecoveryPointsAndLogStartOffsets(Collection<PartitionLog> logs, Supplier<List<File>> onlineDirs) {
        write(recoveryPoints, PartitionLog::recoveryPoint, logs, onlineDirs);
        write(logStartOffsets, PartitionLog::logStartOffset, logs, onlineDirs);
    }

    /** Writes the high watermark checkpoint of every online directory. */
    void writeHighWatermarks(Collection<PartitionLog> logs, Supplier<List<File>> onlineDirs) {
        write(highWatermarks, PartitionLog::highWatermark, logs, onlineDirs);
    }

    private static void write(Map<File, OffsetCheckpointFile> files, Function<PartitionLog, Long> offset,
                              Collection<PartitionLog> logs, Supplier<List<File>> onlineDirs) {
        Map<File, Map<TopicPartition, Long>> byDir = new HashMap<>();
        onlineDirs.get().forEach(d -> byDir.put(d, new HashMap<>()));
        for (PartitionLog partitionLog : logs) {
            Map<TopicPartition, Long> offsets = byDir.get(partitionLog.dir().getParentFile());
            if (offsets != null) {
                offsets.put(partitionLog.topicPartition(), offset.apply(partitionLog));
            }
        }
        byDir.forEach((dir, offsets) -> files.get(dir).write(offsets));
    }
}
