package io.tributary.restproxy.consumer;

import io.tributary.restproxy.error.ConsumerAlreadySubscribedException;
import io.tributary.restproxy.error.ConsumerInstanceNotFoundException;
import io.tributary.restproxy.error.IllegalConsumerStateException;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.KafkaOperationException;
import io.tributary.restproxy.error.OperationTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>Size: about 500 lines, kept in one class on purpose. Kafka's consumer may only be used by one
 * thread, so the poll loop, the operations it runs for HTTP threads and the rebalance callbacks
 * share that thread's state (target, pattern flag, auto-commit clock); split apart they would
 * need that state passed around or locked.
 */
public final class ConsumerInstance {

    private static final Logger log = LoggerFactory.getLogger(ConsumerInstance.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
    /** Bound of every blocking Kafka consumer call an operation makes. */
    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(30);
    /** How long a caller waits for its operation: beyond {@link #OPERATION_TIMEOUT}, so it sees the outcome. */
    private static final long CALL_TIMEOUT_MS = 45_000;

    private final String group;
    private final String id;
    private final ConsumerInstanceConfig config;
    private final Consumer<byte[], byte[]> consumer;
    private final Clock clock;
    private final long bufferMaxBytes;
    private final RecordBuffer buffer;
    private final LinkedBlockingQueue<Runnable> operations = new LinkedBlockingQueue<>();
    private final Thread pollThread;
    private final ConsumerRebalanceListener rebalanceListener = new RebalanceListener();

    private volatile boolean running = true;
    /** Set once the Kafka consumer is closed; operations queued after that fail as the instance not found. */
    private volatile boolean consumerClosed;
    private volatile long lastUsedMs;
    /** A failure of the last poll (e.g. no committed offset with auto.offset.reset=none), reported to the next read. */
    private volatile KafkaException pollFailure;
    /** Only touched by the poll thread. */
    private boolean hasTarget;
    private boolean patternSubscription;
    private long nextAutoCommitMs;

    /**
     * @param bufferMaxBytes bytes fetched ahead of readers before fetching pauses
     * @param timer          schedules the timeouts of waiting reads
     */
    public ConsumerInstance(String group, String id, ConsumerInstanceConfig config, Consumer<byte[], byte[]> consumer,
            Clock clock, long bufferMaxBytes, ScheduledExecutorService timer) {
        this.group = group;
        this.id = id;
        this.config = config;
        this.consumer = consumer;
        this.clock = clock;
        this.bufferMaxBytes = bufferMaxBytes;
        this.buffer = new RecordBuffer(timer);
        this.lastUsedMs = clock.millis();
        this.pollThread = new Thread(this::pollLoop, "rest-consumer-" + group + "-" + id);
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
        call(c -> {
            if (hasTarget && patternSubscription) {
                throw new ConsumerAlreadySubscribedException("Consumer is subscribed by topic pattern; "
                    + "delete the subscription before subscribing to a list of topics.");
            }
            c.subscribe(topics, rebalanceListener);
            hasTarget = true;
            patternSubscription = false;
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
        call(c -> {
            if (hasTarget && !patternSubscription && !c.subscription().isEmpty()) {
                throw new ConsumerAlreadySubscribedException("Consumer is subscribed to a list of topics; "
                    + "delete the subscription before subscribing by pattern.");
            }
            c.subscribe(pattern, rebalanceListener);
            hasTarget = true;
            patternSubscription = true;
            return null;
        });
    }

    /** The subscribed topics (for a pattern, those it matched so far). */
    public Set<String> subscription() {
        return call(Consumer::subscription);
    }

    /** Leaves the subscription or assignment; buffered records are dropped. */
    public void unsubscribe() {
        call(c -> {
            commitOnRevoke(c.assignment());
            c.unsubscribe();
            buffer.retain(Set.of());
            hasTarget = false;
            patternSubscription = false;
            return null;
        });
    }

    /**
     * Assigns {@code partitions} manually (no group rebalancing).
     *
     * @throws IllegalConsumerStateException when subscribed
     */
    public void assign(Collection<TopicPartition> partitions) {
        call(c -> {
            c.assign(partitions);
            buffer.retain(partitions);
            hasTarget = !partitions.isEmpty();
            patternSubscription = false;
            return null;
        });
    }

    /** The partitions assigned, by the group or manually. */
    public Set<TopicPartition> assignment() {
        return call(Consumer::assignment);
    }

    /**
     * Moves the fetch position of each partition to the given offset; records buffered from the
     * old position are dropped.
     *
     * @throws IllegalConsumerStateException for a partition not assigned to this instance
     */
    public void seek(Map<TopicPartition, Long> offsets) {
        call(c -> {
            offsets.forEach(c::seek);
            buffer.seeked(offsets);
            pollFailure = null;
            return null;
        });
    }

    /** Moves each partition to the offset of its first record with a timestamp at or after the given one, or to its end. */
    public void seekToTimestamps(Map<TopicPartition, Long> timestamps) {
        call(c -> {
            var found = c.offsetsForTimes(timestamps, OPERATION_TIMEOUT);
            for (TopicPartition tp : timestamps.keySet()) {
                var offset = found.get(tp);
                if (offset != null) {
                    c.seek(tp, offset.offset());
                } else {
                    c.seekToEnd(List.of(tp));
                }
            }
            buffer.seeked(positions(c, timestamps.keySet()));
            pollFailure = null;
            return null;
        });
    }

    /**
     * Moves each partition to its log start offset. The offset is looked up before this returns
     * (Kafka's consumer would look it up lazily, at its next fetch).
     */
    public void seekToBeginning(Collection<TopicPartition> partitions) {
        call(c -> {
            c.seekToBeginning(partitions);
            buffer.seeked(positions(c, partitions));
            pollFailure = null;
            return null;
        });
    }

    /**
     * Moves each partition to its log end offset as of this call: the offset is looked up before
     * this returns, so a record produced after the answer is read (Kafka's consumer would look it
     * up lazily, at its next fetch, and could skip such a record).
     */
    public void seekToEnd(Collection<TopicPartition> partitions) {
        call(c -> {
            c.seekToEnd(partitions);
            buffer.seeked(positions(c, partitions));
            pollFailure = null;
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
        KafkaException failure = pollFailure;
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
        return call(c -> {
            Map<TopicPartition, OffsetAndMetadata> offsets = toCommit(buffer.consumedPositions());
            if (!offsets.isEmpty()) {
                c.commitSync(offsets, OPERATION_TIMEOUT);
            }
            return offsets;
        });
    }

    /** Commits the given offsets as they are (the offset of the next record to read). */
    public void commit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        call(c -> {
            c.commitSync(offsets, OPERATION_TIMEOUT);
            return null;
        });
    }

    /** The group's committed offsets of {@code partitions}; partitions without one are left out. */
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
        return call(c -> {
            Map<TopicPartition, OffsetAndMetadata> result = new HashMap<>();
            c.committed(partitions, OPERATION_TIMEOUT).forEach((tp, offset) -> {
                if (offset != null) {
                    result.put(tp, offset);
                }
            });
            return result;
        });
    }

    /**
     * Stops polling and closes the Kafka consumer, which leaves the group; with auto-commit on,
     * what readers consumed is committed first. Waiting reads complete empty. Idempotent.
     */
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        consumer.wakeup();
        try {
            pollThread.join(CALL_TIMEOUT_MS);
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
    <T> T call(Function<Consumer<byte[], byte[]>, T> operation) {
        touch();
        if (!running) {
            throw new ConsumerInstanceNotFoundException("Consumer instance " + id + " is closed.");
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        operations.add(() -> {
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
                    value = operation.apply(consumer);
                } catch (WakeupException e) {
                    value = operation.apply(consumer);
                }
                result.complete(value);
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        consumer.wakeup();
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
        } finally {
            touch();
        }
    }

    private void pollLoop() {
        try {
            while (running) {
                runOperations();
                if (!hasTarget) {
                    Runnable next = operations.poll(POLL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
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
                maybeAutoCommit();
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
        while ((operation = operations.poll()) != null) {
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

    private void maybeAutoCommit() {
        if (!config.autoCommitEnable()) {
            return;
        }
        long now = clock.millis();
        if (now < nextAutoCommitMs) {
            return;
        }
        nextAutoCommitMs = now + config.autoCommitIntervalMs();
        Map<TopicPartition, OffsetAndMetadata> offsets = toCommit(buffer.consumedPositions());
        if (!offsets.isEmpty()) {
            consumer.commitAsync(offsets, (committed, e) -> {
                if (e != null) {
                    log.debug("Auto-commit of {} in group {} failed: {}", id, group, e.toString());
                }
            });
        }
    }

    private void commitOnRevoke(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> positions = buffer.remove(partitions);
        if (config.autoCommitEnable() && !positions.isEmpty()) {
            try {
                consumer.commitSync(toCommit(positions), OPERATION_TIMEOUT);
            } catch (KafkaException e) {
                log.warn("Consumer instance {} of group {}: commit on revoke failed: {}", id, group,
                    KafkaErrors.describe(e));
            }
        }
    }

    private void shutdown() {
        try {
            runOperations();
            if (hasTarget) {
                commitOnRevoke(consumer.assignment());
            }
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
            while ((orphan = operations.poll()) != null) {
                orphan.run();
            }
        }
    }

    /** The fetch positions of {@code partitions}, looked up now if a seek left them to be resolved. */
    private static Map<TopicPartition, Long> positions(Consumer<byte[], byte[]> c, Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        for (TopicPartition tp : partitions) {
            positions.put(tp, c.position(tp, OPERATION_TIMEOUT));
        }
        return positions;
    }

    private static Map<TopicPartition, OffsetAndMetadata> toCommit(Map<TopicPartition, Long> positions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        positions.forEach((tp, offset) -> offsets.put(tp, new OffsetAndMetadata(offset)));
        return offsets;
    }

    /** Commits consumed positions of revoked partitions (with auto-commit) and drops their buffered records. */
    private final class RebalanceListener implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            commitOnRevoke(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            buffer.remove(partitions);
        }
    }
}
