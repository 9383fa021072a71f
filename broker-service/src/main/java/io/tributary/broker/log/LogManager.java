package io.tributary.broker.log;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.scheduler.Scheduler;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the log directories of a broker and every partition log in them: loading and recovery
 * at start, creation and placement of new logs (the directory with the fewest partitions),
 * deletion, background retention, flushing and checkpoints, and the clean shutdown.
 *
 * <p>Each log directory holds, as in Kafka: one directory per partition
 * ({@code <topic>-<partition>}), {@code recovery-point-offset-checkpoint},
 * {@code log-start-offset-checkpoint}, {@code replication-offset-checkpoint} (high watermarks),
 * {@code meta.properties} (cluster and broker id), a {@code .lock} held while the broker runs,
 * {@code cleaner-offset-checkpoint} (the {@link LogCleaner}'s progress, when it is enabled) and
 * {@code .kafka_cleanshutdown} written after a clean shutdown.
 *
 * <p>With a cleaner, retention of compacted logs runs on the cleaner's threads (so it never
 * overlaps a cleaning of the same log) and deleting a log first stops its cleaning.
 *
 * <p>Roles, as in Kafka's storage module: the directories themselves (locks, {@code meta.properties},
 * which are offline) are {@link LogDirectories}; the offset checkpoints {@link LogCheckpoints}; loading
 * one log {@link LogLoader}. This class keeps the life cycle of the set of logs across the directories
 * and its scheduled tasks.
 *
 * <p>Thread-safe.
 */
public final class LogManager {

    private static final Logger log = LoggerFactory.getLogger(LogManager.class);

    static final String CLEAN_SHUTDOWN_FILE = ".kafka_cleanshutdown";
    private static final long INITIAL_TASK_DELAY_MS = 30_000;

    /**
     * Settings of the log manager.
     *
     * @param recoveryThreadsPerDir         threads loading logs per directory
     * @param retentionCheckIntervalMs      period of the retention run, ms
     * @param flushCheckIntervalMs          period of the {@code flush.ms} check, ms
     * @param checkpointIntervalMs          period of the recovery point and log start offset checkpoints, ms
     * @param highWatermarkCheckpointIntervalMs period of the high watermark checkpoint, ms
     * @param producerIdExpirationMs        idle producer expiry, ms
     * @param producerExpirationCheckIntervalMs period of the idle producer check, ms
     * @param cleaner                       the log cleaner's settings, when compacted logs are cleaned
     *                                      ({@code log.cleaner.enable})
     */
    public record Settings(int recoveryThreadsPerDir, long retentionCheckIntervalMs, long flushCheckIntervalMs,
                           long checkpointIntervalMs, long highWatermarkCheckpointIntervalMs, int producerIdExpirationMs,
                           long producerExpirationCheckIntervalMs, Optional<LogCleaner.Config> cleaner) {

        /** Settings without a log cleaner. */
        public Settings(int recoveryThreadsPerDir, long retentionCheckIntervalMs, long flushCheckIntervalMs,
                        long checkpointIntervalMs, long highWatermarkCheckpointIntervalMs, int producerIdExpirationMs,
                        long producerExpirationCheckIntervalMs) {
            this(recoveryThreadsPerDir, retentionCheckIntervalMs, flushCheckIntervalMs, checkpointIntervalMs,
                highWatermarkCheckpointIntervalMs, producerIdExpirationMs, producerExpirationCheckIntervalMs,
                Optional.empty());
        }

        /** These settings with compacted logs cleaned by a cleaner of {@code config}. */
        public Settings withCleaner(LogCleaner.Config config) {
            return new Settings(recoveryThreadsPerDir, retentionCheckIntervalMs, flushCheckIntervalMs,
                checkpointIntervalMs, highWatermarkCheckpointIntervalMs, producerIdExpirationMs,
                producerExpirationCheckIntervalMs, Optional.of(config));
        }
    }

