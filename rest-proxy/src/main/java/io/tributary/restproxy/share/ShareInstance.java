package io.tributary.restproxy.share;

import io.tributary.restproxy.error.ConsumerInstanceNotFoundException;
import io.tributary.restproxy.error.IllegalConsumerStateException;
import io.tributary.restproxy.error.KafkaOperationException;
import io.tributary.restproxy.error.OperationTimeoutException;
import io.tributary.restproxy.error.ShareBatchNotAcknowledgedException;
import io.tributary.restproxy.error.ShareRecordNotAcquiredException;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ShareConsumer;

/**
 * One share consumer instance of the REST API: a Kafka {@link ShareConsumer} in a share group
 * (KIP-932) with explicit acknowledgement, owned by its own thread ({@link SharePollLoop}).
 *
 * <p>HTTP semantics: a {@link #read} returns a batch (the records of one poll); the records stay
 * held, locked for this instance on the brokers, until {@link #acknowledge acknowledged}. While any
 * record of a delivered batch is held, a read fails with {@link ShareBatchNotAcknowledgedException}
 * (Kafka's share consumer may not poll again before; releasing them silently would hide a client's
 * bug and raise their delivery counts). Records not acknowledged within the group's
 * {@code share.record.lock.duration.ms} go back to the group and may be delivered to any
 * consumer; acknowledging them later fails with {@link ShareRecordNotAcquiredException}. Closing
 * the instance (deleted, idle past the instance timeout, proxy shutdown) releases what it holds.
 *
 * <p>Knows nothing of HTTP. Thread-safe: every call is handed to the instance's thread.
 */
public final class ShareInstance {

    private final String group;
    private final String id;
    private final ShareInstanceConfig config;
    private final Clock clock;
    private final SharePollLoop loop;
    private final Thread thread;

    private volatile long lastUsedMs;

    /** Starts the instance's thread, which owns {@code consumer} from now on. */
    public ShareInstance(String group, String id, ShareInstanceConfig config, ShareConsumer<byte[], byte[]> consumer,
            Clock clock) {
        this.group = group;
        this.id = id;
        this.config = config;
        this.clock = clock;
        this.lastUsedMs = clock.millis();
        this.loop = new SharePollLoop(group, id, consumer, new ShareOperations(consumer), clock);
        this.thread = new Thread(loop::run, "rest-share-" + group + "-" + id);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    public String group() {
        return group;
    }

    public String id() {
        return id;
    }

    public ShareInstanceConfig config() {
        return config;
    }

    /** When the instance was last used, epoch ms. */
    public long lastUsedMs() {
        return lastUsedMs;
    }

    /** Marks the instance used now (it expires after the instance timeout without use). */
    public void touch() {
        lastUsedMs = clock.millis();
    }

    /** Subscribes to {@code topics}, replacing the earlier list. */
    public void subscribe(List<String> topics) {
        call(operations -> {
            operations.subscribe(topics);
            return null;
        });
    }

    /** The topics subscribed to. */
    public Set<String> subscription() {
        return call(ShareOperations::subscription);
    }

    /**
     * Reads a batch: completes with the records of the next poll that returns any (at most the
     * instance's {@code max.poll.records}), or empty after {@code timeoutMs}. The future fails with
     * {@link ShareBatchNotAcknowledgedException} while records delivered before are held,
     * {@link IllegalConsumerStateException} when not subscribed, {@link KafkaOperationException} when
     * the poll fails.
     *
     * @throws ConsumerInstanceNotFoundException when closed
     */
    public CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> read(long timeoutMs) {
        touch();
        return loop.read(timeoutMs).whenComplete((records, e) -> touch());
    }

    /**
     * Acknowledges records this instance holds and commits the acknowledgements to the brokers.
     *
     * @param acknowledgements the records and their types; null for every record held, as {@code allType}
     * @return how many records were acknowledged and how many are still held
     * @throws ShareRecordNotAcquiredException for a record not held (nothing is acknowledged then), or
     *         whose acquisition lock expired before the brokers got the acknowledgement
     * @throws KafkaOperationException when the brokers refused the acknowledgements otherwise
     * @throws OperationTimeoutException when the instance's thread does not answer in time
     */
    public Acknowledged acknowledge(List<ShareAcknowledgement> acknowledgements, AcknowledgeType allType) {
        return call(operations -> new Acknowledged(operations.acknowledge(acknowledgements, allType),
            operations.heldCount()));
    }

    /** The outcome of {@link #acknowledge}: records acknowledged, records still held. */
    public record Acknowledged(int acknowledged, int stillHeld) {
    }

    /**
     * Stops the thread, which closes the share consumer: it leaves the group and the records it held
     * go back to the group for other consumers. A waiting read completes empty. Idempotent.
     */
    public void close() {
        if (!loop.stop()) {
            return;
        }
        try {
            thread.join(SharePollLoop.CALL_TIMEOUT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private <T> T call(Function<ShareOperations, T> operation) {
        touch();
        try {
            return loop.await(loop.submit(operation));
        } finally {
            touch();
        }
    }
}
