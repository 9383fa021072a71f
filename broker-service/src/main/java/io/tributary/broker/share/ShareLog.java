package io.tributary.broker.share;

import io.tributary.broker.replica.FetchParams;
import io.tributary.broker.replica.FetchPartition;
import io.tributary.broker.replica.FetchPartitionResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * The local log as share-partitions read it: {@link ReplicaShareLog} over the
 * {@link io.tributary.broker.replica.ReplicaManager}, a fake in tests.
 */
public interface ShareLog {

    /**
     * Reads as a consumer's Fetch does (up to the high watermark, or the last stable offset for
     * read_committed), waiting up to {@code params.maxWaitMs()} for {@code params.minBytes()}.
     */
    CompletableFuture<Map<TopicPartition, FetchPartitionResult>> fetch(FetchParams params,
                                                                      LinkedHashMap<TopicPartition, FetchPartition> partitions);

    /** This broker's leader epoch of {@code tp}, or -1 when it does not lead it. */
    int leaderEpoch(TopicPartition tp);

    /**
     * ListOffsets for {@code tp}: {@code -2} the log start offset, {@code -1} the high watermark (last
     * stable offset for read_committed), else the first offset with a timestamp at or after it.
     *
     * @return empty when nothing is found or the partition is not led here
     */
    OptionalLong offsetForTimestamp(TopicPartition tp, long timestamp, IsolationLevel isolationLevel);
}
