package io.tributary.broker.replica;

import io.tributary.broker.log.LogOffsetMetadata;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * The reads of one pass over a fetch's partitions.
 *
 * @param results            per-partition results in request order
 * @param fetchOffsets       where each read started, for the delayed fetch's progress check
 * @param bytesReadable      total bytes read
 * @param answerNow          whether to answer without waiting: a partition failed or names another replica
 * @param highWatermarkMoved partitions whose high watermark a follower's fetch moved
 */
record LogReadResults(Map<TopicPartition, FetchPartitionResult> results, Map<TopicPartition, LogOffsetMetadata> fetchOffsets,
                      long bytesReadable, boolean answerNow, List<TopicPartition> highWatermarkMoved) {
}