    private final List<File> logDirs;
    private final LogDirectories dirs;
    private final LogCheckpoints checkpoints;
    private final Settings settings;
    private final Scheduler scheduler;
    private final Time time;
    private final Map<TopicPartition, PartitionLog> logs = new ConcurrentHashMap<>();
    private final List<ScheduledFuture<?>> tasks = new ArrayList<>();
    private final Object createLock = new Object();
    private final LogCleaner cleaner;
    private final LogDirFailureChannel logDirFailures;

    /** A log manager whose failed directories are queued where nobody takes them (tests of the logs alone). */
    public LogManager(List<File> logDirs, Settings settings, Scheduler scheduler, Time time) {
        this(logDirs, settings, scheduler, time, new LogDirFailureChannel());
    }

    /**
     * @param logDirs        the log directories; created if missing
     * @param settings       intervals and thread counts
     * @param scheduler      runs retention, flushes, checkpoints and delayed deletions
     * @param time           the clock
     * @param logDirFailures where each directory taken offline is offered, once
     */
    public LogManager(List<File> logDirs, Settings settings, Scheduler scheduler, Time time,
                      LogDirFailureChannel logDirFailures) {
        this.logDirFailures = logDirFailures;
        this.dirs = new LogDirectories(logDirs);
        this.logDirs = dirs.all();
        this.checkpoints = new LogCheckpoints(this.logDirs);
        this.settings = settings;
        this.scheduler = scheduler;
        this.time = time;
        // The logs map, not this: nothing of a half-built log manager escapes to the cleaner.
        Map<TopicPartition, PartitionLog> cleanable = logs;
        this.cleaner = settings.cleaner().map(config -> new LogCleaner(config, this.logDirs,
            () -> List.copyOf(cleanable.values()), time)).orElse(null);
    }

    public List<File> logDirs() {
        return logDirs;
    }

    /** Log directories taken offline after an I/O error (KIP-112), until the broker restarts. */
    public Set<File> offlineLogDirs() {
        return dirs.offline();
    }

    /**
     * Takes a log directory offline after an I/O error in it (KIP-112): its logs are closed
     * without flushing and forgotten, no new log is created in it, its checkpoints are no longer
     * written, and it is offered to the {@link LogDirFailureChannel}, whose handler takes its partitions
     * offline so that they move to other replicas. The
     * broker keeps serving its other directories. Idempotent.
     *
     * @param dir    a log directory, or a file or directory under one
     * @param reason what failed, for the log
     * @return whether this call took it offline
     */
    public boolean handleLogDirFailure(File dir, String reason) {
        File logDir = dirs.markOffline(dir);
        if (logDir == null) {
            return false;
        }
        log.error("Log directory {} is offline after an I/O error ({}); its partitions are no longer served by this "
            + "broker until it restarts with the directory repaired", logDir, reason);
        for (PartitionLog partitionLog : List.copyOf(logs.values())) {
            if (partitionLog.dir().getParentFile().equals(logDir)) {
                logs.remove(partitionLog.topicPartition());
                try {
                    partitionLog.closeHandlers();
                } catch (RuntimeException e) {
                    log.debug("Error closing {} in an offline log directory", partitionLog.topicPartition(), e);
                }
            }
        }
        logDirFailures.offer(logDir);
        return true;
    }

    /**
     * Creates and locks the log directories, and checks or writes their {@code meta.properties}.
     *
     * @throws IllegalStateException when a directory is locked by another process or belongs to another
     *                               cluster or broker
     * @throws IOException           when a directory cannot be created or written
     */
    public void lockAndVerifyDirs(String clusterId, int brokerId) throws IOException {
        dirs.lockAndVerify(clusterId, brokerId);
    }

