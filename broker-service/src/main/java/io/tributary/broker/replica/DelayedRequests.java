package io.tributary.broker.replica;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests waiting on partitions: acks=all produces until the ISR holds their records, and
 * fetches until {@code fetch.min.bytes} are readable, each in its
 * {@link DelayedOperationPurgatory} keyed by partition. Whatever changes a partition (an append,
 * a follower's fetch moving the high watermark, a role change, a log going offline) calls
 * {@link #checkAndComplete} for it.
 *
 * <p>An append made on a network thread runs inside {@link #withCompletionsDeferred}: the
 * completions it allows go to the completion thread, since completing a fetch or a produce takes
 * the locks of other partitions. Handing a task to the completion thread never takes a lock.
 *
 * <p>Thread-safe.
 */
final class DelayedRequests {

    private final DelayedOperationPurgatory<DelayedFetch> fetchPurgatory = new DelayedOperationPurgatory<>("fetch");
    private final DelayedOperationPurgatory<DelayedProduce> producePurgatory = new DelayedOperationPurgatory<>("produce");
    private static final Logger log = LoggerFactory.getLogger(DelayedRequests.class);
    private static final ThreadLocal<Boolean> DEFERRING = ThreadLocal.withInitial(() -> false);

    private final Queue<Runnable> completions = new ConcurrentLinkedQueue<>();
    private final Semaphore queuedCompletions = new Semaphore(0);
    private volatile boolean stopping;

    DelayedRequests(int brokerId) {
        Thread completer = new Thread(this::runCompletions, "broker-" + brokerId + "-delayed-completion");
        completer.setDaemon(true);
        completer.start();
    }

    private void runCompletions() {
        while (true) {
            try {
                if (!queuedCompletions.tryAcquire(300, TimeUnit.MILLISECONDS)) {
                    if (stopping) {
                        return;
                    }
                    continue;
                }
            } catch (InterruptedException e) {
                return;
            }
            try {
                completions.poll().run(); // never null: each permit follows one add
            } catch (RuntimeException e) {
                log.error("A delayed completion failed", e);
            }
        }
    }

    /** Lets waiting fetches and acks=all produces on {@code tp} complete (on the completion thread when deferred). */
    void checkAndComplete(TopicPartition tp) {
        if (DEFERRING.get()) {
            if (fetchPurgatory.watched(tp) > 0 || producePurgatory.watched(tp) > 0) {
                runLater(() -> checkAndComplete(tp));
            }
            return;
        }
        fetchPurgatory.checkAndComplete(tp);
        producePurgatory.checkAndComplete(tp);
    }

    /** Runs {@code work} with every {@link #checkAndComplete} it makes handed to the completion thread. */
    void withCompletionsDeferred(Runnable work) {
        deferringCompletions(() -> {
            work.run();
            return null;
        });
    }

    /**
     * Runs {@code work} as {@link #withCompletionsDeferred} does and returns its result: for a
     * coordinator appending under its group's lock, whose append must not complete other groups'
     * waiting requests on its thread, since their callbacks take those groups' locks.
     */
    <T> T deferringCompletions(Supplier<T> work) {
        boolean outer = DEFERRING.get();
        DEFERRING.set(true);
        try {
            return work.get();
        } finally {
            DEFERRING.set(outer);
        }
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

    /** Runs {@code task} on the completion thread; dropped once shutting down. Never blocks. */
    void runLater(Runnable task) {
        if (stopping) {
            return;
        }
        completions.add(task);
        queuedCompletions.release();
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
        stopping = true;
        fetchPurgatory.shutdown();
        producePurgatory.shutdown();
    }
}
