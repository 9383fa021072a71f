package io.tributary.restproxy.consumer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/**
 * Records a consumer instance has fetched ahead of its HTTP reader, per partition in offset order,
 * and the reads waiting for them (long polls).
 *
 * <p>A read completes as soon as the buffer holds at least one record and at least its minimum
 * bytes, or when its timeout passes (then with whatever is there, possibly nothing). It takes
 * records up to its maximum bytes, at least one, visiting partitions round-robin so one busy
 * partition does not starve the others. Sizes are key plus value bytes, as Confluent's
 * {@code max_bytes} counts them.
 *
 * <p>The buffer also tracks the consumed position of each partition: the offset after the last
 * record handed to a reader. That, not the Kafka consumer's fetch position (which runs ahead by
 * what is buffered), is what "commit all consumed" and auto-commit commit.
 *
 * <p>Thread-safe: the instance's poll thread adds and removes, HTTP threads read; every method
 * holds the buffer's monitor, and waiting reads are completed outside it.
 */
final class RecordBuffer {

    /** A read waiting for records. */
    private final class PendingRead {
        final long minBytes;
        final long maxBytes;
        final CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> result = new CompletableFuture<>();
        ScheduledFuture<?> timeout;

        PendingRead(long minBytes, long maxBytes) {
            this.minBytes = minBytes;
            this.maxBytes = maxBytes;
        }
    }

    private final ScheduledExecutorService timer;
    private final LinkedHashMap<TopicPartition, ArrayDeque<ConsumerRecord<byte[], byte[]>>> records =
        new LinkedHashMap<>();
    private final Map<TopicPartition, Long> consumed = new HashMap<>();
    private final ArrayDeque<PendingRead> pending = new ArrayDeque<>();
    private long bytes;
    private int count;

