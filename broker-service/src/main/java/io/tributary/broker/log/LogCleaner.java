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
    /** The shortest period over which the I/O rate is measured, ms (Kafka's). */
    private static final long THROTTLE_CHECK_INTERVAL_MS = 300;

    /**
     * Settings of the cleaner (the broker's {@code log.cleaner.*}).
     *
     * @param threads           cleaner threads
     * @param dedupeBufferSize  memory of the offset maps of all threads, bytes
     * @param ioBufferSize      read plus write buffer of a thread, bytes
     * @param backoffMs         pause of a thread with nothing to clean, ms
     * @param loadFactor        how full an offset map may get before the thread cleans what it holds
     * @param maxIoBytesPerSecond read plus write rate of all threads together, bytes/s
     *                          ({@code Double.MAX_VALUE}: no limit)
     */
    public record Config(int threads, long dedupeBufferSize, int ioBufferSize, long backoffMs, double loadFactor,
                         double maxIoBytesPerSecond) {
        public Config {
            if (threads < 1) {
                throw new IllegalArgumentException("log cleaner threads must be at least 1, was " + threads);
            }
            if (!(loadFactor > 0 && loadFactor <= 1) || !(maxIoBytesPerSecond > 0)) {
                throw new IllegalArgumentException("log cleaner load factor must be in (0, 1] and the I/O rate "
                    + "positive, were " + loadFactor + " and " + maxIoBytesPerSecond);
            }
        }

        /** Kafka's load factor (0.9) and no I/O limit. */
        public Config(int threads, long dedupeBufferSize, int ioBufferSize, long backoffMs) {
            this(threads, dedupeBufferSize, ioBufferSize, backoffMs, 0.9, Double.MAX_VALUE);
        }

        int dedupeBufferPerThread() {
            return (int) Math.min(dedupeBufferSize / threads, Integer.MAX_VALUE);
        }
    }

    private volatile Config config;
    private final Throttler throttler;
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
        this.throttler = new Throttler(config.maxIoBytesPerSecond(), THROTTLE_CHECK_INTERVAL_MS, time);
        this.manager = new LogCleanerManager(logDirs, logs, time);
        this.time = time;
    }

    /** Starts the cleaner threads. */
    public synchronized void startup() {
        if (running || stopping) {
            return;
        }
        running = true;
        startThreads();
    }

    private void startThreads() {
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
        stopThreads();
    }

    /**
     * Applies changed {@code log.cleaner.*} settings while the broker runs, as Kafka's
     * {@code LogCleaner.reconfigure}: the I/O rate changes at once; the threads stop (abandoning a
     * cleaning under way, which the next thread starts again) and as many as the new settings say
     * start with them. Blocks until the old threads have stopped.
     */
    public synchronized void reconfigure(Config next) {
        if (next.equals(config)) {
            return;
        }
        log.info("Reconfiguring the log cleaner: {}", next);
        config = next;
        throttler.updateDesiredRatePerSec(next.maxIoBytesPerSecond());
        callerCleaner = null;
        if (running) {
            stopThreads();
            startThreads();
        }
    }

    /** The settings in effect. */
    public Config config() {
        return config;
    }

    /** Number of cleaner threads running (0 before start-up and after shutdown). */
    public synchronized int threadCount() {
        return (int) threads.stream().filter(Thread::isAlive).count();
    }

    private void stopThreads() {
        threads.forEach(CleanerThread::stopAfterThisRound);
        throttler.wakeUp();
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
        return newCleaner(this::checkDone);
    }

    private Cleaner newCleaner(Cleaner.AbortCheck abortCheck) {
        Config current = config;
        return new Cleaner(current.dedupeBufferPerThread(), current.ioBufferSize(), current.loadFactor(), throttler,
            abortCheck, time);
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
        private volatile boolean live = true;

        CleanerThread(int id) {
            super("log-cleaner-" + id);
            setDaemon(true);
        }

        /** Makes a cleaning under way give up and the thread end. */
        void stopAfterThisRound() {
            live = false;
        }

        @Override
        public void run() {
            while (running && live) {
                boolean cleaned = false;
                try {
                    if (cleaner == null) {
                        cleaner = newCleaner(tp -> {
                            if (!live) {
                                throw new Cleaner.CleaningAbortedException("The log cleaner thread is stopping");
                            }
                            checkDone(tp);
                        });
                    }
                    cleaned = cleanFilthiestLog(cleaner);
                } catch (RuntimeException | OutOfMemoryError e) {
                    log.error("Log cleaner thread {} failed; backing off", getName(), e);
                }
                if (!cleaned && running && live) {
                    synchronized (backoffMonitor) {
                        try {
                            if (running && live) { // checked under the monitor: a stop's notify is not missed
                                backoffMonitor.wait(Math.max(1, config.backoffMs()));
                            }
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }
            }
        }
    }
}