    /**
     * Loads every partition log, recovering those not shut down cleanly, and removes the
     * clean-shutdown markers (they are written again by {@link #shutdown()}).
     *
     * @param configs the config of each topic's logs
     */
    public void loadLogs(Function<String, LogConfig> configs) throws IOException {
        long start = time.milliseconds();
        for (File dir : logDirs) {
            Files.createDirectories(dir.toPath());
            File marker = new File(dir, CLEAN_SHUTDOWN_FILE);
            boolean cleanShutdown = marker.exists();
            LogCheckpoints.DirOffsets checkpointed = checkpoints.read(dir);
            Map<TopicPartition, Long> recoveryPoints = checkpointed.recoveryPoints();
            Map<TopicPartition, Long> logStartOffsets = checkpointed.logStartOffsets();
            Map<TopicPartition, Long> highWatermarks = checkpointed.highWatermarks();
            File[] children = dir.listFiles(File::isDirectory);
            if (children == null) {
                throw new IOException("Could not list log directory " + dir);
            }
            ExecutorService pool = Executors.newFixedThreadPool(settings.recoveryThreadsPerDir(),
                r -> new Thread(r, "log-recovery-" + dir.getName()));
            try {
                List<Future<PartitionLog>> loads = new ArrayList<>();
                for (File child : children) {
                    if (child.getName().endsWith(LogFileNames.DELETE_DIR_SUFFIX)) {
                        scheduleDirDeletion(child, null, 0);
                        continue;
                    }
                    TopicPartition tp = LogFileNames.parseTopicPartitionName(child.getName());
                    if (tp == null) {
                        log.warn("Ignoring directory {} in log directory {}: not a partition directory", child.getName(), dir);
                        continue;
                    }
                    loads.add(pool.submit(() -> LogLoader.load(child, tp, configs.apply(tp.topic()),
                        recoveryPoints.getOrDefault(tp, 0L), logStartOffsets.getOrDefault(tp, 0L),
                        highWatermarks.getOrDefault(tp, 0L), cleanShutdown, scheduler, time,
                        settings.producerIdExpirationMs())));
                }
                for (Future<PartitionLog> load : loads) {
                    PartitionLog partitionLog = load.get();
                    PartitionLog previous = logs.putIfAbsent(partitionLog.topicPartition(), partitionLog);
                    if (previous != null) {
                        throw new IllegalStateException("Duplicate log directories for " + partitionLog.topicPartition()
                            + ": " + previous.dir() + " and " + partitionLog.dir());
                    }
                }
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof IOException io) {
                    throw io;
                }
                throw new IllegalStateException("Error loading logs in " + dir + ": " + cause, cause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("Interrupted while loading logs", e);
            } finally {
                pool.shutdownNow();
            }
            Files.deleteIfExists(marker.toPath());
        }
        log.info("Loaded {} log(s) from {} in {} ms", logs.size(), logDirs, time.milliseconds() - start);
    }

    /** The log cleaner, when enabled. */
    public Optional<LogCleaner> cleaner() {
        return Optional.ofNullable(cleaner);
    }

    /** Starts retention, flushing, checkpoints, producer expiry and the cleaner. */
    public void startup() {
        if (cleaner != null) {
            cleaner.startup();
        }
        tasks.add(scheduler.schedule("log-retention", this::cleanupLogs, INITIAL_TASK_DELAY_MS,
            settings.retentionCheckIntervalMs()));
        tasks.add(scheduler.schedule("log-flusher", this::flushDirtyLogs, INITIAL_TASK_DELAY_MS,
            settings.flushCheckIntervalMs()));
        tasks.add(scheduler.schedule("recovery-point-checkpoint", this::checkpointRecoveryPointsAndLogStartOffsets,
            INITIAL_TASK_DELAY_MS, settings.checkpointIntervalMs()));
        tasks.add(scheduler.schedule("high-watermark-checkpoint", this::checkpointHighWatermarks,
            settings.highWatermarkCheckpointIntervalMs(), settings.highWatermarkCheckpointIntervalMs()));
        tasks.add(scheduler.schedule("producer-expiration", () -> logs.values().forEach(l -> l.producers().removeExpired()),
            settings.producerExpirationCheckIntervalMs(), settings.producerExpirationCheckIntervalMs()));
    }

