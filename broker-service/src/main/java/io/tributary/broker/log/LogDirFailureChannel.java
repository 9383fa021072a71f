package io.tributary.broker.log;

import java.io.File;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The failed log directories, handed from the thread that met the I/O error to the broker's
 * log-dir failure handler thread, as Kafka's {@code LogDirFailureChannel} (KIP-112). The
 * {@link LogManager} offers each directory once, after it has taken the directory offline itself;
 * what the rest of the broker does about it (partitions offline, leaderships ended, the cluster
 * told) runs on the handler thread, never on the thread that met the error: that may be a request
 * handler, a fetcher or the cleaner, holding a log's lock.
 *
 * <p>A directory offered before the handler thread starts waits here, so a failure while the
 * broker starts is still handled and published once it has registered. Thread-safe; offering
 * never blocks.
 */
public final class LogDirFailureChannel {

    private final BlockingQueue<File> failed = new LinkedBlockingQueue<>();

    /** Queues a log directory that has just gone offline. */
    void offer(File logDir) {
        failed.add(logDir);
    }

    /**
     * The next failed log directory, waiting up to {@code timeoutMs}.
     *
     * @return the directory, or null after the timeout
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public File poll(long timeoutMs) throws InterruptedException {
        return failed.poll(timeoutMs, TimeUnit.MILLISECONDS);
    }
}
