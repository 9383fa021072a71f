package io.tributary.broker.share;

import org.apache.kafka.common.TopicIdPartition;

/**
 * A share-partition: one topic partition as consumed by one share group (KIP-932).
 *
 * @param groupId   the share group
 * @param partition the topic partition, with its topic id
 */
public record SharePartitionKey(String groupId, TopicIdPartition partition) {
}
