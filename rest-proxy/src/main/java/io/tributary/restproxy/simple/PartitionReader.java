package io.tributary.restproxy.simple;

import io.tributary.restproxy.config.KafkaConsumerFactory;
import io.tributary.restproxy.config.RestProxyProperties;
import io.tributary.restproxy.error.CapacityExceededException;
import io.tributary.restproxy.error.InvalidArgumentException;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.KafkaFutures;
import io.tributary.restproxy.error.PartitionNotFoundException;
import io.tributary.restproxy.error.TopicNotFoundException;
import io.tributary.restproxy.metadata.ClusterMetadata;
import io.tributary.restproxy.metrics.RecordMetrics;
import io.tributary.restproxy.security.Callers;
import io.tributary.restproxy.security.KafkaLogin;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.springframework.stereotype.Service;

/**
 * Stateless reads of one partition for clients that keep their own offsets: no consumer
 * instance, no group, nothing to clean up. Reads run on a bounded pool of assign-mode Kafka
 * consumers (no {@code group.id}), each borrowed for one request and made for the caller's login
 * (an idle one is reused only by its own login, so a read never runs as someone else). Thread-safe.
 */
@Service
public class PartitionReader {

    /** The first and the next offset of a partition: records live in {@code [beginning, end)}. */
    public record PartitionOffsets(long beginningOffset, long endOffset) {
    }

    /** Poll slice, ms: how soon a read notices it was cancelled. */
    private static final long POLL_SLICE_MS = 500;
    /** Least wait for records known to exist below the log end, ms. */
    private static final long MIN_WAIT_FOR_EXISTING_MS = 5_000;

    private final Admin admin;
    private final ClusterMetadata metadata;
    private final KafkaConsumerFactory consumers;
    private final int poolSize;
    private final Semaphore permits;
    private final Callers callers;
    /** A consumer between reads and the login it was made for. */
    private record IdleConsumer(KafkaLogin login, String isolationLevel, KafkaConsumer<byte[], byte[]> consumer) {
    }

    /**
     * Consumers between reads, least recently returned first; at most {@code poolSize}, the
     * oldest closed to make room. Guarded by itself.
     */
    private final Deque<IdleConsumer> idle = new ArrayDeque<>();
    private final ExecutorService executor;

