package io.tributary.broker.share.dlq;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.broker.share.ArchivedRange;
import io.tributary.broker.share.ShareArchiveListener;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The share groups' dead-letter queues on this broker (KIP-1191): when a share-partition led here
 * archives delivered records (REJECT, or released at {@code share.delivery.count.limit}) and its group
 * has an {@code errors.deadletterqueue.topic.name}, a dead-letter record per archived offset
 * ({@link DeadLetterRecords}) is appended to that topic, partition {@code sourcePartition % partitions},
 * with acks=all, through the broker's own produce path ({@link DeadLetterSink}).
 *
 * <p>Asynchronous: {@link #onArchived} only queues (never blocks, never fails the acknowledgement);
 * one thread of its own resolves the topic ({@link DeadLetterTopics}: checks, auto-creation), reads the
 * originals from the local log when the group copies records, and appends, retrying what is retriable up
 * to {@code maxAttempts} times with exponential backoff (as Kafka: 5 attempts from 1 s to 30 s). The
 * queue holds at most {@code queueCapacity} archived ranges; beyond that, and after the last attempt,
 * the records are dropped, logged and counted ({@code kafka.server.share.dlq.records}, tag {@code result}:
 * written, failed, dropped; counts are of records).
 *
 * <p>Guarantee: best effort, at most the failures counted. The records are archived in the share-partition
 * (and its state written) before they are queued here, so a leader that stops or fails before the append
 * loses them from the dead-letter topic (Kafka 4.4 persists an ARCHIVING state that the next leader
 * resumes; this broker does not yet). A retried append whose first try did land but was not answered
 * writes them twice. Thread-safe.
 */
public final class ShareGroupDeadLetterQueue implements ShareArchiveListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ShareGroupDeadLetterQueue.class);

    /**
     * @param queueCapacity most archived ranges waiting to be written
     * @param maxAttempts   tries of one write (at least 1)
     * @param backoffMs     wait before the second try, ms; doubled for each later one
     * @param backoffMaxMs  longest wait between tries, ms
     * @param maxBatchBytes most bytes of one appended batch
     */
    public record Settings(int queueCapacity, int maxAttempts, long backoffMs, long backoffMaxMs, int maxBatchBytes) {

        /** Kafka 4.4's retries (5 attempts, 1 s doubling to 30 s), 1 MiB batches, 10000 ranges queued. */
        public static Settings defaults() {
            return new Settings(10_000, 5, 1_000, 30_000, 1_048_576);
        }
    }

    private final Settings settings;
    private final Function<String, Optional<GroupDeadLetterConfig>> groupConfigs;
    private final DeadLetterTopics topics;
    private final OriginalRecords originals;
    private final DeadLetterSink sink;
    private final Time time;
    private final Counter written;
    private final Counter failed;
    private final Counter dropped;
    private final ConcurrentLinkedQueue<ArchivedRange> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final Semaphore available = new Semaphore(0);
    private final Thread thread;
    private volatile boolean running = true;

    public ShareGroupDeadLetterQueue(Settings settings, Function<String, Optional<GroupDeadLetterConfig>> groupConfigs,
                                     DeadLetterTopics topics, OriginalRecords originals, DeadLetterSink sink,
                                     MeterRegistry registry, Time time, String threadName) {
        if (settings.maxAttempts() < 1 || settings.queueCapacity() < 1) {
            throw new IllegalArgumentException("Dead-letter queue capacity and attempts must be positive: " + settings);
        }
        this.settings = settings;
        this.groupConfigs = groupConfigs;
        this.topics = topics;
        this.originals = originals;
        this.sink = sink;
        this.time = time;
        this.written = counter(registry, "written");
        this.failed = counter(registry, "failed");
        this.dropped = counter(registry, "dropped");
        this.thread = new Thread(this::run, threadName);
        this.thread.setDaemon(true);
    }

    private static Counter counter(MeterRegistry registry, String result) {
        return Counter.builder("kafka.server.share.dlq.records").tag("result", result)
            .description("Share-group records archived and, by result, written to their group's dead-letter topic")
            .register(registry);
    }

    /** Starts the writing thread. */
    public void start() {
        thread.start();
    }

    /** Queues the range when its group has a dead-letter topic; never blocks. */
    @Override
    public void onArchived(ArchivedRange range) {
        if (!running || groupConfigs.apply(range.key().groupId()).isEmpty()) {
            return;
        }
        if (queued.incrementAndGet() > settings.queueCapacity()) {
            queued.decrementAndGet();
            dropped.increment(count(range));
            log.warn("Dead-letter queue full ({} ranges): records {} dropped", settings.queueCapacity(), range);
            return;
        }
        queue.add(range);
        available.release();
    }

    /** Archived ranges waiting to be written (for tests and metrics). */
    public int queued() {
        return queued.get();
    }

    private void run() {
        while (running) {
            try {
                available.acquire();
            } catch (InterruptedException e) {
                return;
            }
            ArchivedRange range = queue.poll();
            if (range == null) {
                continue;
            }
            try {
                write(range);
            } catch (RuntimeException e) {
                failed.increment(count(range));
                log.warn("Could not write archived records {} to their dead-letter topic: {}", range, e.toString());
            } finally {
                queued.decrementAndGet();
            }
        }
    }

    private void write(ArchivedRange range) {
        String groupId = range.key().groupId();
        Optional<GroupDeadLetterConfig> config = groupConfigs.apply(groupId);
        if (config.isEmpty()) {
            return; // the group's dead-letter topic was removed meanwhile
        }
        DeadLetterTarget target = withRetries(range, count(range), () -> topics.resolve(groupId, config.get().topic()));
        if (target == null) {
            return;
        }
        TopicPartition source = range.key().partition().topicPartition();
        Map<Long, Record> records = Map.of();
        if (config.get().copyRecord()) {
            try {
                records = originals.read(source, range.firstOffset(), range.lastOffset());
            } catch (RuntimeException e) {
                log.warn("Could not read archived records {} back: dead-letter records carry headers only: {}", range,
                    e.toString());
            }
        }
        List<MemoryRecords> batches = DeadLetterRecords.build(range, source.topic(), records, time.milliseconds(),
            settings.maxBatchBytes());
        TopicPartition destination = new TopicPartition(target.topic(), source.partition() % target.numPartitions());
        for (MemoryRecords batch : batches) {
            Boolean done = withRetries(range, countOf(batch), () -> {
                Errors error = sink.append(destination, target.topicId(), batch);
                if (error != Errors.NONE) {
                    throw new DeadLetterException("Append to " + destination + " failed: " + error,
                        error.exception() instanceof org.apache.kafka.common.errors.RetriableException);
                }
                return Boolean.TRUE;
            });
            if (done == null) {
                return;
            }
            written.increment(countOf(batch));
        }
    }

    /**
     * Runs {@code attempt} until it succeeds or fails for good; null when it gave up ({@code records}
     * counted as failed, logged).
     */
    private <T> T withRetries(ArchivedRange range, long records, java.util.function.Supplier<T> attempt) {
        long backoffMs = settings.backoffMs();
        for (int i = 1; ; i++) {
            RuntimeException error;
            boolean retriable;
            try {
                return attempt.get();
            } catch (DeadLetterException e) {
                error = e;
                retriable = e.retriable();
            } catch (RuntimeException e) {
                error = e;
                retriable = true;
            }
            if (!retriable || i >= settings.maxAttempts() || !running) {
                failed.increment(records);
                log.warn("Dead-letter records of {} dropped after {} attempt(s): {}", range, i, error.getMessage());
                return null;
            }
            log.debug("Dead-letter write of {} failed (attempt {}), retrying in {} ms: {}", range, i, backoffMs,
                error.getMessage());
            time.sleep(backoffMs);
            backoffMs = Math.min(backoffMs * 2, settings.backoffMaxMs());
        }
    }

    private static long count(ArchivedRange range) {
        return range.lastOffset() - range.firstOffset() + 1;
    }

    private static long countOf(MemoryRecords batch) {
        long n = 0;
        for (var b : batch.batches()) {
            n += b.lastOffset() - b.baseOffset() + 1;
        }
        return n;
    }

    /** Stops the thread; ranges still queued are not written. */
    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
