package io.tributary.restproxy.atomic;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link IdempotencyKeys} over Kafka's {@link MockConsumer}, with an Admin client that answers
 * {@code listOffsets} with {@link #endOffset} (read_uncommitted: the high watermark) or
 * {@link #stableOffset} (read_committed), and at each call runs {@link #onListOffsets}.
 */
final class IdempotencyKeysFixture implements AutoCloseable {

    static final String TOPIC = "_idempotency";

    final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    final AtomicLong stableOffset = new AtomicLong();
    final AtomicLong endOffset = new AtomicLong();
    volatile Runnable onListOffsets = () -> { };
    final IdempotencyKeys keys;

    IdempotencyKeysFixture(int partitions, Clock clock, Duration retention) {
        Map<TopicPartition, Long> beginning = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            beginning.put(new TopicPartition(TOPIC, p), 0L);
        }
        consumer.updateBeginningOffsets(beginning);
        Admin admin = (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[] {Admin.class},
            (proxy, method, args) -> {
                if (!method.getName().equals("listOffsets")) {
                    throw new UnsupportedOperationException(method.getName());
                }
                @SuppressWarnings("unchecked")
                Map<TopicPartition, OffsetSpec> asked = (Map<TopicPartition, OffsetSpec>) args[0];
                boolean committed = args.length > 1 && ((ListOffsetsOptions) args[1]).isolationLevel()
                    == IsolationLevel.READ_COMMITTED;
                onListOffsets.run();
                Map<TopicPartition, KafkaFuture<ListOffsetsResultInfo>> answers = new HashMap<>();
                asked.keySet().forEach(tp -> answers.put(tp, KafkaFuture.completedFuture(new ListOffsetsResultInfo(
                    committed ? stableOffset.get() : endOffset.get(), -1, Optional.empty()))));
                return new ListOffsetsResult(answers);
            });
        keys = new IdempotencyKeys(consumer, admin, TOPIC, partitions, JsonMapper.builder().build(), clock, retention);
    }

    /** Adds a committed key record at {@code offset} of {@code partition}, read at the tail's next poll. */
    void addRecord(int partition, long offset, IdempotencyKey key, StoredOutcome outcome) {
        byte[] value = JsonMapper.builder().build().writeValueAsBytes(outcome);
        consumer.schedulePollTask(() -> consumer.addRecord(new org.apache.kafka.clients.consumer.ConsumerRecord<>(
            TOPIC, partition, offset, key.encode(), value)));
    }

    @Override
    public void close() {
        keys.close();
    }
}
