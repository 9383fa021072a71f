package io.tributary.broker.group;

import io.tributary.broker.producer.VerificationGuard;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;

/**
 * How the group coordinator has a TxnOffsetCommit's transaction verified before it writes the
 * offsets as the producer's transactional batch (KIP-890 part 1, as Kafka's
 * {@code GroupCoordinator.handleTxnCommitOffsets} does since 3.6): the transaction coordinator
 * confirms that the group's {@code __consumer_offsets} partition is in the producer's ongoing
 * transaction (added by AddOffsetsToTxn), so a late or retried TxnOffsetCommit cannot open a
 * transaction on that partition that no marker ever ends, which would hold its last stable offset
 * and every read_committed offset fetch of its groups.
 *
 * <p>Thread-safety: implementations are thread-safe; the future may complete on any thread, and
 * the group coordinator goes on from there (a store takes the group's lock and appends without
 * waiting for I/O).
 */
@FunctionalInterface
public interface TransactionVerifier {

    /** Verification off ({@code transaction.partition.verification.enable=false}): every commit goes on unchecked. */
    TransactionVerifier DISABLED = (offsetsPartition, transactionalId, producerId, producerEpoch) ->
        CompletableFuture.completedFuture(new Verification(Errors.NONE, VerificationGuard.NOT_REQUIRED));

    /**
     * @param offsetsPartition the group's partition of {@code __consumer_offsets}, led by this broker
     * @return NONE and the guard the offsets' append must hold; or the error that answers the
     *         commit: the coordinator's (INVALID_TXN_STATE or TRANSACTION_ABORTABLE when the partition
     *         is not in the transaction, INVALID_PRODUCER_EPOCH, CONCURRENT_TRANSACTIONS, ...) or the
     *         partition's (NOT_LEADER_OR_FOLLOWER, ...), before {@link OffsetCommitErrors} maps it;
     *         never fails
     */
    CompletableFuture<Verification> verify(TopicPartition offsetsPartition, String transactionalId, long producerId,
                                           short producerEpoch);

    /** The outcome of a verification: {@code guard} is meaningful only when {@code error} is NONE. */
    record Verification(Errors error, VerificationGuard guard) {
    }
}
