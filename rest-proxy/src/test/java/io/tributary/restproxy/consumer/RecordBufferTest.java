package io.tributary.restproxy.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RecordBufferTest {

    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final RecordBuffer buffer = new RecordBuffer(timer);

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void aWaitingReadCompletesWhenARecordArrives() throws Exception {
        CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> read = buffer.read(0, 1000, 30_000);
        assertThat(read).isNotDone();

        buffer.add(records(record(P0, 0, 10)));

        assertThat(read.get(5, TimeUnit.SECONDS)).extracting(ConsumerRecord::offset).containsExactly(0L);
    }

    @Test
    void aReadWaitsForItsMinimumBytesUntilItsTimeout() throws Exception {
        CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> read = buffer.read(25, 1000, 30_000);
        buffer.add(records(record(P0, 0, 10)));
        assertThat(read).isNotDone();
        buffer.add(records(record(P0, 1, 10), record(P0, 2, 10)));
        assertThat(read.get(5, TimeUnit.SECONDS)).hasSize(3);

        buffer.add(records(record(P0, 3, 10)));
        CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> short_ = buffer.read(1000, 1000, 100);
        assertThat(short_.get(5, TimeUnit.SECONDS)).as("what there is at the timeout").hasSize(1);
        assertThat(buffer.read(0, 1000, 50).get(5, TimeUnit.SECONDS)).as("nothing at the timeout").isEmpty();
    }

    @Test
    void maxBytesLimitsAReadButNeverBelowOneRecord() throws Exception {
        buffer.add(records(record(P0, 0, 100), record(P0, 1, 100), record(P0, 2, 100)));

        assertThat(buffer.read(0, 10, 0).get()).hasSize(1);
        assertThat(buffer.read(0, 200, 0).get()).hasSize(2);
        assertThat(buffer.size()).isZero();
        assertThat(buffer.bytes()).isZero();
    }

    @Test
    void partitionsAreReadRoundRobinAndInOffsetOrderEach() throws Exception {
        buffer.add(records(record(P0, 0, 1), record(P0, 1, 1), record(P0, 2, 1), record(P1, 5, 1), record(P1, 6, 1)));

        List<String> order = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : buffer.read(0, 1000, 0).get()) {
            order.add(r.partition() + "@" + r.offset());
        }

        assertThat(order).containsExactly("0@0", "1@5", "0@1", "1@6", "0@2");
    }

    @Test
    void consumedPositionsFollowWhatReadersTookAndLeaveWithRevokedPartitions() throws Exception {
        buffer.add(records(record(P0, 0, 1), record(P0, 1, 1), record(P1, 7, 1)));
        buffer.read(0, 2, 0).get();

        assertThat(buffer.consumedPositions()).isEqualTo(Map.of(P0, 1L, P1, 8L));
        assertThat(buffer.remove(List.of(P1))).isEqualTo(Map.of(P1, 8L));
        assertThat(buffer.consumedPositions()).isEqualTo(Map.of(P0, 1L));

        buffer.add(records(record(P0, 1, 1)));
        buffer.seeked(Map.of(P0, 0L));
        assertThat(buffer.size()).as("records buffered from before the seek are dropped").isZero();
        assertThat(buffer.consumedPositions()).as("commit-all after a seek commits the new position")
            .isEqualTo(Map.of(P0, 0L));
    }

    @Test
    void aCancelledReadTakesNothing() throws Exception {
        CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> abandoned = buffer.read(0, 1000, 30_000);
        abandoned.cancel(false);

        buffer.add(records(record(P0, 0, 1)));

        assertThat(buffer.size()).as("the record waits for the next reader").isEqualTo(1);
        assertThat(buffer.consumedPositions()).isEmpty();
        assertThat(buffer.read(0, 1000, 0).get()).hasSize(1);
    }

    @Test
    void cancelledReadsCompleteEmpty() throws Exception {
        CompletableFuture<List<ConsumerRecord<byte[], byte[]>>> read = buffer.read(0, 1000, 30_000);

        buffer.cancelReads();

        assertThat(read.get(1, TimeUnit.SECONDS)).isEmpty();
    }

    private static ConsumerRecord<byte[], byte[]> record(TopicPartition tp, long offset, int valueSize) {
        return new ConsumerRecord<>(tp.topic(), tp.partition(), offset, null, new byte[valueSize]);
    }

    @SafeVarargs
    private static ConsumerRecords<byte[], byte[]> records(ConsumerRecord<byte[], byte[]>... records) {
        Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> byPartition = new java.util.LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            byPartition.computeIfAbsent(new TopicPartition(r.topic(), r.partition()), tp -> new ArrayList<>()).add(r);
        }
        return new ConsumerRecords<>(byPartition, Map.of());
    }
}
