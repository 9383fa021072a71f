package io.tributary.restproxy.consumer;

import io.tributary.restproxy.error.ConsumerAlreadySubscribedException;
import io.tributary.restproxy.error.ConsumerInstanceNotFoundException;
import io.tributary.restproxy.error.IllegalConsumerStateException;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.KafkaOperationException;
import io.tributary.restproxy.error.OperationTimeoutException;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * One consumer instance of the REST API: a Kafka consumer in a group, polled continuously by its
 * own thread, with the records it fetched held in a {@link RecordBuffer} until an HTTP reader
 * takes them.
 *
 * <p>Because the poll thread keeps calling {@code poll}, the member heartbeats and joins
 * rebalances no matter how slowly HTTP clients read: HTTP pacing never gets it evicted. When the
 * buffer holds {@code bufferMaxBytes}, fetching pauses (the consumer still polls) until a reader
 * drains it.
 *
 * <p>Knows nothing of HTTP: failures are the proxy's exceptions ({@code io.tributary.restproxy.error}).
 *
 * <p>Thread-safety: the Kafka consumer is only touched by the poll thread. Other threads hand it
 * operations ({@link #call}) and wake it from {@code poll}; a woken blocking operation is retried
 * once, since a wake-up meant for {@code poll} can land on it instead. Reads go to the buffer.
 *
 * <p>Layout: Kafka's consumer may only be used by one thread, so what runs on the poll thread is
 * kept apart from what HTTP threads call. This class is the handle HTTP threads and
 * {@link ConsumerManager} use: identity, idle time, reads from the buffer, each operation handed
 * to the poll thread and waited for, and closing. It builds the parts below in its constructor and
 * starts the poll thread; none of them holds a reference to it.
 * <ul>
 *   <li>{@link PollLoop}: the poll thread's body (poll, backpressure, the failure of the last poll,
 *       closing the consumer) and the queue through which operations reach it.
 *   <li>{@link ConsumerOperations}: the operations themselves (subscribe, assign, seek, commit,
 *       auto-commit) and the poll thread's state they use (target, pattern flag, auto-commit
 *       clock). Confined to the poll thread, that state needs neither passing around nor locks.
 *   <li>{@link RebalanceListener}: the rebalance callbacks, which commit (with auto-commit) what
 *       was consumed of partitions leaving the instance and drop their buffered records.
 * </ul>
 */
public final class ConsumerInstance {

    private final String group;
    private final String id;
    private final ConsumerInstanceConfig config;
    private final Clock clock;
    private final RecordBuffer buffer;
    private final PollLoop pollLoop;
    private final Thread pollThread;

    private volatile long lastUsedMs;

    /**
     * @param bufferMaxBytes bytes fetched ahead of readers before fetching pauses
     * @param timer          schedules the timeouts of waiting reads
     */
    public ConsumerInstance(String group, String id, ConsumerInstanceConfig config, Consumer<byte[], byte[]> consumer,
            Clock clock, long bufferMaxBytes, ScheduledExecutorService timer) {
        this.group = group;
        this.id = id;
        this.config = config;
        this.clock = clock;
        this.buffer = new RecordBuffer(timer);
        this.lastUsedMs = clock.millis();
        RebalanceListener rebalanceListener = new RebalanceListener(group, id, config, consumer, buffer);
        ConsumerOperations operations = new ConsumerOperations(group, id, config, consumer, clock, buffer,
            rebalanceListener);
        this.pollLoop = new PollLoop(group, id, consumer, operations, buffer, bufferMaxBytes);
        this.pollThread = new Thread(pollLoop::run, "rest-consumer-" + group + "-" + id);
        this.pollThread.setDaemon(true);
        this.pollThread.start();
    }

    public String group() {
        return group;
    }

    public String id() {
        return id;
    }

