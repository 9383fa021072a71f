package io.tributary.broker.share.dlq;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.MemoryRecords;

/** Appends dead-letter records to a partition's leader with acks=all. Blocks: call off the event loops. */
@FunctionalInterface
public interface DeadLetterSink {

    /**
     * @return NONE once every in-sync replica has the records, else the partition's error
     * @throws RuntimeException when the leader could not be reached (retriable)
     */
    Errors append(TopicPartition tp, Uuid topicId, MemoryRecords records);
}
