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
 */
public record ShareGroupState(int stateEpoch, int leaderEpoch, long startOffset, List<PersistedStateBatch> stateBatches) {

    public ShareGroupState {
        stateBatches = List.copyOf(stateBatches);
    }
}
