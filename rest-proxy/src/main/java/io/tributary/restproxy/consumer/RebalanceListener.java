package io.tributary.restproxy.consumer;

import io.tributary.restproxy.error.KafkaErrors;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a consumer instance does when partitions leave it: commits their consumed positions (with
 * auto-commit) and drops their buffered records. Kafka's consumer calls it on a rebalance; the
 * instance's {@link ConsumerOperations} also run {@link #commitOnRevoke} when it unsubscribes and
 * when it closes. Partitions lost (taken from the member without a revoke) are only dropped: the
 * group may already have given them to another member.
 *
 * <p>Thread-safety: confined to the instance's poll thread, the only thread that uses the Kafka
 * consumer (Kafka calls rebalance listeners from inside the consumer's own calls, such as
 * {@code poll}). The {@link RecordBuffer} it drops records from is thread-safe.
 *
 * <p>Errors: a failed commit on revoke is logged, not thrown, so the partitions still leave the
 * instance; a reader may then see their records again from another member.
 */
final class RebalanceListener implements ConsumerRebalanceListener {

    /** The instance's logger: its log lines keep the name they had when this was part of {@link ConsumerInstance}. */
    private static final Logger log = LoggerFactory.getLogger(ConsumerInstance.class);

    private final String group;
    private final String id;
    private final ConsumerInstanceConfig config;
    private final Consumer<byte[], byte[]> consumer;
    private final RecordBuffer buffer;

    /**
     * @param group    the instance's group, for log lines
     * @param id       the instance's id, for log lines
     * @param consumer the instance's Kafka consumer, committed with on the poll thread
     * @param buffer   the instance's buffer of fetched records
     */
    RebalanceListener(String group, String id, ConsumerInstanceConfig config, Consumer<byte[], byte[]> consumer,
            RecordBuffer buffer) {
        this.group = group;
        this.id = id;
        this.config = config;
        this.consumer = consumer;
        this.buffer = buffer;
    }

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

    /**
     * Drops the buffered records of {@code partitions} and, with auto-commit, commits what readers
     * consumed of them (the offset after the last record read). A failed commit is logged.
     */
    void commitOnRevoke(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> positions = buffer.remove(partitions);
        if (config.autoCommitEnable() && !positions.isEmpty()) {
            try {
                consumer.commitSync(ConsumerOperations.toCommit(positions), ConsumerOperations.OPERATION_TIMEOUT);
            } catch (KafkaException e) {
                log.warn("Consumer instance {} of group {}: commit on revoke failed: {}", id, group,
                    KafkaErrors.describe(e));
            }
        }
    }
}
