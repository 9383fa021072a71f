package io.tributary.broker.group;

import org.apache.kafka.common.Uuid;

/**
 * A topic as the group coordinator sees it for KIP-848 assignments: its id and partition count.
 *
 * @param topicId    the topic id
 * @param partitions the number of partitions
 */
public record GroupTopic(Uuid topicId, int partitions) {
}
