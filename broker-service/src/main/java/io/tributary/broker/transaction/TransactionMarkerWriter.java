package io.tributary.broker.transaction;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.TopicPartition;

/**
 * Writes a transaction's COMMIT or ABORT markers to the leaders of its partitions
 * (WriteTxnMarkers, KIP-98), retrying each partition until its leader has written it, across
 * leader moves; a partition that no longer exists is given up.
 *
 * <p>Thread-safety: implementations are thread-safe; the future completes on any thread.
 */
public interface TransactionMarkerWriter {

    /**
     * @param producerId       the transaction's producer
     * @param producerEpoch    its epoch (the bumped one for a fenced producer's abort)
     * @param coordinatorEpoch the coordinator epoch the markers carry, which the leaders check
     * @param commit           COMMIT markers, else ABORT
     * @param stillCoordinating whether this broker still coordinates the transaction in
     *                          {@code coordinatorEpoch}; once it does not, the writes stop
     * @return completes once every partition has its marker (or no longer exists); fails when this
     *         coordinator stops coordinating the transaction or a leader finds it fenced (the next
     *         coordinator writes them)
     */
    CompletableFuture<Void> writeMarkers(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit,
                                         Set<TopicPartition> partitions, BooleanSupplier stillCoordinating);
}
