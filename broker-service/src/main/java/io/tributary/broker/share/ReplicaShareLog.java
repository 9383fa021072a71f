package io.tributary.broker.share;

import io.tributary.broker.replica.FetchParams;
import io.tributary.broker.replica.FetchPartition;
import io.tributary.broker.replica.FetchPartitionResult;
import io.tributary.broker.replica.ListOffsetResult;
import io.tributary.broker.replica.Partition;
import io.tributary.broker.replica.ReplicaManager;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;

/**
 * {@link ShareLog} over the broker's {@link ReplicaManager}: reads go through the consumer fetch
 * path (file slices, long polls in the fetch purgatory woken by appends). Thread-safe.
 */
public final class ReplicaShareLog implements ShareLog {

    private final ReplicaManager replicaManager;

    public ReplicaShareLog(ReplicaManager replicaManager) {
        this.replicaManager = replicaManager;
    }

    @Override
    public CompletableFuture<Map<TopicPartition, FetchPartitionResult>> fetch(
            FetchParams params, LinkedHashMap<TopicPartition, FetchPartition> partitions) {
        return replicaManager.fetchMessages(params, partitions);
    }

    @Override
    public int leaderEpoch(TopicPartition tp) {
        return replicaManager.getPartition(tp).filter(Partition::isLeader).map(Partition::leaderEpoch).orElse(-1);
    }

    @Override
    public OptionalLong offsetForTimestamp(TopicPartition tp, long timestamp, IsolationLevel isolationLevel) {
        ListOffsetResult result = replicaManager.listOffset(tp, timestamp, isolationLevel, -1);
        return result.error() == Errors.NONE && result.offset() >= 0 ? OptionalLong.of(result.offset()) : OptionalLong.empty();
    }
}