    public PartitionReader(Admin admin, ClusterMetadata metadata, KafkaConsumerFactory consumers,
            RestProxyProperties properties, Callers callers) {
        this.admin = admin;
        this.callers = callers;
        this.metadata = metadata;
        this.consumers = consumers;
        this.poolSize = properties.simpleConsumerPoolSize();
        this.permits = new Semaphore(poolSize);
        AtomicInteger threads = new AtomicInteger();
        this.executor = Executors.newFixedThreadPool(poolSize, r -> {
            Thread thread = new Thread(r, "rest-partition-reader-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * The partition's log start offset and log end offset (high watermark).
     *
     * @throws TopicNotFoundException when the topic does not exist
     * @throws PartitionNotFoundException when it lacks the partition
     */
    public PartitionOffsets offsets(TopicPartition tp) {
        metadata.checkPartitions(List.of(tp));
        long beginning = listOffset(tp, OffsetSpec.earliest()).offset();
        long end = listOffset(tp, OffsetSpec.latest()).offset();
        return new PartitionOffsets(beginning, end);
    }

    /**
     * The offset of the first record with a timestamp at or after {@code timestampMs}, or the log
     * end offset when there is none.
     */
    public long offsetForTimestamp(TopicPartition tp, long timestampMs) {
        metadata.checkPartitions(List.of(tp));
        long offset = listOffset(tp, OffsetSpec.forTimestamp(timestampMs)).offset();
        return offset >= 0 ? offset : listOffset(tp, OffsetSpec.latest()).offset();
    }

    /**
     * Reads up to {@code count} records (and up to {@code maxBytes} of keys and values, at least
     * one record) from {@code offset}. Completes as soon as any record is there, or after
     * {@code timeoutMs} with none: at the log end this is a long poll.
     *
     * @throws TopicNotFoundException when the topic does not exist
     * @throws PartitionNotFoundException when it lacks the partition
     * @throws InvalidArgumentException for an offset outside {@code [beginning, end]}
     * @throws CapacityExceededException when every pooled consumer is busy for 5 s
     */
    public CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> read(TopicPartition tp, long offset, int count,
            long maxBytes, long timeoutMs) {
        return read(tp, offset, count, maxBytes, timeoutMs, null);
    }

    /**
     * As {@link #read(TopicPartition, long, int, long, long)}, with {@code isolationLevel}
     * ({@code read_committed}: only committed transactions' records, up to the last stable offset;
     * null: the default, read_uncommitted).
     */
    public CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> read(TopicPartition tp, long offset, int count,
            long maxBytes, long timeoutMs, String isolationLevel) {
        PartitionOffsets range = offsets(tp);
        if (offset < range.beginningOffset() || offset > range.endOffset()) {
            throw new InvalidArgumentException("Offset " + offset + " of " + tp + " is outside its records ["
                + range.beginningOffset() + ", " + range.endOffset() + "]");
        }
        // Records known to be there are waited for even past a short timeout: a fetch takes a round trip.
        long waitMs = offset < range.endOffset() ? Math.max(timeoutMs, MIN_WAIT_FOR_EXISTING_MS) : timeoutMs;
        KafkaLogin login = callers.current();
        acquire();
        CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> result = new CompletableFuture<>();
        try {
            executor.execute(() -> {
                try {
                    result.complete(readWithPooledConsumer(login, isolationLevel, tp, offset, count, maxBytes, waitMs,
                        result));
                } catch (RuntimeException e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RuntimeException e) {
            permits.release();
            throw e;
        }
        return result;
    }

    /** Polls until a record arrives, the wait is over, or {@code request} is cancelled (its client went away). */
    private List<ConsumerRecord<byte[], byte[]>> readWithPooledConsumer(KafkaLogin login, String isolationLevel,
            TopicPartition tp, long offset, int count, long maxBytes, long waitMs, CompletableFuture<?> request) {
        KafkaConsumer<byte[], byte[]> consumer = borrowIdle(login, isolationLevel);
        boolean healthy = true;
        try {
            if (consumer == null) {
                consumer = consumers.groupless(login, "rest-proxy-partition-reader", "none", isolationLevel);
            }
            consumer.assign(List.of(tp));
            consumer.seek(tp, offset);
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
            List<ConsumerRecord<byte[], byte[]>> taken = new ArrayList<>();
            long bytes = 0;
            do {
                long sliceMs = Math.min(POLL_SLICE_MS, Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline
                    - System.nanoTime())));
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(sliceMs)).records(tp)) {
                    int size = (int) RecordMetrics.size(record);
                    if (taken.size() >= count || (!taken.isEmpty() && bytes + size > maxBytes)) {
                        break;
                    }
                    taken.add(record);
                    bytes += size;
                }
            } while (taken.isEmpty() && System.nanoTime() < deadline && !request.isCancelled());
            return taken;
        } catch (KafkaException e) {
            healthy = false;
            throw KafkaErrors.wrap(e);
        } finally {
            if (consumer != null) {
                if (healthy) {
                    consumer.unsubscribe();
                    returnIdle(login, isolationLevel, consumer);
                } else {
                    consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
                }
            }
            permits.release();
        }
    }

    /** The most recently returned idle consumer made for {@code login} and the isolation level, or null. */
    private KafkaConsumer<byte[], byte[]> borrowIdle(KafkaLogin login, String isolationLevel) {
        synchronized (idle) {
            for (Iterator<IdleConsumer> it = idle.descendingIterator(); it.hasNext(); ) {
                IdleConsumer candidate = it.next();
                if (candidate.login().equals(login) && java.util.Objects.equals(candidate.isolationLevel(), isolationLevel)) {
                    it.remove();
                    return candidate.consumer();
                }
            }
            return null;
        }
    }

    /** Keeps {@code consumer} for the login's next read, closing the oldest idle one past the pool size. */
    private void returnIdle(KafkaLogin login, String isolationLevel, KafkaConsumer<byte[], byte[]> consumer) {
        IdleConsumer evicted = null;
        synchronized (idle) {
            idle.addLast(new IdleConsumer(login, isolationLevel, consumer));
            if (idle.size() > poolSize) {
                evicted = idle.removeFirst();
            }
        }
        if (evicted != null) {
            evicted.consumer().close(CloseOptions.timeout(Duration.ofSeconds(5)));
        }
    }

    private void acquire() {
        try {
            if (!permits.tryAcquire(5, TimeUnit.SECONDS)) {
                throw new CapacityExceededException("All " + poolSize + " partition readers are busy "
                    + "(rest-proxy.simple-consumer-pool-size); retry later");
            }
        } catch (InterruptedException e) {
            throw KafkaErrors.wrap(e);
        }
    }

    private ListOffsetsResultInfo listOffset(TopicPartition tp, OffsetSpec spec) {
        return KafkaFutures.get(admin.listOffsets(Map.of(tp, spec)).partitionResult(tp));
    }

    @PreDestroy
    void close() {
        executor.shutdownNow();
        List<IdleConsumer> open;
        synchronized (idle) {
            open = List.copyOf(idle);
            idle.clear();
        }
        open.forEach(idleConsumer -> idleConsumer.consumer().close(CloseOptions.timeout(Duration.ofSeconds(5))));
    }
}
