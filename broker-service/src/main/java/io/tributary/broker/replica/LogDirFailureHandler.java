package io.tributary.broker.replica;

import io.tributary.broker.log.LogDirFailureChannel;
import java.io.File;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that handles failed log directories, as the {@code LogDirFailureHandler} of Kafka's
 * {@code ReplicaManager}: it takes each directory from the {@link LogDirFailureChannel}, takes its
 * partitions offline ({@link LogDirFailures}) and publishes this broker's offline replicas, so
 * that the controller moves their leadership elsewhere.
 *
 * <p>Built and started once the broker has registered (it publishes into the registration);
 * directories that failed before wait in the channel. A failed publication is logged and the
 * thread goes on. Thread-safe: {@link #close} may be called from any thread, once.
 */
public final class LogDirFailureHandler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LogDirFailureHandler.class);
    private static final long POLL_MS = 300;

    private final LogDirFailureChannel channel;
    private final Function<File, Set<TopicPartition>> takeOffline;
    private final Consumer<Set<TopicPartition>> publishOfflineReplicas;
    private final Thread thread;
    private volatile boolean stopping;

    /**
     * @param channel                where the log manager offers failed directories
     * @param takeOffline            takes a directory's partitions offline on this broker and answers every
     *                               partition offline here ({@link LogDirFailures#takeOffline})
     * @param publishOfflineReplicas tells the cluster every partition whose replica here is offline
     * @param threadName             the handler thread's name
     */
    public LogDirFailureHandler(LogDirFailureChannel channel, Function<File, Set<TopicPartition>> takeOffline,
                                Consumer<Set<TopicPartition>> publishOfflineReplicas, String threadName) {
        this.channel = channel;
        this.takeOffline = takeOffline;
        this.publishOfflineReplicas = publishOfflineReplicas;
        this.thread = new Thread(this::run, threadName);
        thread.setDaemon(true);
    }

    /** Starts the thread; directories already in the channel are handled first. */
    public void start() {
        thread.start();
    }

    private void run() {
        while (!stopping) {
            File logDir;
            try {
                logDir = channel.poll(POLL_MS);
            } catch (InterruptedException e) {
                return;
            }
            if (logDir != null) {
                handle(logDir);
            }
        }
    }

    private void handle(File logDir) {
        Set<TopicPartition> offline;
        try {
            offline = takeOffline.apply(logDir);
        } catch (RuntimeException e) {
            log.error("Could not take the partitions of the failed log directory {} offline", logDir, e);
            return;
        }
        try {
            publishOfflineReplicas.accept(offline);
        } catch (RuntimeException e) {
            log.error("Could not publish the offline replicas {}", offline, e);
        }
    }

    /** Stops the thread, waiting for a directory being handled to be done. */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        if (thread.isAlive()) {
            thread.interrupt();
            thread.join();
        }
    }
}
