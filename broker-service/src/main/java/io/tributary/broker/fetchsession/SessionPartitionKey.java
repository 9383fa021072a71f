package io.tributary.broker.fetchsession;

import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;

/**
 * How a session names a partition: by topic id and partition when the session uses topic ids
 * (Fetch v13+, KIP-516), where a partition whose name is not yet known is the same partition once
 * it is; by topic name and partition otherwise, where every id is zero.
 */
record SessionPartitionKey(Uuid topicId, String topic, int partition) {

    static SessionPartitionKey of(boolean usesTopicIds, TopicIdPartition tp) {
        return usesTopicIds
            ? new SessionPartitionKey(tp.topicId(), null, tp.partition())
            : new SessionPartitionKey(Uuid.ZERO_UUID, tp.topic(), tp.partition());
    }
}
