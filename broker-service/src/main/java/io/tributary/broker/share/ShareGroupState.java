package io.tributary.broker.share;

import java.util.List;

/**
 * The durable state of one share-partition, as a share coordinator reads and writes it (Kafka's
 * {@code ReadShareGroupState} / {@code WriteShareGroupState} data, KIP-932).
 *
 * @param stateEpoch   epoch of the state itself, bumped when it is re-initialized (an offset reset)
 * @param leaderEpoch  leader epoch of the partition leader that wrote it; a write from an older
 *                     leader epoch is fenced
 * @param startOffset  the share-partition start offset (SPSO): every record before it is done
 * @param stateBatches the in-flight records at and after the SPSO that are not simply AVAILABLE
 *                     with no delivery, by offset
 * @param deliveryCompleteCount offsets at or after the SPSO whose delivery is complete (acknowledged or
 *                     archived), as the share-partition leader writes it (KIP-1226, WriteShareGroupState v1);
 *                     -1 when unknown (a state written by an older leader, or never initialized)
 */
public record ShareGroupState(int stateEpoch, int leaderEpoch, long startOffset, List<PersistedStateBatch> stateBatches,
                              int deliveryCompleteCount) {

    public ShareGroupState {
        stateBatches = List.copyOf(stateBatches);
    }

    /** A state whose delivery complete count is unknown (-1). */
    public ShareGroupState(int stateEpoch, int leaderEpoch, long startOffset, List<PersistedStateBatch> stateBatches) {
        this(stateEpoch, leaderEpoch, startOffset, stateBatches, -1);
    }
}
