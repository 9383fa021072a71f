package io.tributary.broker.share;

import io.tributary.broker.group.ShareGroupStateClient;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.protocol.Errors;

/**
 * The group coordinator's way to the share coordinator (KIP-932): {@link ShareGroupStateClient} over
 * this broker's {@link ShareStatePersister}, which reaches the share coordinator here or on another
 * broker, retrying while it moves. After a share-partition's state is initialized again or deleted
 * (its group's offsets altered or deleted, its group deleted), the share-partition this broker may
 * have loaded is fenced, so the next ShareFetch loads it from the new state. Another broker dropped
 * the group's share-partitions when the group's last share session there closed (offsets are altered
 * or deleted only in an empty group; {@link ShareComponents#sessionClosed}), and one it still holds
 * finds out when its next state write is fenced by the new state epoch.
 *
 * <p>Thread-safe; never blocks.
 */
public final class ShareGroupStates implements ShareGroupStateClient {

    private final ShareStatePersister persister;
    private final SharePartitionManager partitions;
    private final PartitionLatestOffsets latestOffsets;

    public ShareGroupStates(ShareStatePersister persister, SharePartitionManager partitions) {
        this(persister, partitions, null);
    }

    /** @param latestOffsets reads partitions' latest offsets from their leaders (share-partition lag); null for none */
    public ShareGroupStates(ShareStatePersister persister, SharePartitionManager partitions,
                            PartitionLatestOffsets latestOffsets) {
        this.persister = persister;
        this.partitions = partitions;
        this.latestOffsets = latestOffsets;
    }

    @Override
    public CompletableFuture<Summary> readSummary(String groupId, TopicIdPartition partition) {
        return persister.readSummary(new SharePartitionKey(groupId, partition)).handle((state, e) -> e != null
            ? new Summary(errorOf(e), 0, -1, -1)
            : state.map(s -> new Summary(Errors.NONE, s.stateEpoch(), s.leaderEpoch(), s.startOffset(),
                    s.deliveryCompleteCount()))
                .orElse(new Summary(Errors.NONE, 0, -1, -1)));
    }

    @Override
    public CompletableFuture<LatestOffset> latestOffset(TopicIdPartition partition) {
        return latestOffsets == null ? ShareGroupStateClient.super.latestOffset(partition)
            : latestOffsets.latestOffset(partition.topicPartition());
    }

    @Override
    public CompletableFuture<Errors> initialize(String groupId, TopicIdPartition partition, int stateEpoch,
                                               long startOffset) {
        SharePartitionKey key = new SharePartitionKey(groupId, partition);
        return persister.initializeState(key, new ShareGroupState(stateEpoch, -1, startOffset, java.util.List.of()))
            .handle((v, e) -> outcome(key, e));
    }

    @Override
    public CompletableFuture<Errors> delete(String groupId, TopicIdPartition partition) {
        SharePartitionKey key = new SharePartitionKey(groupId, partition);
        return persister.deleteState(key).handle((v, e) -> outcome(key, e));
    }

    private Errors outcome(SharePartitionKey key, Throwable failure) {
        Optional<SharePartition> loaded = partitions.sharePartition(key);
        loaded.ifPresent(SharePartition::fence);
        return failure == null ? Errors.NONE : errorOf(failure);
    }

    private static Errors errorOf(Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        Errors error = Errors.forException(cause);
        return error == Errors.UNKNOWN_SERVER_ERROR ? Errors.COORDINATOR_NOT_AVAILABLE : error;
    }
}