    public ConsumerInstanceConfig config() {
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

    /**
     * Subscribes to {@code topics} (replacing an earlier topic list).
     *
     * @throws ConsumerAlreadySubscribedException when subscribed by pattern
     * @throws IllegalConsumerStateException when partitions are assigned
     */
    public void subscribe(List<String> topics) {
        call(operations -> {
            operations.subscribe(topics);
            return null;
        });
    }

    /**
     * Subscribes to every topic matching {@code pattern}, now and later.
     *
     * @throws ConsumerAlreadySubscribedException when subscribed to a topic list
     * @throws IllegalConsumerStateException when partitions are assigned
     */
    public void subscribe(Pattern pattern) {
        call(operations -> {
            operations.subscribe(pattern);
            return null;
        });
    }

    /** The subscribed topics (for a pattern, those it matched so far). */
    public Set<String> subscription() {
        return call(ConsumerOperations::subscription);
    }

    /** Leaves the subscription or assignment; buffered records are dropped. */
    public void unsubscribe() {
        call(operations -> {
            operations.unsubscribe();
            return null;
        });
    }

    /**
     * Assigns {@code partitions} manually (no group rebalancing).
     *
     * @throws IllegalConsumerStateException when subscribed
     */
    public void assign(Collection<TopicPartition> partitions) {
        call(operations -> {
            operations.assign(partitions);
            return null;
        });
    }

    /** The partitions assigned, by the group or manually. */
    public Set<TopicPartition> assignment() {
        return call(ConsumerOperations::assignment);
    }

    /**
     * Moves the fetch position of each partition to the given offset; records buffered from the
     * old position are dropped.
     *
     * @throws IllegalConsumerStateException for a partition not assigned to this instance
     */
    public void seek(Map<TopicPartition, Long> offsets) {
        call(operations -> {
            operations.seek(offsets);
            pollLoop.clearPollFailure();
            return null;
        });
    }

    /** Moves each partition to the offset of its first record with a timestamp at or after the given one, or to its end. */
    public void seekToTimestamps(Map<TopicPartition, Long> timestamps) {
        call(operations -> {
            operations.seekToTimestamps(timestamps);
            pollLoop.clearPollFailure();
            return null;
        });
    }

    /**
     * Moves each partition to its log start offset. The offset is looked up before this returns
     * (Kafka's consumer would look it up lazily, at its next fetch).
     */
    public void seekToBeginning(Collection<TopicPartition> partitions) {
        call(operations -> {
            operations.seekToBeginning(partitions);
            pollLoop.clearPollFailure();
            return null;
        });
    }

    /**
     * Moves each partition to its log end offset as of this call: the offset is looked up before
     * this returns, so a record produced after the answer is read (Kafka's consumer would look it
     * up lazily, at its next fetch, and could skip such a record).
     */
    public void seekToEnd(Collection<TopicPartition> partitions) {
        call(operations -> {
            operations.seekToEnd(partitions);
            pollLoop.clearPollFailure();
            return null;
        });
    }

    /**
     * Reads records: completes as soon as at least one record (and at least the instance's
     * {@code fetch.min.bytes}) is there, or after {@code timeoutMs} with what there is.
     *
     * @throws KafkaOperationException when the last poll failed (reported until a poll succeeds)
     */
    public CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> read(long timeoutMs, long maxBytes) {
        touch();
        KafkaException failure = pollLoop.pollFailure();
        if (failure != null) {
            // Reported on every read until a poll succeeds (e.g. after a seek), as Confluent's proxy does.
            throw KafkaErrors.wrap(failure);
        }
        return buffer.read(config.fetchMinBytes(), maxBytes, timeoutMs).whenComplete((records, e) -> touch());
    }

    /** Reads (long polls) waiting for records now, for tests and monitoring. */
    public int waitingReads() {
        return buffer.waitingReads();
    }

    /** Commits what readers consumed so far (the offset after the last record read of each partition). */
    public Map<TopicPartition, OffsetAndMetadata> commitConsumed() {
        return call(ConsumerOperations::commitConsumed);
    }

    /** Commits the given offsets as they are (the offset of the next record to read). */
    public void commit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        call(operations -> {
            operations.commit(offsets);
            return null;
        });
    }

    /** The group's committed offsets of {@code partitions}; partitions without one are left out. */
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
        return call(operations -> operations.committed(partitions));
    }

    /**
     * Stops polling and closes the Kafka consumer, which leaves the group; with auto-commit on,
     * what readers consumed is committed first. Waiting reads complete empty. Idempotent.
     */
    public void close() {
        if (!pollLoop.stop()) {
            return;
        }
        try {
            pollThread.join(PollLoop.CALL_TIMEOUT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        buffer.cancelReads();
    }

    /**
     * Runs {@code operation} on the poll thread and waits for it. Kafka exceptions become the
     * proxy's: {@link IllegalStateException} (e.g. assign while subscribed) an
     * {@link IllegalConsumerStateException}, others as {@link KafkaErrors#wrap} makes them.
     *
     * @throws ConsumerInstanceNotFoundException when the instance is closed
     * @throws OperationTimeoutException when the poll thread does not run it in time
     */
    <T> T call(Function<ConsumerOperations, T> operation) {
        touch();
        CompletableFuture<T> result = pollLoop.submit(operation);
        try {
            return pollLoop.await(result);
        } finally {
            touch();
        }
    }
}
