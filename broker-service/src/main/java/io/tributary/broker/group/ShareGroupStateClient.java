package io.tributary.broker.group;

import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.protocol.Errors;

/**
 * The share coordinator as the group coordinator reaches it for share groups' offsets (KIP-932), as
 * Kafka's {@code GroupCoordinatorService} uses its {@code Persister}: ReadShareGroupStateSummary,
 * InitializeShareGroupState and DeleteShareGroupState of one share-partition; and a partition's latest
 * offset from its leader, for share-partition lag (KIP-1226, Kafka's {@code PartitionMetadataClient}). The broker's is
 * {@code io.tributary.broker.share.ShareGroupStates}, which reaches the share coordinator on this
 * broker or another (this package cannot name it: the share layer depends on this one).
 *
 * <p>Every call is asynchronous and never blocks its caller (event loops included); outcomes are
 * values, never exceptional futures. Implementations are thread-safe.
 */
public interface ShareGroupStateClient {

    /**
     * A share-partition's state summary.
     *
     * @param error       NONE, or the share coordinator's error (COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR,
     *                    ... once the client's retries ran out)
     * @param stateEpoch  the state epoch, 0 when none was initialized
     * @param leaderEpoch the leader epoch the share coordinator stores, -1 for none
     * @param startOffset the share-partition start offset (SPSO), -1 when never initialized
     * @param deliveryCompleteCount offsets at or after the SPSO whose delivery is complete (KIP-1226), -1 when
     *                    unknown (state written by an older leader, or none)
     */
    record Summary(Errors error, int stateEpoch, int leaderEpoch, long startOffset, int deliveryCompleteCount) {

        /** A summary without a delivery complete count (-1). */
        public Summary(Errors error, int stateEpoch, int leaderEpoch, long startOffset) {
            this(error, stateEpoch, leaderEpoch, startOffset, -1);
        }

        /** Whether the share-partition has state. */
        public boolean initialized() {
            return error == Errors.NONE && startOffset >= 0;
        }
    }

    /**
     * A partition's latest offset as a consumer lists it (ListOffsets LATEST, read_uncommitted: the high
     * watermark), from its leader, as Kafka 4.4's group coordinator reads it for share-partition lag.
     *
     * @param error  NONE, or why there is no offset (NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE,
     *               UNKNOWN_TOPIC_OR_PARTITION, REQUEST_TIMED_OUT, ...)
     * @param offset the offset, -1 on error
     */
    record LatestOffset(Errors error, long offset) {
    }

    /** The latest offset of {@code partition}; the default knows none (LEADER_NOT_AVAILABLE). */
    default CompletableFuture<LatestOffset> latestOffset(TopicIdPartition partition) {
        return CompletableFuture.completedFuture(new LatestOffset(Errors.LEADER_NOT_AVAILABLE, -1));
    }

    /** The summary of {@code partition}'s state in {@code groupId}. */
    CompletableFuture<Summary> readSummary(String groupId, TopicIdPartition partition);

    /**
     * (Re)initializes {@code partition}'s state in {@code groupId} at {@code startOffset} in
     * {@code stateEpoch}: its batches are dropped and a share-partition loaded on its leader is
     * loaded again from it.
     */
    CompletableFuture<Errors> initialize(String groupId, TopicIdPartition partition, int stateEpoch, long startOffset);

    /** Deletes {@code partition}'s state in {@code groupId}; NONE when there was none. */
    CompletableFuture<Errors> delete(String groupId, TopicIdPartition partition);

    /** No share coordinator: every call answers COORDINATOR_NOT_AVAILABLE (tests, brokers without share groups). */
    ShareGroupStateClient NONE = new ShareGroupStateClient() {
        @Override
        public CompletableFuture<Summary> readSummary(String groupId, TopicIdPartition partition) {
            return CompletableFuture.completedFuture(new Summary(Errors.COORDINATOR_NOT_AVAILABLE, 0, -1, -1));
        }

        @Override
        public CompletableFuture<Errors> initialize(String groupId, TopicIdPartition partition, int stateEpoch,
                                                    long startOffset) {
            return CompletableFuture.completedFuture(Errors.COORDINATOR_NOT_AVAILABLE);
        }

        @Override
        public CompletableFuture<Errors> delete(String groupId, TopicIdPartition partition) {
            return CompletableFuture.completedFuture(Errors.COORDINATOR_NOT_AVAILABLE);
        }
    };
}
