package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Hand-built histories for tests: each operation is invoked at the builder's clock and completes 1 ns later (or
 * after {@link #sleep(long)}), and the final reads' end offsets are one past the highest offset read there.
 */
final class HistoryBuilder {

    static final TopicPartition P0 = new TopicPartition("t", 0);
    static final TopicPartition P1 = new TopicPartition("t", 1);

    private final List<Operation> operations = new ArrayList<>();
    private final List<ConsumedRecord> finalReads = new ArrayList<>();
    private final Map<TopicPartition, Long> endOffsets = new HashMap<>();
    private long nowNanos;

    static ConsumedRecord read(TopicPartition partition, long offset, String value) {
        return new ConsumedRecord(partition, offset, value);
    }

    HistoryBuilder sleep(long nanos) {
        nowNanos += nanos;
        return this;
    }

    HistoryBuilder ok(TopicPartition partition, String value, long offset) {
        operations.add(Send.ok("producer", partition, value, offset, nowNanos, ++nowNanos));
        return this;
    }

    HistoryBuilder send(TopicPartition partition, String value, Outcome outcome) {
        operations.add(Send.unacknowledged("producer", partition, value, outcome, nowNanos, ++nowNanos));
        return this;
    }

    HistoryBuilder poll(String consumer, long epoch, ConsumedRecord... records) {
        operations.add(Poll.ok(consumer, "g", epoch, nowNanos, ++nowNanos, Arrays.asList(records)));
        return this;
    }

    HistoryBuilder commit(TopicPartition partition, long offset, Outcome outcome) {
        operations.add(new Commit("consumer", "g", partition, offset, nowNanos, ++nowNanos, outcome));
        return this;
    }

    /** Adds to the final reads, which read {@code partition} up to at least {@code offset}. */
    HistoryBuilder finalRead(TopicPartition partition, long offset, String value) {
        finalReads.add(read(partition, offset, value));
        endOffsets.merge(partition, offset + 1, Math::max);
        return this;
    }

    History build() {
        return new History(operations, new FinalReads(endOffsets, finalReads));
    }
}
