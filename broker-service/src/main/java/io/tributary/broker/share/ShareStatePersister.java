package io.tributary.broker.share;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Where share-partitions keep their state (KIP-932), shaped like Kafka's
 * {@code org.apache.kafka.server.share.persister.Persister}: the broker's is
 * {@link io.tributary.broker.share.coordinator.ShareCoordinatorPersister}, durable in
 * {@code __share_group_state}; {@link InMemoryShareStatePersister} serves unit tests.
 *
 * <p>Every method is asynchronous and must not block its caller (they are called from request
 * handler threads and timer threads holding no lock). Failures complete the future exceptionally
 * with a Kafka {@link org.apache.kafka.common.errors.ApiException} (FENCED_STATE_EPOCH,
 * FENCED_LEADER_EPOCH, COORDINATOR_NOT_AVAILABLE, ...). Implementations are thread-safe.
 */
public interface ShareStatePersister {

    /** The state of a share-partition, or empty when none was ever initialized. */
    CompletableFuture<Optional<ShareGroupState>> readState(SharePartitionKey key);

    /**
     * The state of a share-partition, read by its leader in {@code leaderEpoch}: a share coordinator
     * stores a higher epoch (fencing the older leader's writes) and fails a lower one with
     * FENCED_LEADER_EPOCH. Implementations without leader epochs read as {@link #readState(SharePartitionKey)}.
     */
    default CompletableFuture<Optional<ShareGroupState>> readState(SharePartitionKey key, int leaderEpoch) {
        return readState(key);
    }

    /**
     * The summary of a share-partition's state as a group coordinator describes its offsets
     * (ReadShareGroupStateSummary, KIP-932): state epoch, the leader epoch stored by the share
     * coordinator, the start offset and the delivery complete count (KIP-1226, -1 when unknown), without
     * batches; empty when none was ever initialized. Reads
     * no leader epoch, so fences nobody. Implementations without a summary read as {@link #readState(SharePartitionKey)}.
     */
    default CompletableFuture<Optional<ShareGroupState>> readSummary(SharePartitionKey key) {
        return readState(key).thenApply(state -> state.map(s -> new ShareGroupState(s.stateEpoch(), s.leaderEpoch(),
            s.startOffset(), java.util.List.of(), s.deliveryCompleteCount())));
    }

    /**
     * Creates (or resets, with a higher state epoch) the state of a share-partition, without batches; its
     * delivery complete count starts at 0 (-1 when the start offset is -1), as Kafka 4.4's share coordinator
     * initializes it.
     */
    CompletableFuture<Void> initializeState(SharePartitionKey key, ShareGroupState state);

    /**
     * Replaces the state of a share-partition, with the delivery complete count the leader computed
     * ({@link ShareGroupState#deliveryCompleteCount()}, KIP-1226).
     *
     * @return fails with FENCED_LEADER_EPOCH when {@code state.leaderEpoch()} is below the stored one,
     *         FENCED_STATE_EPOCH when {@code state.stateEpoch()} is; COORDINATOR_NOT_AVAILABLE (or, from
     *         the share coordinator, a retriable coordinator error once its retries ran out) when it
     *         could not be stored. A write of a state never initialized is refused: COORDINATOR_NOT_AVAILABLE
     *         in memory, INVALID_REQUEST from the share coordinator (as Kafka 4.4's)
     */
    CompletableFuture<Void> writeState(SharePartitionKey key, ShareGroupState state);

    /** Removes the state of a share-partition (its group deleted or its offsets reset). */
    CompletableFuture<Void> deleteState(SharePartitionKey key);
}
