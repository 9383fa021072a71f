package io.tributary.broker.replica;

import io.tributary.broker.metrics.BrokerTopicStats;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;

/**
 * What the replica fetchers need of the broker, and no more: the partitions they copy into, where
 * a storage error goes, who to tell of an append, and the replication bytes counter.
 *
 * <p>Thread-safe; called from the fetcher threads, outside their partition lock for the callbacks.
 */
interface FollowerPartitions {

    /** The online partition a fetcher appends to. */
    Optional<Partition> partition(TopicPartition tp);

    /** An I/O error in {@code tp}'s log: its log directory goes offline (KIP-112). */
    void storageError(TopicPartition tp, KafkaStorageException e);

    /** Records were appended to {@code tp} (consumers of this follower may wait for them, KIP-392). */
    void appended(TopicPartition tp);

    /** Bytes copied from leaders ({@code ReplicationBytesInPerSec}). */
    void replicationBytesIn(long bytes);

    /** The fetchers' view of the broker's partitions. */
    static FollowerPartitions of(HostedPartitions partitions, StorageErrors storageErrors, DelayedRequests delayed,
                                 BrokerTopicStats topicStats) {
        return new FollowerPartitions() {
            @Override
            public Optional<Partition> partition(TopicPartition tp) {
                return partitions.get(tp);
            }

            @Override
            public void storageError(TopicPartition tp, KafkaStorageException e) {
                storageErrors.handle(tp, e);
            }

            @Override
            public void appended(TopicPartition tp) {
                delayed.checkAndComplete(tp);
            }

            @Override
            public void replicationBytesIn(long bytes) {
                topicStats.recordReplicationBytesIn(bytes);
            }
        };
    }
}
