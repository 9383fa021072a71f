package io.tributary.broker.share.dlq;

import org.apache.kafka.common.Uuid;

/**
 * A share group's dead-letter topic, ready to be written.
 *
 * @param topic         its name
 * @param topicId       its id
 * @param numPartitions its partitions; source partition {@code p} goes to partition {@code p % numPartitions},
 *                      as in Kafka 4.4
 */
public record DeadLetterTarget(String topic, Uuid topicId, int numPartitions) {
}
