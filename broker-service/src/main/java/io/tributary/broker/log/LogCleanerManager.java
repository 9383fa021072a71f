package io.tributary.broker.log;

import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which compacted log the cleaner works on, and the bookkeeping around it (Kafka's
 * {@code LogCleanerManager}):
 * <ul>
 *   <li>the cleaner checkpoint of each log directory, {@code cleaner-offset-checkpoint} (Kafka's
 *       format): the first dirty offset of each partition. An entry below the log start or above
 *       the log end (a truncated or recreated log) is reset to the log start;</li>
 *   <li>the state of logs being worked on: {@code CLEANING} (a cleaner thread cleans it or runs
 *       its retention), {@code ABORTED} (someone asked it to stop; the cleaner gives up at its next
 *       check and the log becomes paused), {@code PAUSED(n)} (not cleaned until resumed n times).
 *       A log with a state is never picked;</li>
 *   <li>the earliest delete horizon of each log's retained tombstones, so a log with nothing dirty
 *       is cleaned again once its tombstones may go (KIP-534).</li>
 * </ul>
 *
 * <p>Thread-safe: every method holds the manager's monitor; {@link #abortAndPauseCleaning} waits on
 * it for the cleaner to let go of the log.
 */
final class LogCleanerManager {

    private static final Logger log = LoggerFactory.getLogger(LogCleanerManager.class);

    static final String CLEANER_CHECKPOINT = "cleaner-offset-checkpoint";
    /** How long an abort waits for a cleaner thread to let go of a log before giving up, ms. */
    static final long ABORT_WAIT_MS = 30_000;

    private static final int CLEANING = -1;
    private static final int ABORTED = -2;

    private final Map<File, OffsetCheckpointFile> checkpoints = new HashMap<>();
    private final Supplier<Collection<PartitionLog>> logs;
    private final Time time;
    /** Partition to CLEANING, ABORTED or a pause count (&gt; 0). */
    private final Map<TopicPartition, Integer> states = new HashMap<>();
    private final Map<TopicPartition, Long> deleteHorizons = new HashMap<>();
    private final Set<TopicPartition> uncleanable = new HashSet<>();

    LogCleanerManager(List<File> logDirs, Supplier<Collection<PartitionLog>> logs, Time time) {
        for (File dir : logDirs) {
            checkpoints.put(dir, new OffsetCheckpointFile(dir, CLEANER_CHECKPOINT));
        }
        this.logs = logs;
        this.time = time;
    }

    /** The cleaner checkpoints of every log directory. */
    synchronized Map<TopicPartition, Long> allCheckpoints() {
        Map<TopicPartition, Long> all = new HashMap<>();
        checkpoints.values().forEach(c -> all.putAll(c.read()));
        return all;
    }

    /**
     * Picks the compacted log to clean: the one with the largest dirty ratio among those at or
     * above their {@code min.cleanable.dirty.ratio} or past {@code max.compaction.lag.ms}; failing
     * that, one whose tombstones reached their delete horizon (cleaned from its log start). The
     * log is marked {@code CLEANING} until {@link #doneCleaning}.
     */
    synchronized Optional<LogToClean> grabFilthiestCompactedLog() {
        long now = time.milliseconds();
        Map<TopicPartition, Long> lastClean = allCheckpoints();
        List<LogToClean> candidates = new ArrayList<>();
        List<PartitionLog> tombstoneLogs = new ArrayList<>();
        for (PartitionLog partitionLog : logs.get()) {
            TopicPartition tp = partitionLog.topicPartition();
            if (!partitionLog.config().compact() || partitionLog.isClosed() || states.containsKey(tp)
                    || uncleanable.contains(tp)) {
                continue;
            }
            try {
                long firstDirty = firstDirtyOffset(partitionLog, lastClean.get(tp));
                LogToClean ltc = LogToClean.of(partitionLog, firstDirty, now);
                if (ltc.shouldClean()) {
                    candidates.add(ltc);
                }
                Long horizon = deleteHorizons.get(tp);
                if (horizon != null && horizon <= now) {
                    tombstoneLogs.add(partitionLog);
                }
            } catch (RuntimeException e) {
                log.error("Could not assess {} for cleaning; skipping it until restart", tp, e);
                uncleanable.add(tp);
            }
        }
        Optional<LogToClean> pick = candidates.stream().max(Comparator.comparingDouble(LogToClean::cleanableRatio));
        if (pick.isEmpty() && !tombstoneLogs.isEmpty()) {
            PartitionLog partitionLog = tombstoneLogs.get(0);
            pick = Optional.of(LogToClean.of(partitionLog, partitionLog.logStartOffset(), now));
        }
        pick.ifPresent(ltc -> states.put(ltc.log().topicPartition(), CLEANING));
        return pick;
    }

    /** The checkpointed first dirty offset, or the log start when it is missing or outside the log. */
    private static long firstDirtyOffset(PartitionLog partitionLog, Long checkpoint) {
        long logStart = partitionLog.logStartOffset();
        if (checkpoint == null || checkpoint < logStart) {
            return logStart;
        }
        if (checkpoint > partitionLog.logEndOffset()) {
            log.warn("Cleaner checkpoint {} of {} is above its log end offset {}; cleaning it from its log start",
                checkpoint, partitionLog.topicPartition(), partitionLog.logEndOffset());
            return logStart;
        }
        return checkpoint;
    }

