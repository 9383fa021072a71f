package io.tributary.restproxy.atomic;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The committed idempotency keys of every proxy replica: a read_committed consumer tails all
 * partitions of the idempotency topic from the beginning into memory, keeping each key for the
 * retention.
 *
 * <p>{@link #lookup} first reads the partition's end offset (its high watermark) and waits until
 * the read_committed tail has read past it, so it sees every key whose transaction completed before
 * the lookup began, on any replica. Past the end offset, not to the last stable offset: the
 * partition is shared by every caller of the slot, and another caller's transaction still open
 * there holds the LSO in front of keys committed after it began; the wait lasts until such a
 * transaction ends. The caller holds the slot's transactional id (its producer has fenced all
 * earlier ones, whose transactions are therefore complete), so no other writer of that key can
 * commit between the lookup and the caller's own commit: that is what makes a key's records
 * written at most once.
 *
 * <p>Thread-safe: the consumer is used only by the tail thread; {@link #lookup} runs on request
 * threads and waits on this object's monitor for the tail's positions.
 */
public final class IdempotencyKeys implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyKeys.class);
    private static final Duration POLL = Duration.ofMillis(200);

    private final Consumer<byte[], byte[]> consumer;
    private final Admin admin;
    private final String topic;
    private final int partitions;
    private final JsonMapper mapper;
    private final Clock clock;
    private final long retentionMs;
    private final Map<IdempotencyKey, StoredOutcome> outcomes = new ConcurrentHashMap<>();
    /** The tail's position in each partition; guarded by this. */
    private final long[] positions;
    private final Thread tail;
    private volatile boolean closed;
    private long lastEvictionMs;

    /**
     * Starts tailing {@code topic} (which must exist, with {@code partitions} partitions).
     *
     * @param consumer a read_committed consumer, unassigned, owned by this object from now on
     * @param admin    reads end offsets; not closed here
     */
    public IdempotencyKeys(Consumer<byte[], byte[]> consumer, Admin admin, String topic, int partitions,
            JsonMapper mapper, Clock clock, Duration retention) {
        this.consumer = consumer;
        this.admin = admin;
        this.topic = topic;
        this.partitions = partitions;
        this.mapper = mapper;
        this.clock = clock;
        this.retentionMs = retention.toMillis();
        this.positions = new long[partitions];
        List<TopicPartition> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            all.add(new TopicPartition(topic, p));
        }
        consumer.assign(all);
        consumer.seekToBeginning(all);
        this.tail = new Thread(this::run, "rest-idempotency-keys");
        tail.setDaemon(true);
        tail.start();
    }

    /** The idempotency topic. */
    public String topic() {
        return topic;
    }

    /** The number of partitions of the idempotency topic, which is the number of slots. */
    public int partitions() {
        return partitions;
    }

    /**
     * The outcome committed under {@code key}, if any, once the tail has read {@code partition} past
     * its end offset as of this call (so every transaction with a record before it has ended).
     *
     * @throws TimeoutException when the end offset cannot be read, or the tail does not pass it
     *                          (e.g. behind another transaction still open) within {@code timeout}
     */
    public Optional<StoredOutcome> lookup(int partition, IdempotencyKey key, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        TopicPartition tp = new TopicPartition(topic, partition);
        long endOffset;
        try {
            endOffset = admin.listOffsets(Map.of(tp, OffsetSpec.latest()),
                    new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED))
                .partitionResult(tp).get(timeout.toMillis(), TimeUnit.MILLISECONDS).offset();
        } catch (ExecutionException e) {
            throw new TimeoutException("Cannot read the end offset of " + tp + ": " + e.getCause(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Timed out reading the end offset of " + tp);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TimeoutException("Interrupted reading the end offset of " + tp);
        }
        synchronized (this) {
            if (positions[partition] < endOffset) {
                consumer.wakeup();
            }
            while (positions[partition] < endOffset) {
                long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (remainingMs <= 0 || closed) {
                    throw new TimeoutException("The idempotency keys of " + tp + " were not read up to offset "
                        + endOffset + " in time (at " + positions[partition] + ", behind a transaction still open?)");
                }
                try {
                    wait(remainingMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TimeoutException("Interrupted waiting for the idempotency keys of " + tp);
                }
            }
        }
        StoredOutcome outcome = outcomes.get(key);
        return outcome == null || expired(outcome, clock.millis()) ? Optional.empty() : Optional.of(outcome);
    }

    /** Records an outcome this replica just committed, before the tail reads it back. */
    public void remember(IdempotencyKey key, StoredOutcome outcome) {
        outcomes.put(key, outcome);
    }

    /** The record value of {@code outcome}. */
    public byte[] encode(StoredOutcome outcome) {
        return mapper.writeValueAsBytes(outcome);
    }

    private void run() {
        while (!closed) {
            try {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    read(record);
                }
                synchronized (this) {
                    for (int p = 0; p < partitions; p++) {
                        positions[p] = consumer.position(new TopicPartition(topic, p));
                    }
                    notifyAll();
                }
                evictExpired();
            } catch (WakeupException e) {
                // A lookup wants fresh positions: poll again now.
            } catch (RuntimeException e) {
                if (closed) {
                    break;
                }
                log.warn("Reading idempotency keys from {} failed, retrying: {}", topic, e.toString());
                try {
                    Thread.sleep(1_000); // back off before the next poll; not waiting for a condition
                } catch (InterruptedException interrupted) {
                    break;
                }
            }
        }
        consumer.close(Duration.ZERO);
    }

    private void read(ConsumerRecord<byte[], byte[]> record) {
        if (record.key() == null || record.value() == null) {
            return;
        }
        try {
            IdempotencyKey key = IdempotencyKey.decode(record.key());
            StoredOutcome outcome = mapper.readValue(record.value(), StoredOutcome.class);
            if (!expired(outcome, clock.millis())) {
                outcomes.put(key, outcome);
            }
        } catch (JacksonException | IllegalArgumentException e) {
            log.warn("Skipping an unreadable idempotency record at {}-{} offset {}: {}", record.topic(),
                record.partition(), record.offset(), e.toString());
        }
    }

    private void evictExpired() {
        long now = clock.millis();
        if (now - lastEvictionMs < 60_000) {
            return;
        }
        lastEvictionMs = now;
        outcomes.values().removeIf(outcome -> expired(outcome, now));
    }

    private boolean expired(StoredOutcome outcome, long nowMs) {
        return nowMs - outcome.createdMs() > retentionMs;
    }

    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
        try {
            tail.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            notifyAll();
        }
    }
}
