package io.tributary.broker.share;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.group.ShareGroupStateClient.LatestOffset;
import io.tributary.broker.replica.InterBrokerSender;
import io.tributary.broker.replica.ListOffsetResult;
import io.tributary.broker.replica.ReplicaManager;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.common.requests.ListOffsetsResponse;

/**
 * A partition's latest offset (ListOffsets LATEST, read_uncommitted: its high watermark) read from its
 * leader, as Kafka 4.4's group coordinator reads it to compute share-partition lag (KIP-1226, its
 * {@code NetworkPartitionMetadataClient}): from this broker's replica when it leads the partition, else
 * with a ListOffsets request over the inter-broker listener.
 *
 * <p>Errors are values: LEADER_NOT_AVAILABLE when the metadata knows no leader, the leader's error,
 * or the failure of the request (a timeout, a lost connection). Thread-safe; never blocks the caller
 * beyond reading the local replica's offsets.
 */
public final class PartitionLatestOffsets {

    private final int localBrokerId;
    private final ReplicaManager replicaManager;
    private final MetadataCache metadataCache;
    private final InterBrokerSender sender;

    /** @param sender reaches the other brokers (shared with the share-state persister; closed with it) */
    public PartitionLatestOffsets(int localBrokerId, ReplicaManager replicaManager, MetadataCache metadataCache,
                                  InterBrokerSender sender) {
        this.localBrokerId = localBrokerId;
        this.replicaManager = replicaManager;
        this.metadataCache = metadataCache;
        this.sender = sender;
    }

    /** The latest offset of {@code tp}, or why it could not be read. */
    public CompletableFuture<LatestOffset> latestOffset(TopicPartition tp) {
        Optional<LeaderAndIsr> state = metadataCache.partitionState(tp).filter(LeaderAndIsr::hasLeader);
        if (state.isEmpty()) {
            return CompletableFuture.completedFuture(new LatestOffset(Errors.LEADER_NOT_AVAILABLE, -1));
        }
        if (state.get().leader() == localBrokerId) {
            ListOffsetResult local = replicaManager.listOffset(tp, ListOffsetsRequest.LATEST_TIMESTAMP,
                IsolationLevel.READ_UNCOMMITTED, -1);
            return CompletableFuture.completedFuture(new LatestOffset(local.error(),
                local.error() == Errors.NONE ? local.offset() : -1));
        }
        ListOffsetsRequest.Builder request = ListOffsetsRequest.Builder.forConsumer(false, IsolationLevel.READ_UNCOMMITTED)
            .setTargetTimes(List.of(new ListOffsetsRequestData.ListOffsetsTopic().setName(tp.topic())
                .setPartitions(List.of(new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(tp.partition())
                    .setTimestamp(ListOffsetsRequest.LATEST_TIMESTAMP).setCurrentLeaderEpoch(-1)))));
        CompletableFuture<LatestOffset> sent;
        try {
            sent = sender.send(state.get().leader(), request).thenApply(response -> {
                ListOffsetsResponseData.ListOffsetsPartitionResponse p = ((ListOffsetsResponse) response).data()
                    .topics().get(0).partitions().get(0);
                Errors error = Errors.forCode(p.errorCode());
                return new LatestOffset(error, error == Errors.NONE ? p.offset() : -1);
            });
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        return sent.exceptionally(e -> new LatestOffset(errorOf(e), -1));
    }

    private static Errors errorOf(Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        Errors error = Errors.forException(cause);
        return error == Errors.UNKNOWN_SERVER_ERROR ? Errors.REQUEST_TIMED_OUT : error;
    }
}
