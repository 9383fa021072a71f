package io.tributary.restproxy.consumer;

import io.tributary.restproxy.error.ConsumerInstanceNotFoundException;
import io.tributary.restproxy.error.IllegalConsumerStateException;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.OperationTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.common.errors.WakeupException;

/**
 * The hand-off of work to the one thread that may use a Kafka consumer (neither {@code KafkaConsumer} nor
 * {@code ShareConsumer} is thread-safe): HTTP threads {@link #submit} operations on {@code O}, the consumer's thread
 * runs them between polls ({@link #runQueued()}, {@link #runNext(long)}), and the callers {@link #await} the outcome.
 * Used by the v2 consumer instances' poll loop and the share consumer instances' loop.
 *
 * <p>An operation whose caller gave up waiting ({@link #CALL_TIMEOUT_MS}) is not run later: a caller told it failed
 * must not see it happen. After {@link #stop()} nothing more is accepted; after {@link #closeAndFailQueued()} (the
 * consumer closed) every operation still queued, and any queued later, fails as the instance not found.
 *
 * <p>Thread-safety: {@link #submit}, {@link #await}, {@link #stop} and {@link #isRunning} from any thread (a queue
 * and volatile flags); {@link #runQueued}, {@link #runNext} and {@link #closeAndFailQueued} on the consumer's thread.
 *
 * @param <O> the operations on the consumer, used by the consumer's thread only
 */
public final class ConsumerThreadMailbox<O> {

    /** How long a caller waits for its operation, ms: beyond a commit's own timeout, so it sees the outcome. */
    public static final long CALL_TIMEOUT_MS = 45_000;

    private final String instance;
    private final String consumerNoun;
    private final O operations;
    private final boolean retryWhenWoken;
    private final LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    private volatile boolean running = true;
    private volatile boolean consumerClosed;

    /**
     * @param consumerNoun   "consumer" or "share consumer", for error messages ("Consumer instance X is closed.")
     * @param id             the instance's id
     * @param operations     what operations run on, on the consumer's thread
     * @param retryWhenWoken run an operation once more when it throws {@link WakeupException}: for a consumer that is
     *                       woken from {@code poll} to see new work, whose wake-up can land on the operation instead
     */
    public ConsumerThreadMailbox(String consumerNoun, String id, O operations, boolean retryWhenWoken) {
        this.consumerNoun = consumerNoun;
        this.instance = Character.toUpperCase(consumerNoun.charAt(0)) + consumerNoun.substring(1) + " instance " + id;
        this.operations = operations;
        this.retryWhenWoken = retryWhenWoken;
    }

    /**
     * Queues {@code operation} for the consumer's thread; {@link #await} the future returned. The caller wakes that
     * thread if it may be blocked in {@code poll}.
     *
     * @throws ConsumerInstanceNotFoundException when stopped
     */
    public <T> CompletableFuture<T> submit(Function<O, T> operation) {
        if (!running) {
            throw closed();
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        queue.add(() -> {
            if (result.isDone()) {
                return; // its caller gave up waiting: an operation reported as failed must not happen later
            }
            if (consumerClosed) {
                result.completeExceptionally(closed());
                return;
            }
            try {
                T value;
                try {
                    value = operation.apply(operations);
                } catch (WakeupException e) {
                    if (!retryWhenWoken) {
                        throw e;
                    }
                    value = operation.apply(operations);
                }
                result.complete(value);
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /**
     * Waits for an operation {@link #submit submitted}. Kafka's {@link IllegalStateException} (e.g. assign while
     * subscribed) becomes an {@link IllegalConsumerStateException}, other failures as {@link KafkaErrors#wrap} makes
     * them.
     *
     * @throws ConsumerInstanceNotFoundException when the instance closed before running it
     * @throws OperationTimeoutException when the consumer's thread does not run it in {@link #CALL_TIMEOUT_MS} (it is
     *         then not run later)
     */
    public <T> T await(CompletableFuture<T> result) {
        try {
            try {
                return result.get(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // Fails the operation unless it completed this instant; either way it is now done.
                result.completeExceptionally(new OperationTimeoutException("The " + consumerNoun
                    + " did not complete the operation within " + CALL_TIMEOUT_MS + " ms"));
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
     * Stops accepting operations and ends a {@link #runNext} wait; the consumer's thread sees {@link #isRunning()}
     * false and closes the consumer.
     *
     * @return false when already stopped
     */
    public boolean stop() {
        if (!running) {
            return false;
        }
        running = false;
        queue.add(() -> { });
        return true;
    }

    public boolean isRunning() {
        return running;
    }

    /** Runs every operation queued now. Consumer's thread only. */
    public void runQueued() {
        Runnable operation;
        while ((operation = queue.poll()) != null) {
            operation.run();
        }
    }

    /** Waits up to {@code waitMs} for one operation and runs it. Consumer's thread only. */
    public void runNext(long waitMs) throws InterruptedException {
        Runnable next = queue.poll(waitMs, TimeUnit.MILLISECONDS);
        if (next != null) {
            next.run();
        }
    }

    /**
     * Marks the consumer closed and fails every operation still queued as the instance not found. Consumer's thread
     * only, after closing the consumer.
     */
    public void closeAndFailQueued() {
        consumerClosed = true;
        runQueued();
    }

    private ConsumerInstanceNotFoundException closed() {
        return new ConsumerInstanceNotFoundException(instance + " is closed.");
    }
}