    public Optional<PartitionLog> getLog(TopicPartition tp) {
        return Optional.ofNullable(logs.get(tp));
    }

    public Collection<PartitionLog> allLogs() {
        return List.copyOf(logs.values());
    }

    /**
     * The log of a partition, created in the log directory with the fewest partitions when absent.
     *
     * @param topicId stored in the new log's {@code partition.metadata}
     * @throws KafkaStorageException when the log cannot be created
     */
    public PartitionLog getOrCreateLog(TopicPartition tp, Uuid topicId, LogConfig config) {
        PartitionLog existing = logs.get(tp);
        if (existing != null) {
            return existing;
        }
        synchronized (createLock) {
            existing = logs.get(tp);
            if (existing != null) {
                return existing;
            }
            File parent = dirs.leastLoaded(() -> logs.values().stream().map(l -> l.dir().getParentFile()).toList());
            File dir = new File(parent, LogFileNames.logDirName(tp));
            try {
                Files.createDirectories(dir.toPath());
                PartitionLog created = LogLoader.load(dir, tp, config, 0, 0, 0, true, scheduler, time,
                    settings.producerIdExpirationMs());
                if (topicId != null && !Uuid.ZERO_UUID.equals(topicId)) {
                    created.assignTopicId(topicId);
                }
                if (cleaner != null) {
                    cleaner.forgetCheckpoint(tp, parent);
                }
                logs.put(tp, created);
                log.info("Created log for {} in {}", tp, dir);
                return created;
            } catch (IOException e) {
                throw new KafkaStorageException("Error creating the log of " + tp + " in " + parent + ": " + e, e);
            }
        }
    }

    /**
     * Removes a partition's log: the directory is renamed {@code <topic>-<p>.<uuid>-delete} at
     * once and deleted after {@code file.delete.delay.ms}, so reads in flight complete.
     */
    public void asyncDelete(TopicPartition tp) {
        PartitionLog removed = logs.remove(tp);
        if (removed == null) {
            return;
        }
        File dir = removed.dir();
        if (cleaner != null) {
            cleaner.abortCleaning(tp, dir.getParentFile());
        }
        File renamed = new File(dir.getParentFile(), LogFileNames.logDirName(tp) + "." + Uuid.randomUuid()
            + LogFileNames.DELETE_DIR_SUFFIX);
        try {
            removed.renameDir(renamed);
        } catch (IOException e) {
            log.error("Could not rename {} for deletion; deleting it in place", dir, e);
            renamed = dir;
        }
        scheduleDirDeletion(renamed, removed, removed.config().fileDeleteDelayMs());
        log.info("Scheduled deletion of the log of {} ({})", tp, renamed);
    }

    /** Deletes {@code dir} after {@code delayMs}, first closing {@code openLog}'s files (reads in flight finish first). */
    private void scheduleDirDeletion(File dir, PartitionLog openLog, long delayMs) {
        scheduler.schedule("delete-log-" + dir.getName(), () -> {
            if (openLog != null) {
                openLog.closeHandlers();
            }
            try {
                Utils.delete(dir);
            } catch (IOException e) {
                log.warn("Could not delete {}", dir, e);
            }
        }, delayMs, 0);
    }

    /** Runs retention on every log (but compacted ones when the cleaner runs it). */
    public void cleanupLogs() {
        int total = 0;
        LogCleaner logCleaner = cleaner;
        for (PartitionLog partitionLog : logs.values()) {
            if (logCleaner != null && partitionLog.config().compact()) {
                continue;
            }
            try {
                total += partitionLog.deleteOldSegments();
            } catch (RuntimeException e) {
                log.error("Retention failed for {}", partitionLog.topicPartition(), e);
            }
        }
        if (total > 0) {
            log.debug("Retention deleted {} segment(s)", total);
        }
    }

    private void flushDirtyLogs() {
        long now = time.milliseconds();
        for (PartitionLog partitionLog : logs.values()) {
            if (now - partitionLog.lastFlushedTimeMs() >= partitionLog.config().flushMs()) {
                try {
                    partitionLog.flush(partitionLog.logEndOffset());
                } catch (RuntimeException e) {
                    log.error("Flush failed for {}", partitionLog.topicPartition(), e);
                }
            }
        }
    }

