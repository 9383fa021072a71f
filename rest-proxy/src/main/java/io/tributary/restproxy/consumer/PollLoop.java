package io.tributary.restproxy.consumer;

import io.tributary.restproxy.error.ConsumerInstanceNotFoundException;
import io.tributary.restproxy.error.KafkaErrors;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The body of a consumer instance's poll thread, and the hand-off of operations to it. While
 * running, {@link #run} keeps calling {@code poll} when the consumer has a target (so the member
 * heartbeats and joins rebalances however slowly HTTP clients read), adds what it fetched to the
 * {@link RecordBuffer}, pauses fetching while the buffer holds {@code bufferMaxBytes}, auto-commits,
 * and between polls runs the {@link ConsumerOperations} other threads {@link #submit}. When
 * {@link #stop stopped} it runs what is queued, commits (with auto-commit), closes the Kafka
 * consumer, which leaves the group, and fails operations queued after that.
 *
 * <p>Thread-safety: {@link #run} is the poll thread; it alone uses the Kafka consumer and the
 * {@link ConsumerOperations}. {@link #submit}, {@link #await}, {@link #stop} and
 * {@link #pollFailure} may be called from any thread: they go through the queue, volatile fields and
 * {@code wakeup}, the one consumer method that is thread-safe. A woken blocking operation is retried
 * once, since a wake-up meant for {@code poll} can land on it instead.
 *
 * <p>Errors: {@link #await} turns an operation's failure into the proxy's exceptions; a failed poll
 * is kept for {@link #pollFailure} (and logged) and polling goes on; an unexpected failure ends the
 * poll thread (logged), which then closes the consumer as after a stop.
 */
final class PollLoop {

    /** The instance's logger: its log lines keep the name they had when this was part of {@link ConsumerInstance}. */
    private static final Logger log = LoggerFactory.getLogger(ConsumerInstance.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
    /** How long a caller waits for its operation: beyond {@link ConsumerOperations#OPERATION_TIMEOUT}, so it sees the outcome. */
    static final long CALL_TIMEOUT_MS = ConsumerThreadMailbox.CALL_TIMEOUT_MS;

    private final String group;
    private final String id;
    private final Consumer<byte[], byte[]> consumer;
    private final ConsumerOperations operations;
    private final RecordBuffer buffer;
    private final long bufferMaxBytes;
    private final ConsumerThreadMailbox<ConsumerOperations> mailbox;

    /** A failure of the last poll (e.g. no committed offset with auto.offset.reset=none), reported to the next read. */
    private volatile KafkaException pollFailure;

    /**
     * @param group          the instance's group, for log lines
     * @param id             the instance's id, for messages and log lines
     * @param consumer       the instance's Kafka consumer, used by the poll thread only (but for {@code wakeup})
     * @param operations     the operations on {@code consumer}, run by the poll thread only
     * @param buffer         where fetched records go
     * @param bufferMaxBytes bytes fetched ahead of readers before fetching pauses
     */
    PollLoop(String group, String id, Consumer<byte[], byte[]> consumer, ConsumerOperations operations,
            RecordBuffer buffer, long bufferMaxBytes) {
        this.group = group;
        this.id = id;
        this.consumer = consumer;
        this.operations = operations;
        this.mailbox = new ConsumerThreadMailbox<>("consumer", id, operations, true);
        this.buffer = buffer;
        this.bufferMaxBytes = bufferMaxBytes;
    }

    /**
     * Queues {@code operation} for the poll thread and wakes it from {@code poll}; {@link #await}
     * the future returned.
     *
     * @throws ConsumerInstanceNotFoundException when stopped
     */
    <T> CompletableFuture<T> submit(Function<ConsumerOperations, T> operation) {
        CompletableFuture<T> result = mailbox.submit(operation);
        consumer.wakeup();
        return result;
    }

    /** See {@link ConsumerThreadMailbox#await}. */
    <T> T await(CompletableFuture<T> result) {
        return mailbox.await(result);
    }

    /**
     * Tells the poll thread to stop and wakes it; it then closes the consumer. Operations submitted
     * from now on fail.
     *
     * @return false when already stopped
     */
    boolean stop() {
        if (!mailbox.stop()) {
            return false;
        }
        consumer.wakeup();
        return true;
    }

    /** The failure of the last poll, null after a successful one. */
    KafkaException pollFailure() {
        return pollFailure;
    }

    /** Forgets the failure of the last poll, as after a seek. Called by operations, on the poll thread. */
    void clearPollFailure() {
        pollFailure = null;
    }

    /** The poll thread: polls until {@link #stop stopped}, then closes the Kafka consumer. */
    void run() {
        try {
            while (mailbox.isRunning()) {
                mailbox.runQueued();
                if (!operations.hasTarget()) {
                    mailbox.runNext(POLL_TIMEOUT.toMillis());
                    continue;
                }
                applyBackpressure();
                ConsumerRecords<byte[], byte[]> records;
                try {
                    records = consumer.poll(POLL_TIMEOUT);
                    pollFailure = null;
                } catch (WakeupException e) {
                    continue;
                } catch (InterruptException e) {
                    break;
                } catch (KafkaException e) {
                    pollFailure = e;
                    log.warn("Consumer instance {} of group {}: poll failed: {}", id, group, KafkaErrors.describe(e));
                    Thread.sleep(200);
                    continue;
                }
                if (!records.isEmpty()) {
                    buffer.add(records);
                }
                operations.maybeAutoCommit();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("Consumer instance {} of group {}: poll thread failed", id, group, e);
        } finally {
            shutdown();
        }
    }

    private void applyBackpressure() {
        if (buffer.bytes() >= bufferMaxBytes) {
            consumer.pause(consumer.assignment());
        } else if (!consumer.paused().isEmpty()) {
            consumer.resume(consumer.paused());
        }
    }

    private void shutdown() {
        try {
            mailbox.runQueued();
            operations.commitAtClose();
        } catch (RuntimeException e) {
            log.warn("Consumer instance {} of group {}: commit at close failed: {}", id, group, e.toString());
        } finally {
            try {
                consumer.close(CloseOptions.timeout(Duration.ofSeconds(10)));
            } catch (RuntimeException e) {
                log.warn("Consumer instance {} of group {}: close failed: {}", id, group, e.toString());
            }
            buffer.cancelReads();
            mailbox.closeAndFailQueued();
        }
    }
}
