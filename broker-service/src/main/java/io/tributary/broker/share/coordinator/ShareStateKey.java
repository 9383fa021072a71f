package io.tributary.broker.share.coordinator;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.server.share.SharePartitionKey;

/**
 * A share-partition as the share coordinator keys its state (KIP-932): the group, the topic id and
 * the partition; the topic name plays no part, as in {@code __share_group_state}'s record keys.
 *
 * @param groupId   the share group
 * @param topicId   the topic's id
 * @param partition the partition index
 */
public record ShareStateKey(String groupId, Uuid topicId, int partition) {

    /** Kafka's coordinator key, {@code groupId:topicId:partition}, as FindCoordinator with key type SHARE takes it. */
    public String coordinatorKey() {
        return SharePartitionKey.asCoordinatorKey(groupId, topicId, partition);
    }

    /**
     * The {@code __share_group_state} partition holding this key's state: {@code abs(hash(coordinatorKey)) %
     * numPartitions}, as Kafka's share coordinator computes it, so every broker agrees.
     */
    public int partitionFor(int numPartitions) {
        return partitionFor(coordinatorKey(), numPartitions);
    }

    /** The {@code __share_group_state} partition of a coordinator key ({@code groupId:topicId:partition}). */
    public static int partitionFor(String coordinatorKey, int numPartitions) {
        return Utils.abs(coordinatorKey.hashCode()) % numPartitions;
    }

    /**
     * Parses a coordinator key {@code groupId:topicId:partition} (FindCoordinator key type SHARE).
     *
     * @throws IllegalArgumentException when it is not one (FindCoordinator answers INVALID_REQUEST)
     */
    public static ShareStateKey parse(String coordinatorKey) {
        SharePartitionKey key = SharePartitionKey.getInstance(coordinatorKey);
        return new ShareStateKey(key.groupId(), key.topicId(), key.partition());
    }
}
