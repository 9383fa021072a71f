package io.tributary.broker.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/** Helpers to read records back in tests. */
public final class Records {

    private Records() {
    }

    /**
     * Reads {@code count} records from the given partitions from the beginning, failing when they
     * do not arrive within {@code timeout}.
     */
    public static List<ConsumerRecord<byte[], byte[]>> readFromStart(KafkaConsumer<byte[], byte[]> consumer,
                                                                     List<TopicPartition> partitions, int count,
                                                                     Duration timeout) {
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (out.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Read " + out.size() + " of " + count + " records within " + timeout);
            }
            consumer.poll(Duration.ofMillis(200)).forEach(out::add);
        }
        return out;
    }
}
