package io.tributary.restproxy.consumer;

import io.tributary.restproxy.error.ConsumerInstanceNotFoundException;
import io.tributary.restproxy.error.IllegalConsumerStateException;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.OperationTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
    static final long CALL_TIMEOUT_MS = 45_000;

    private final String group;
    private final String id;
    private final Consumer<byte[], byte[]> consumer;
    private final ConsumerOperations operations;
    private final RecordBuffer buffer;
    private final long bufferMaxBytes;
    private final LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();

    private volatile boolean running = true;
    /** Set once the Kafka consumer is closed; operations queued after that fail as the instance not found. */
    private volatile boolean consumerClosed;
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
        if (!running) {
            throw new ConsumerInstanceNotFoundException("Consumer instance " + id + " is closed.");
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        queue.add(() -> {
            if (result.isDone()) {
                return; // its caller gave up waiting: an operation reported as failed must not happen later
            }
            if (consumerClosed) {
                result.completeExceptionally(new ConsumerInstanceNotFoundException("Consumer instance " + id
                    + " is closed."));
                return;
            }
            try {
                T value;
                try {
                    value = operation.apply(operations);
                } catch (WakeupException e) {
                    value = operation.apply(operations);
                }
                result.complete(value);
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        consumer.wakeup();
        return result;
    }

    /**
     * Waits for an operation {@link #submit submitted}. Kafka exceptions become the proxy's:
     * {@link IllegalStateException} (e.g. assign while subscribed) an
     * {@link IllegalConsumerStateException}, others as {@link KafkaErrors#wrap} makes them.
     *
     * @throws ConsumerInstanceNotFoundException when the instance closed before running it
     * @throws OperationTimeoutException when the poll thread does not run it in {@link #CALL_TIMEOUT_MS}
     *         (it is then not run later)
     */
    <T> T await(CompletableFuture<T> result) {
        try {
            try {
                return result.get(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // Fails the operation unless it completed this instant; either way it is now done.
                result.completeExceptionally(new OperationTimeoutException("The consumer did not complete the "
                    + "operation within " + CALL_TIMEOUT_MS + " ms"));
                return result.get();
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IllegalStateException illegal) {
                throw new IllegalConsumerStateException(illegal);
            }
            throw KafkaErrors.wrap(cause);
        } catch (InterruptedException e) {
            throw KafkaErrors.wrap(e);
        }
    }

    /**
     * Tells the poll thread to stop and wakes it; it then closes the consumer. Operations submitted
     * from now on fail.
     *
     * @return false when already stopped
     */
    boolean stop() {
        if (!running) {
            return false;
        }
        running = false;
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
            while (running) {
                runOperations();
                if (!operations.hasTarget()) {
                    Runnable next = queue.poll(POLL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                    if (next != null) {
                        next.run();
                    }
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

    private void runOperations() {
        Runnable operation;
        while ((operation = queue.poll()) != null) {
            operation.run();
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
            runOperations();
            operations.commitAtClose();
        } catch (RuntimeException e) {
            log.warn("Consumer instance {} of group {}: commit at close failed: {}", id, group, e.toString());
        } finally {
            try {
                consumer.close(CloseOptions.timeout(Duration.ofSeconds(10)));
            } catch (RuntimeException e) {
                log.warn("Consumer instance {} of group {}: close failed: {}", id, group, e.toString());
            }
            consumerClosed = true;
            buffer.cancelReads();
            Runnable orphan;
            while ((orphan = queue.poll()) != null) {
                orphan.run();
            }
        }
    }
}
