package io.tributary.broker.replica;

import io.tributary.broker.log.LogOffsetMetadata;
import io.tributary.broker.log.PartitionLog;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * A fetch waiting until {@code fetch.min.bytes} are readable on its partitions or
 * {@code fetch.max.wait.ms} passes; then it reads again and answers. It completes early when a
 * partition changes leader or its log shrinks (the client must learn of it).
 */
final class DelayedFetch extends DelayedOperation {

    private final FetchParams params;
    private final LinkedHashMap<TopicPartition, FetchPartition> fetchInfos;
    private final Map<TopicPartition, LogOffsetMetadata> fetchOffsets;
    private final DelayedRequests delayed;
    private final Function<TopicPartition, Optional<Partition>> partitions;
    private final LogReader reader;
    private final Consumer<Map<TopicPartition, FetchPartitionResult>> callback;

    /** Reads a fetch's partitions once more, when it completes. */
    @FunctionalInterface
    interface LogReader {
        LogReadResults read(FetchParams params, LinkedHashMap<TopicPartition, FetchPartition> fetchInfos);
    }

    /** Whether the replication throttle holds a follower's partition back now (its bytes do not count). */
    interface ThrottleHold {
        boolean held(FetchParams params, TopicPartition tp, Partition partition, PartitionLog log);
    }

    /**
     * @param fetchOffsets where the first read of each partition started
     * @param partitions   the online partitions
     * @param reader       the read that answers, once complete
     * @param delayed      completes what the answering read unblocks (a follower's fetch moving the high watermark)
     */
    private final ThrottleHold throttleHold;

    DelayedFetch(FetchParams params, LinkedHashMap<TopicPartition, FetchPartition> fetchInfos,
                 Map<TopicPartition, LogOffsetMetadata> fetchOffsets, Function<TopicPartition, Optional<Partition>> partitions,
                 LogReader reader, ThrottleHold throttleHold, DelayedRequests delayed,
                 Consumer<Map<TopicPartition, FetchPartitionResult>> callback) {
        super(params.maxWaitMs());
        this.throttleHold = throttleHold;
        this.params = params;
        this.fetchInfos = fetchInfos;
        this.fetchOffsets = fetchOffsets;
        this.partitions = partitions;
        this.reader = reader;
        this.delayed = delayed;
        this.callback = callback;
    }

    @Override
    protected boolean tryComplete() {
        long accumulatedBytes = 0;
        for (Map.Entry<TopicPartition, LogOffsetMetadata> e : fetchOffsets.entrySet()) {
            Optional<Partition> partition = partitions.apply(e.getKey());
            if (partition.isEmpty() || !partition.get().isLeader() && !params.mayReadFromFollower()
                    || partition.get().log().isEmpty()) {
                return forceComplete();
            }
            PartitionLog log = partition.get().log().get();
            if (throttleHold.held(params, e.getKey(), partition.get(), log)) {
                continue;
            }
            LogOffsetMetadata end = params.isFromFollower() ? log.logEndOffsetMetadata()
                : params.isolationLevel() == IsolationLevel.READ_COMMITTED ? log.fetchLastStableOffsetMetadata()
                : log.fetchHighWatermarkMetadata();
            LogOffsetMetadata fetchOffset = e.getValue();
            if (end.messageOffset() < fetchOffset.messageOffset()) {
                return forceComplete();
            }
            if (end.messageOffset() > fetchOffset.messageOffset()) {
                if (!end.onSameSegment(fetchOffset)) {
                    return forceComplete();
                }
                int partitionMax = fetchInfos.get(e.getKey()).maxBytes();
                accumulatedBytes += Math.min(end.positionDiff(fetchOffset), partitionMax);
            }
        }
        return accumulatedBytes >= params.minBytes() && forceComplete();
    }

    @Override
    protected void onComplete() {
        LogReadResults read = reader.read(params, fetchInfos);
        delayed.checkAndCompleteLater(read.highWatermarkMoved());
        callback.accept(read.results());
    }
}