    RecordBuffer(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** Reads waiting for records. */
    synchronized int waitingReads() {
        return pending.size();
    }

    /** Appends what a poll returned and completes the reads it satisfies. */
    void add(ConsumerRecords<byte[], byte[]> polled) {
        synchronized (this) {
            for (ConsumerRecord<byte[], byte[]> record : polled) {
                records.computeIfAbsent(new TopicPartition(record.topic(), record.partition()),
                    tp -> new ArrayDeque<>()).add(record);
                bytes += size(record);
                count++;
            }
        }
        serveReady();
    }

    /**
     * A read of up to {@code maxBytes} that completes once {@code minBytes} are buffered (any
     * record when {@code minBytes <= 0}) or after {@code timeoutMs} with what there is.
     */
    CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> read(long minBytes, long maxBytes, long timeoutMs) {
        PendingRead read = new PendingRead(minBytes, maxBytes);
        synchronized (this) {
            if (ready(read) || timeoutMs <= 0) {
                read.result.complete(take(maxBytes));
                return read.result;
            }
            pending.add(read);
            read.timeout = timer.schedule(() -> expire(read), timeoutMs, TimeUnit.MILLISECONDS);
        }
        // A read its requester gave up on (cancelled) leaves the queue and takes nothing.
        read.result.whenComplete((records, error) -> {
            if (read.result.isCancelled()) {
                synchronized (this) {
                    pending.remove(read);
                }
                read.timeout.cancel(false);
            }
        });
        return read.result;
    }

    /** Bytes buffered. */
    synchronized long bytes() {
        return bytes;
    }

    /** Records buffered. */
    synchronized int size() {
        return count;
    }

    /**
     * Records a seek: the buffered records of the partitions are dropped and their consumed
     * positions become the offsets sought, so "commit what was consumed" commits the new position,
     * as Kafka's {@code commitSync()} after a {@code seek} would.
     */
    synchronized void seeked(Map<TopicPartition, Long> positions) {
        positions.forEach((tp, offset) -> {
            drop(tp);
            consumed.put(tp, offset);
        });
    }

    /**
     * Forgets {@code partitions} entirely (revoked or lost in a rebalance, unassigned): their
     * records are dropped and their consumed positions returned and removed.
     */
    synchronized Map<TopicPartition, Long> remove(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        for (TopicPartition tp : partitions) {
            drop(tp);
            Long position = consumed.remove(tp);
            if (position != null) {
                positions.put(tp, position);
            }
        }
        return positions;
    }

    /** Keeps only {@code partitions}. */
    synchronized void retain(Collection<TopicPartition> partitions) {
        List<TopicPartition> gone = new ArrayList<>();
        for (TopicPartition tp : records.keySet()) {
            if (!partitions.contains(tp)) {
                gone.add(tp);
            }
        }
        for (TopicPartition tp : consumed.keySet()) {
            if (!partitions.contains(tp)) {
                gone.add(tp);
            }
        }
        remove(gone);
    }

    /** The consumed position (offset after the last record read) of every partition read from. */
    synchronized Map<TopicPartition, Long> consumedPositions() {
        return new HashMap<>(consumed);
    }

    /** Completes every waiting read with nothing, e.g. when the instance closes. */
    void cancelReads() {
        List<PendingRead> reads;
        synchronized (this) {
            reads = new ArrayList<>(pending);
            pending.clear();
        }
        for (PendingRead read : reads) {
            if (read.timeout != null) {
                read.timeout.cancel(false);
            }
            read.result.complete(List.of());
        }
    }

    private void serveReady() {
        List<Map.Entry<PendingRead, List<ConsumerRecord<byte[], byte[]>>>> done = new ArrayList<>();
        synchronized (this) {
            while (!pending.isEmpty() && ready(pending.peek())) {
                PendingRead read = pending.poll();
                if (!read.result.isDone()) {
                    done.add(Map.entry(read, take(read.maxBytes)));
                }
            }
        }
        for (Map.Entry<PendingRead, List<ConsumerRecord<byte[], byte[]>>> entry : done) {
            entry.getKey().timeout.cancel(false);
            entry.getKey().result.complete(entry.getValue());
        }
    }

    private void expire(PendingRead read) {
        List<ConsumerRecord<byte[], byte[]>> taken;
        synchronized (this) {
            if (!pending.remove(read)) {
                return;
            }
            taken = take(read.maxBytes);
        }
        read.result.complete(taken);
    }

    private boolean ready(PendingRead read) {
        return count > 0 && bytes >= read.minBytes;
    }

    /**
     * Takes records up to {@code maxBytes} (at least one), one partition's head at a time in
     * round-robin order, so per-partition order holds and no partition starves.
     */
    private List<ConsumerRecord<byte[], byte[]>> take(long maxBytes) {
        List<ConsumerRecord<byte[], byte[]>> taken = new ArrayList<>();
        long takenBytes = 0;
        while (count > 0) {
            Map.Entry<TopicPartition, ArrayDeque<ConsumerRecord<byte[], byte[]>>> first =
                records.entrySet().iterator().next();
            ArrayDeque<ConsumerRecord<byte[], byte[]>> queue = first.getValue();
            ConsumerRecord<byte[], byte[]> head = queue.peek();
            int size = size(head);
            if (!taken.isEmpty() && takenBytes + size > maxBytes) {
                break;
            }
            queue.poll();
            taken.add(head);
            takenBytes += size;
            bytes -= size;
            count--;
            TopicPartition tp = first.getKey();
            consumed.put(tp, head.offset() + 1);
            records.remove(tp);
            if (!queue.isEmpty()) {
                records.put(tp, queue);
            }
        }
        return taken;
    }

    private void drop(TopicPartition tp) {
        ArrayDeque<ConsumerRecord<byte[], byte[]>> queue = records.remove(tp);
        if (queue != null) {
            for (ConsumerRecord<byte[], byte[]> record : queue) {
                bytes -= size(record);
            }
            count -= queue.size();
        }
    }

    private static int size(ConsumerRecord<byte[], byte[]> record) {
        return (record.key() == null ? 0 : record.key().length) + (record.value() == null ? 0 : record.value().length);
    }
}
