package io.tributary.broker.share.dlq;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.Record;

/** Reads archived records back from the local log, to copy them to a dead-letter topic. May block. */
@FunctionalInterface
public interface OriginalRecords {

    /**
     * @return the records of {@code [firstOffset, lastOffset]} found, by offset; offsets missing (compacted,
     *         deleted, control records) or unreadable are absent
     */
    Map<Long, Record> read(TopicPartition tp, long firstOffset, long lastOffset);
}