    /**
     * Ends a cleaning: records the new first dirty offset and tombstone horizon unless the
     * cleaning was aborted meanwhile (the log then becomes paused, and its aborter is woken).
     *
     * @param result the cleaning's result, or null when it failed or was abandoned
     */
    synchronized void doneCleaning(PartitionLog partitionLog, Cleaner.Result result) {
        TopicPartition tp = partitionLog.topicPartition();
        Integer state = states.get(tp);
        if (state == null || state != CLEANING) {
            // Aborted meanwhile (or paused after an abort gave up waiting): the log stays paused, nothing is recorded.
            if (state != null && state == ABORTED) {
                states.put(tp, 1);
            }
            notifyAll();
            return;
        }
        states.remove(tp);
        if (result != null) {
            updateCheckpoint(partitionLog.dir().getParentFile(), tp, result.nextDirtyOffset());
            if (result.earliestDeleteHorizonMs() >= 0) {
                deleteHorizons.put(tp, result.earliestDeleteHorizonMs());
            } else {
                deleteHorizons.remove(tp);
            }
        }
        notifyAll();
    }

    /** Marks a log that failed to clean for a reason other than an abort; it is skipped until restart. */
    synchronized void markUncleanable(TopicPartition tp) {
        uncleanable.add(tp);
    }

    /**
     * Marks the compacted logs that nothing works on as {@code CLEANING} and returns them, for
     * the cleaner thread to run their retention; each must be released with {@link #doneDeleting}.
     */
    synchronized List<PartitionLog> grabDeletableLogs() {
        List<PartitionLog> out = new ArrayList<>();
        for (PartitionLog partitionLog : logs.get()) {
            TopicPartition tp = partitionLog.topicPartition();
            if (partitionLog.config().compact() && !partitionLog.isClosed() && !states.containsKey(tp)) {
                states.put(tp, CLEANING);
                out.add(partitionLog);
            }
        }
        return out;
    }

    synchronized void doneDeleting(TopicPartition tp) {
        Integer state = states.get(tp);
        if (state != null && state == ABORTED) {
            states.put(tp, 1);
        } else if (state != null && state == CLEANING) {
            states.remove(tp);
        }
        notifyAll();
    }

    /** Throws when the cleaning of {@code tp} was aborted. */
    synchronized void checkCleaningAborted(TopicPartition tp) {
        Integer state = states.get(tp);
        if (state != null && state != CLEANING) {
            throw new Cleaner.CleaningAbortedException("Cleaning of " + tp + " was aborted");
        }
    }

    /**
     * Stops any cleaning of {@code tp} and keeps the cleaner off it until {@link #resumeCleaning}:
     * waits (up to {@link #ABORT_WAIT_MS}) for a cleaner thread working on it to let go.
     */
    synchronized void abortAndPauseCleaning(TopicPartition tp) {
        Integer state = states.get(tp);
        if (state == null) {
            states.put(tp, 1);
        } else if (state == CLEANING) {
            states.put(tp, ABORTED);
        } else if (state > 0) {
            states.put(tp, state + 1);
        }
        long deadline = System.nanoTime() + ABORT_WAIT_MS * 1_000_000;
        while (states.containsKey(tp) && states.get(tp) == ABORTED) {
            long leftMs = (deadline - System.nanoTime()) / 1_000_000;
            if (leftMs <= 0) {
                log.warn("The cleaner did not let go of {} within {} ms; going on (its swap will be refused)", tp,
                    ABORT_WAIT_MS);
                states.put(tp, 1);
                return;
            }
            try {
                wait(leftMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                states.put(tp, 1);
                return;
            }
        }
    }

    /** Undoes one {@link #abortAndPauseCleaning}. */
    synchronized void resumeCleaning(TopicPartition tp) {
        Integer state = states.get(tp);
        if (state != null && state > 0) {
            if (state == 1) {
                states.remove(tp);
            } else {
                states.put(tp, state - 1);
            }
        }
    }

    /** Forgets a log that is deleted: stops its cleaning and drops its checkpoint entry and horizon. */
    synchronized void abortCleaningAndForget(TopicPartition tp, File logDir) {
        abortAndPauseCleaning(tp);
        resumeCleaning(tp);
        deleteHorizons.remove(tp);
        uncleanable.remove(tp);
        removeCheckpoint(logDir, tp);
    }

    /** Drops the checkpoint entry of {@code tp} in {@code logDir}, if any. */
    synchronized void removeCheckpoint(File logDir, TopicPartition tp) {
        OffsetCheckpointFile file = checkpoints.get(logDir);
        if (file == null) {
            return;
        }
        Map<TopicPartition, Long> current = file.read();
        if (current.remove(tp) != null) {
            file.write(current);
        }
    }

    private void updateCheckpoint(File logDir, TopicPartition tp, long offset) {
        OffsetCheckpointFile file = checkpoints.get(logDir);
        if (file == null) {
            log.warn("No cleaner checkpoint for log directory {} of {}", logDir, tp);
            return;
        }
        Set<TopicPartition> present = new HashSet<>();
        for (PartitionLog l : logs.get()) {
            if (logDir.equals(l.dir().getParentFile())) {
                present.add(l.topicPartition());
            }
        }
        Map<TopicPartition, Long> current = file.read();
        current.keySet().retainAll(present);
        current.put(tp, offset);
        file.write(current);
    }
}