    /** Writes the recovery point and log start offset checkpoints of every directory. */
    public void checkpointRecoveryPointsAndLogStartOffsets() {
        checkpoints.writeRecoveryPointsAndLogStartOffsets(logs.values(), dirs::online);
    }

    /** Writes the high watermark checkpoint of every directory. */
    public void checkpointHighWatermarks() {
        checkpoints.writeHighWatermarks(logs.values(), dirs::online);
    }

    /**
     * Flushes and closes every log, writes the checkpoints and the clean-shutdown markers, and
     * releases the directory locks. Called after the network and replication have stopped.
     */
    public void shutdown() {
        tasks.forEach(t -> t.cancel(false));
        if (cleaner != null) {
            cleaner.shutdown();
        }
        boolean clean = true;
        for (PartitionLog partitionLog : logs.values()) {
            try {
                partitionLog.flush(partitionLog.logEndOffset());
                partitionLog.close();
            } catch (RuntimeException e) {
                clean = false;
                log.error("Error closing the log of {}", partitionLog.topicPartition(), e);
            }
        }
        checkpointRecoveryPointsAndLogStartOffsets();
        checkpointHighWatermarks();
        for (File dir : logDirs) {
            if (dirs.isOffline(dir)) {
                continue;
            }
            try {
                if (clean) {
                    Files.createFile(new File(dir, CLEAN_SHUTDOWN_FILE).toPath());
                }
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // already marked
            } catch (IOException e) {
                log.error("Could not write the clean shutdown marker in {}", dir, e);
            }
        }
        dirs.releaseLocks();
        logs.clear();
        log.info("Log manager shut down{}", clean ? " cleanly" : " with errors; logs will be recovered at the next start");
    }

    /**
     * Stops as a killed process would, for fault tests that run brokers in one JVM: file handles
     * are closed without a flush, a producer-state snapshot, a checkpoint or the clean-shutdown
     * marker, so the next start recovers the logs from the last checkpoints as after a crash.
     * What was written stays in the files, as it stays in the page cache when a process dies.
     */
    public void crash() {
        tasks.forEach(t -> t.cancel(false));
        if (cleaner != null) {
            cleaner.shutdown();
        }
        for (PartitionLog partitionLog : logs.values()) {
            try {
                partitionLog.closeHandlers();
            } catch (RuntimeException e) {
                log.debug("Error closing the files of {} in a simulated crash", partitionLog.topicPartition(), e);
            }
        }
        dirs.releaseLocks();
        logs.clear();
        log.warn("Log manager stopped as in a crash: logs will be recovered at the next start");
    }

    /**
     * What DescribeLogDirs reports of one directory.
     *
     * @param path        absolute path
     * @param partitions  partition to log size, bytes
     * @param totalBytes  capacity of the file system, bytes
     * @param usableBytes free space usable by the broker, bytes
     * @param offline     whether it went offline after an I/O error
     */
    public record LogDirDescription(String path, Map<TopicPartition, Long> partitions, long totalBytes, long usableBytes,
                                    boolean offline) {
    }

    /** Every log directory with its partitions' sizes and its free space. */
    public List<LogDirDescription> describeLogDirs() {
        List<LogDirDescription> out = new ArrayList<>();
        for (File dir : logDirs) {
            Map<TopicPartition, Long> sizes = new HashMap<>();
            for (PartitionLog partitionLog : logs.values()) {
                if (partitionLog.dir().getParentFile().equals(dir)) {
                    sizes.put(partitionLog.topicPartition(), partitionLog.size());
                }
            }
            out.add(new LogDirDescription(dir.getAbsolutePath(), sizes, dir.getTotalSpace(), dir.getUsableSpace(),
                dirs.isOffline(dir)));
        }
        return out;
    }
}
