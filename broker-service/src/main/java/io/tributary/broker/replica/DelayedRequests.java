package io.tributary.broker.replica;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.apache.kafka.common.TopicPartition;

/**
 * The requests waiting on partitions: acks=all produces until the ISR holds their records, and
 * fetches until {@code fetch.min.bytes} are readable, each in its
 * {@link DelayedOperationPurgatory} keyed by partition. Whatever changes a partition (an append,
 * a follower's fetch moving the high watermark, a role change, a log going offline) calls
 * {@link #checkAndComplete} for it.
 *
 * <p>Thread-safe.
 */
final class DelayedRequests {

    private final DelayedOperationPurgatory<DelayedFetch> fetchPurgatory = new DelayedOperationPurgatory<>("fetch");
    private final DelayedOperationPurgatory<DelayedProduce> producePurgatory = new DelayedOperationPurgatory<>("produce");
    private final ExecutorService completionExecutor;

    DelayedRequests(int brokerId) {
        this.completionExecutor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "broker-" + brokerId + "-delayed-completion");
            t.setDaemon(true);
            return t;
        });
    }

    /** Lets waiting fetches and acks=all produces on {@code tp} complete. */
    void checkAndComplete(TopicPartition tp) {
        fetchPurgatory.checkAndComplete(tp);
        producePurgatory.checkAndComplete(tp);
    }

    /**
     * Completes waiting requests on another thread: for a delayed fetch's own completion, which
     * runs under that operation's monitor and must not take other operations' monitors.
     */
    void checkAndCompleteLater(List<TopicPartition> tps) {
        if (tps.isEmpty()) {
            return;
        }
        runLater(() -> tps.forEach(this::checkAndComplete));
    }

    /** Runs {@code task} on the completion thread; dropped once shutting down. */
    void runLater(Runnable task) {
        try {
            completionExecutor.execute(task);
        } catch (RejectedExecutionException e) {
            // shutting down
        }
    }

    void watch(DelayedProduce produce, List<TopicPartition> keys) {
        producePurgatory.tryCompleteElseWatch(produce, List.<Object>copyOf(keys));
    }

    void watch(DelayedFetch fetch, List<TopicPartition> keys) {
        fetchPurgatory.tryCompleteElseWatch(fetch, List.<Object>copyOf(keys));
    }

    /** Fetches waiting for records of {@code tp}. */
    int waitingFetches(TopicPartition tp) {
        return fetchPurgatory.watched(tp);
    }

    /** Completes every waiting request. */
    void shutdown() {
        completionExecutor.shutdown();
        fetchPurgatory.shutdown();
        producePurgatory.shutdown();
    }
}
