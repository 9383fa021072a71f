package io.tributary.restproxy.share;

import io.tributary.restproxy.consumer.ConsumerThreadMailbox;
import io.tributary.restproxy.error.ConsumerInstanceNotFoundException;
import io.tributary.restproxy.error.IllegalConsumerStateException;
import io.tributary.restproxy.error.KafkaErrors;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The body of a share consumer instance's thread, the only thread that touches its Kafka
 * {@link ShareConsumer} (which is not thread-safe), and the hand-off of work to it.
 *
 * <p>Unlike the v2 consumer instances, this thread polls <em>only for a waiting reader</em> and only
 * when no record is {@link HeldRecords held}: a share consumer's poll acquires records and locks
 * them for this member (KIP-932), so fetching ahead would take records away from the group's other
 * consumers for nobody. While no reader waits, it runs the operations other threads
 * {@link #submit}; the Kafka client's background thread keeps the member heartbeating meanwhile.
 *
 * <p>Thread-safety: {@link #run} is the instance's thread; {@link #submit}, {@link #await},
 * {@link #stop} may be called from any thread (a queue and volatile flags). The consumer is never
 * woken with {@code wakeup}: a wake-up meant for {@code poll} could land on the {@code commitSync} of
 * an acknowledgement instead, whose acknowledgements would then be sent with nobody told the
 * outcome. Polls are short ({@value #POLL_SLICE_MS} ms) instead, so an operation waits at most that.
 */
final class SharePollLoop {

    private static final Logger log = LoggerFactory.getLogger(ShareInstance.class);
    /** Longest single {@code poll}, so queued operations and stops are seen promptly, ms. */
    static final long POLL_SLICE_MS = 100;
    /** How long a caller waits for its operation, ms: beyond a commit's own timeout, so it sees the outcome. */
    static final long CALL_TIMEOUT_MS = ConsumerThreadMailbox.CALL_TIMEOUT_MS;

    /** A long poll waiting on this thread: its future and when it answers empty, epoch ms. */
    private record PendingRead(CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> result, long deadlineMs) {
    }

    private final String group;
    private final String id;
    private final ShareConsumer<byte[], byte[]> consumer;
    private final ShareOperations operations;
    private final Clock clock;
    private final ConsumerThreadMailbox<ShareOperations> mailbox;
    /** The reader waiting for records; poll thread only. */
    private PendingRead pending;

    SharePollLoop(String group, String id, ShareConsumer<byte[], byte[]> consumer, ShareOperations operations,
            Clock clock) {
        this.group = group;
        this.id = id;
        this.consumer = consumer;
        this.operations = operations;
        this.mailbox = new ConsumerThreadMailbox<>("share consumer", id, operations, false);
        this.clock = clock;
    }

    /**
     * Queues a read: completes with the held batch if no reader got it yet; else, when nothing is
     * held, with the records of the next poll that returns any, or empty after {@code timeoutMs}. A
     * newer read answers an older one still waiting empty.
     *
     * @throws ConsumerInstanceNotFoundException when stopped
     */
    CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> read(long timeoutMs) {
        CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> result = new CompletableFuture<>();
        long deadlineMs = clock.millis() + timeoutMs;
        submit(ops -> {
            List<ConsumerRecord<byte[], byte[]>> ready = ops.takeUndelivered();
            if (ready != null) {
                result.complete(ready);
            } else {
                if (pending != null) {
                    pending.result().complete(List.of());
                }
                pending = new PendingRead(result, deadlineMs);
            }
            return null;
        }).whenComplete((ignored, failure) -> {
            if (failure != null) {
                result.completeExceptionally(failure);
            }
        });
        return result;
    }

    /**
     * Queues {@code operation} for the poll thread; {@link #await} the future returned.
     *
     * @throws ConsumerInstanceNotFoundException when stopped
     */
    <T> CompletableFuture<T> submit(Function<ShareOperations, T> operation) {
        return mailbox.submit(operation);
    }

    /** See {@link ConsumerThreadMailbox#await}. */
    <T> T await(CompletableFuture<T> result) {
        return mailbox.await(result);
    }

    /**
     * Tells the thread to stop (it sees it within {@value #POLL_SLICE_MS} ms); it then closes the share consumer, which leaves the
     * group, and the broker releases the records it held.
     *
     * @return false when already stopped
     */
    boolean stop() {
        return mailbox.stop();
    }

    /** The thread: serves reads and operations until {@link #stop stopped}, then closes the share consumer. */
    void run() {
        try {
            while (mailbox.isRunning()) {
                mailbox.runQueued();
                if (pending != null && (pending.result().isDone() || clock.millis() >= pending.deadlineMs())) {
                    pending.result().complete(List.of());
                    pending = null;
                    continue;
                }
                long waitMs = pending == null ? POLL_SLICE_MS
                    : Math.max(1, Math.min(POLL_SLICE_MS, pending.deadlineMs() - clock.millis()));
                if (pending != null && operations.mayPoll()) {
                    poll(waitMs);
                } else {
                    mailbox.runNext(waitMs);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("Share consumer instance {} of group {}: thread failed", id, group, e);
        } finally {
            shutdown();
        }
    }

    private void poll(long waitMs) {
        ConsumerRecords<byte[], byte[]> records;
        try {
            records = consumer.poll(Duration.ofMillis(waitMs));
        } catch (WakeupException e) {
            return;
        } catch (InterruptException e) {
            mailbox.stop();
            return;
        } catch (KafkaException | IllegalStateException e) {
            log.warn("Share consumer instance {} of group {}: poll failed: {}", id, group, KafkaErrors.describe(e));
            // As the proxy's exceptions, so the reader gets the error the cause calls for (e.g. 40301).
            pending.result().completeExceptionally(e instanceof IllegalStateException illegal
                ? new IllegalConsumerStateException(illegal) : KafkaErrors.wrap(e));
            pending = null;
            return;
        }
        if (!records.isEmpty()) {
            List<ConsumerRecord<byte[], byte[]>> batch = operations.hold(records);
            if (pending.result().complete(batch)) {
                operations.markDelivered();
            }
            pending = null;
        }
    }

    private void shutdown() {
        try {
            mailbox.runQueued();
        } finally {
            try {
                consumer.close(Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                log.warn("Share consumer instance {} of group {}: close failed: {}", id, group, e.toString());
            }
            if (pending != null) {
                pending.result().complete(List.of());
                pending = null;
            }
            mailbox.closeAndFailQueued();
        }
    }
}
