package io.tributary.broker.share.dlq;

import static io.tributary.broker.share.dlq.DeadLetterRecordsTest.headers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.share.ArchiveReason;
import io.tributary.broker.share.ArchivedRange;
import io.tributary.broker.share.SharePartitionKey;
import io.tributary.broker.testing.MockTime;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ShareGroupDeadLetterQueueTest {

    private static final Uuid DLQ_ID = Uuid.randomUuid();
    private static final SharePartitionKey KEY = new SharePartitionKey("g", new TopicIdPartition(Uuid.randomUuid(), 5, "orders"));

    /** A sink that keeps what it is given and answers from a script (NONE once the script is used up). */
    private static final class FakeSink implements DeadLetterSink {
        final List<TopicPartition> partitions = new CopyOnWriteArrayList<>();
        final List<Record> records = new CopyOnWriteArrayList<>();
        final List<Errors> script = new CopyOnWriteArrayList<>();
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public Errors append(TopicPartition tp, Uuid topicId, MemoryRecords batch) {
            calls.incrementAndGet();
            Errors answer = script.isEmpty() ? Errors.NONE : script.remove(0);
            if (answer == Errors.NONE) {
                partitions.add(tp);
                batch.records().forEach(records::add);
            }
            return answer;
        }
    }

    private final MockTime time = new MockTime();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final FakeSink sink = new FakeSink();
    private ShareGroupDeadLetterQueue queue;

    private ShareGroupDeadLetterQueue start(Optional<GroupDeadLetterConfig> config, DeadLetterTopics topics,
                                           OriginalRecords originals, DeadLetterSink sink, int capacity) {
        queue = new ShareGroupDeadLetterQueue(new ShareGroupDeadLetterQueue.Settings(capacity, 3, 10, 40, 1 << 20),
            group -> config, topics, originals, sink, registry, time, "test-dlq");
        queue.start();
        return queue;
    }

    private ShareGroupDeadLetterQueue start(Optional<GroupDeadLetterConfig> config) {
        return start(config, (g, t) -> new DeadLetterTarget(t, DLQ_ID, 2), (tp, f, l) -> Map.of(), sink, 100);
    }

    private double count(String result) {
        return registry.get("kafka.server.share.dlq.records").tag("result", result).counter().count();
    }

    @AfterEach
    void stop() {
        if (queue != null) {
            queue.close();
        }
    }

    @Test
    void archivedRecordsAreWrittenWithHeadersToTheSourcePartitionModuloTheTopicsPartitions() {
        start(Optional.of(new GroupDeadLetterConfig("dlq.orders", false)));

        queue.onArchived(new ArchivedRange(KEY, 10, 11, 2, ArchiveReason.REJECTED));

        await().atMost(Duration.ofSeconds(10)).until(() -> sink.records.size() == 2);
        assertThat(sink.partitions).containsOnly(new TopicPartition("dlq.orders", 1));
        assertThat(headers(sink.records.get(1))).containsEntry("__dlq.errors.offset", "11")
            .containsEntry("__dlq.errors.delivery.count", "2").containsEntry("__dlq.errors.group", "g");
        assertThat(sink.records.get(0).hasValue()).isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> count("written") == 2.0);
    }

    @Test
    void copyReadsTheOriginalsBack() {
        MemoryRecords log = MemoryRecords.withRecords(10L, Compression.NONE, new SimpleRecord(1L, "k".getBytes(), "v".getBytes()));
        start(Optional.of(new GroupDeadLetterConfig("dlq.orders", true)), (g, t) -> new DeadLetterTarget(t, DLQ_ID, 1),
            (tp, first, last) -> {
                assertThat(tp).isEqualTo(new TopicPartition("orders", 5));
                Map<Long, Record> found = new java.util.HashMap<>();
                log.records().forEach(r -> found.put(r.offset(), r));
                return found;
            }, sink, 100);

        queue.onArchived(new ArchivedRange(KEY, 10, 10, 1, ArchiveReason.REJECTED));

        await().atMost(Duration.ofSeconds(10)).until(() -> sink.records.size() == 1);
        assertThat(StandardCharsets.UTF_8.decode(sink.records.get(0).value()).toString()).isEqualTo("v");
    }

    @Test
    void aGroupWithoutDeadLetterTopicWritesNothing() {
        start(Optional.empty());

        queue.onArchived(new ArchivedRange(KEY, 0, 0, 1, ArchiveReason.REJECTED));

        assertThat(queue.queued()).isZero();
        assertThat(sink.calls).hasValue(0);
    }

    @Test
    void retriableFailuresAreRetriedWithBackoff() {
        sink.script.addAll(List.of(Errors.NOT_LEADER_OR_FOLLOWER, Errors.REQUEST_TIMED_OUT));
        long before = time.milliseconds();
        start(Optional.of(new GroupDeadLetterConfig("dlq.orders", false)));

        queue.onArchived(new ArchivedRange(KEY, 0, 0, 1, ArchiveReason.REJECTED));

        await().atMost(Duration.ofSeconds(10)).until(() -> sink.records.size() == 1);
        assertThat(sink.calls).hasValue(3);
        assertThat(time.milliseconds() - before).as("backoff 10 ms, then 20 ms").isEqualTo(30);
        assertThat(count("failed")).isZero();
    }

    @Test
    void aWriteFailingEveryAttemptIsCountedAsFailedAndTheNextOneStillGoes() {
        sink.script.addAll(List.of(Errors.NOT_LEADER_OR_FOLLOWER, Errors.NOT_LEADER_OR_FOLLOWER,
            Errors.NOT_LEADER_OR_FOLLOWER));
        start(Optional.of(new GroupDeadLetterConfig("dlq.orders", false)));

        queue.onArchived(new ArchivedRange(KEY, 0, 1, 1, ArchiveReason.REJECTED));
        queue.onArchived(new ArchivedRange(KEY, 2, 2, 1, ArchiveReason.REJECTED));

        await().atMost(Duration.ofSeconds(10)).until(() -> count("failed") == 2.0 && count("written") == 1.0);
        assertThat(sink.calls).hasValue(4);
        assertThat(headers(sink.records.get(0))).containsEntry("__dlq.errors.offset", "2");
    }

    @Test
    void aNonRetriableErrorIsNotRetried() {
        sink.script.add(Errors.RECORD_LIST_TOO_LARGE);
        start(Optional.of(new GroupDeadLetterConfig("dlq.orders", false)));

        queue.onArchived(new ArchivedRange(KEY, 0, 0, 1, ArchiveReason.REJECTED));

        await().atMost(Duration.ofSeconds(10)).until(() -> count("failed") == 1.0);
        assertThat(sink.calls).hasValue(1);
    }

    @Test
    void aRefusedTopicIsNotRetriedAndNothingIsAppended() {
        AtomicInteger resolves = new AtomicInteger();
        start(Optional.of(new GroupDeadLetterConfig("orders-dlq", false)), (g, t) -> {
            resolves.incrementAndGet();
            throw new DeadLetterException(DeadLetterTopicRules.refusal(g, t, "dlq.", true, true, false).orElseThrow(), false);
        }, (tp, f, l) -> Map.of(), sink, 100);

        queue.onArchived(new ArchivedRange(KEY, 0, 0, 1, ArchiveReason.REJECTED));

        await().atMost(Duration.ofSeconds(10)).until(() -> count("failed") == 1.0);
        assertThat(resolves).hasValue(1);
        assertThat(sink.calls).hasValue(0);
    }

    @Test
    void theQueueIsBoundedAndDropsWhatDoesNotFit() throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        DeadLetterSink blocking = (tp, id, batch) -> {
            entered.countDown();
            try {
                proceed.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return sink.append(tp, id, batch);
        };
        start(Optional.of(new GroupDeadLetterConfig("dlq.orders", false)), (g, t) -> new DeadLetterTarget(t, DLQ_ID, 1),
            (tp, f, l) -> Map.of(), blocking, 1);

        queue.onArchived(new ArchivedRange(KEY, 0, 0, 1, ArchiveReason.REJECTED));
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue(); // the writer holds the first
        queue.onArchived(new ArchivedRange(KEY, 1, 1, 1, ArchiveReason.REJECTED)); // still counted as queued: full
        queue.onArchived(new ArchivedRange(KEY, 2, 3, 1, ArchiveReason.REJECTED));

        assertThat(count("dropped")).isEqualTo(3.0);
        proceed.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.records.size() == 1);
        assertThat(queue.queued()).isZero();
    }
}
