package io.tributary.broker.log;

import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Log compaction for logs with {@code cleanup.policy=compact} (or {@code compact,delete}), as
 * Kafka's {@code LogCleaner}: {@code threads} background threads each repeatedly pick the
 * dirtiest cleanable log ({@link LogCleanerManager}), clean it ({@link Cleaner}) and record the
 * new first dirty offset in the log directory's {@code cleaner-offset-checkpoint}; after each pick
 * they run retention of the compacted logs no one works on, so cleaning and retention of a log
 * never overlap. A thread with nothing to clean waits {@code backoffMs}.
 *
 * <p>Other changes to a log being cleaned (truncation, deletion) make the cleaning give up: its
 * swap is refused ({@link CleanerSwap#replaceSegments}) and {@link #abortCleaning} stops it
 * early. The dedupe buffer ({@code dedupeBufferSize} bytes for all threads) is allocated when a
 * thread first cleans.
 *
 * <p>Thread-safe.
 */
public final class LogCleaner {

    private static final Logger log = LoggerFactory.getLogger(LogCleaner.class);

    /**
     * Settings of the cleaner (the broker's {@code log.cleaner.*}).
     *
     * @param threads           cleaner threads
     * @param dedupeBufferSize  memory of the offset maps of all threads, bytes
     * @param ioBufferSize      read plus write buffer of a thread, bytes
     * @param backoffMs         pause of a thread with nothing to clean, ms
     */
    public record Config(int threads, long dedupeBufferSize, int ioBufferSize, long backoffMs) {
        public Config {
            if (threads < 1) {
                throw new IllegalArgumentException("log cleaner threads must be at least 1, was " + threads);
            }
        }

        int dedupeBufferPerThread() {
            return (int) Math.min(dedupeBufferSize / threads, Integer.MAX_VALUE);
        }
    }

    private final Config config;
    private final LogCleanerManager manager;
    private final Time time;
    private final List<CleanerThread> threads = new ArrayList<>();
    private final Object backoffMonitor = new Object();
    private volatile boolean running;
    private volatile boolean stopping;
    private Cleaner callerCleaner;

    /**
     * @param logDirs the log directories (each gets its {@code cleaner-offset-checkpoint})
     * @param logs    the current logs of the broker
     */
    public LogCleaner(Config config, List<File> logDirs, Supplier<Collection<PartitionLog>> logs, Time time) {
        this.config = config;
        this.manager = new LogCleanerManager(logDirs, logs, time);
        this.time = time;
    }

    /** Starts the cleaner threads. */
    public synchronized void startup() {
        if (running) {
            return;
        }
        running = true;
        for (int i = 0; i < config.threads(); i++) {
            CleanerThread thread = new CleanerThread(i);
            threads.add(thread);
            thread.start();
        }
        log.info("Started {} log cleaner thread(s)", config.threads());
    }

    /** Stops the threads; a cleaning under way is abandoned (its {@code .cleaned} files are deleted). */
    public synchronized void shutdown() {
        running = false;
        stopping = true;
        synchronized (backoffMonitor) {
            backoffMonitor.notifyAll();
        }
        for (CleanerThread thread : threads) {
            try {
                thread.join(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        threads.clear();
    }

    /**
     * Stops any cleaning of a log that is being deleted and forgets its checkpoint, so a log
     * created again under the same name starts dirty.
     *
     * @param logDir the log directory (parent of the partition directory) that held it
     */
    public void abortCleaning(TopicPartition tp, File logDir) {
        manager.abortCleaningAndForget(tp, logDir);
    }

    /** Stops any cleaning of {@code tp} and keeps the cleaner off it until {@link #resumeCleaning}. */
    public void abortAndPauseCleaning(TopicPartition tp) {
        manager.abortAndPauseCleaning(tp);
    }

    public void resumeCleaning(TopicPartition tp) {
        manager.resumeCleaning(tp);
    }

    /** Drops a stale checkpoint entry (a log created where one of the same name was). */
    void forgetCheckpoint(TopicPartition tp, File logDir) {
        manager.removeCheckpoint(logDir, tp);
    }

    /** The first dirty offset of every partition, as checkpointed. */
    public Map<TopicPartition, Long> checkpoints() {
        return manager.allCheckpoints();
    }

    /**
     * One round of a cleaner thread, on the calling thread: cleans the dirtiest cleanable log, if
     * any, then runs retention of the compacted logs. For tests and the threads.
     *
     * @return whether a log was cleaned
     */
    boolean cleanFilthiestLog() {
        Cleaner cleaner;
        synchronized (this) {
            if (callerCleaner == null) {
                callerCleaner = newCleaner();
            }
            cleaner = callerCleaner;
        }
        synchronized (cleaner) {
            return cleanFilthiestLog(cleaner);
        }
    }

    /** Sets the swap hook of the cleaner used by {@link #cleanFilthiestLog()} (tests). */
    synchronized void swapHookForTests(SwapHook hook) {
        if (callerCleaner == null) {
            callerCleaner = newCleaner();
        }
        callerCleaner.swapHook = hook;
    }

    private Cleaner newCleaner() {
        return new Cleaner(config.dedupeBufferPerThread(), config.ioBufferSize(), this::checkDone, time);
    }

    private void checkDone(TopicPartition tp) {
        if (stopping) {
            throw new Cleaner.CleaningAbortedException("The log cleaner is shutting down");
        }
        manager.checkCleaningAborted(tp);
    }

    private boolean cleanFilthiestLog(Cleaner cleaner) {
        Optional<LogToClean> picked = manager.grabFilthiestCompactedLog();
        boolean cleaned = false;
        if (picked.isPresent()) {
            LogToClean ltc = picked.get();
            TopicPartition tp = ltc.log().topicPartition();
            Cleaner.Result result = null;
            try {
                result = cleaner.clean(ltc);
                cleaned = true;
            } catch (Cleaner.CleaningAbortedException e) {
                log.info("Cleaning of {} abandoned: {}", tp, e.getMessage());
            } catch (Exception e) {
                log.error("Cleaning of {} failed; it is not cleaned again until restart", tp, e);
                manager.markUncleanable(tp);
            } finally {
                manager.doneCleaning(ltc.log(), result);
            }
        }
        for (PartitionLog partitionLog : manager.grabDeletableLogs()) {
            try {
                partitionLog.deleteOldSegments();
            } catch (RuntimeException e) {
                log.error("Retention failed for {}", partitionLog.topicPartition(), e);
            } finally {
                manager.doneDeleting(partitionLog.topicPartition());
            }
        }
        return cleaned;
    }

    private final class CleanerThread extends Thread {
        private Cleaner cleaner;

        CleanerThread(int id) {
            super("log-cleaner-" + id);
            setDaemon(true);
        }

        @Override
        public void run() {
            while (running) {
                boolean cleaned = false;
                try {
                    if (cleaner == null) {
                        cleaner = newCleaner();
                    }
                    cleaned = cleanFilthiestLog(cleaner);
                } catch (RuntimeException | OutOfMemoryError e) {
                    log.error("Log cleaner thread {} failed; backing off", getName(), e);
                }
                if (!cleaned && running) {
                    synchronized (backoffMonitor) {
                        try {
                            backoffMonitor.wait(Math.max(1, config.backoffMs()));
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }
            }
        }
    }
}
