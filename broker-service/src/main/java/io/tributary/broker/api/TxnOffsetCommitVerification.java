package io.tributary.broker.api;

import io.tributary.broker.group.TransactionVerifier;
import io.tributary.broker.producer.VerificationGuard;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.transaction.AddPartitionsToTxnManager;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * The verification of a TxnOffsetCommit's transaction (KIP-890 part 1, as Kafka's
 * {@code ReplicaManager.maybeStartTransactionVerificationForPartition} for the group coordinator):
 * the group's {@code __consumer_offsets} partition gets a {@link VerificationGuard} from its log
 * unless the producer already has a transaction open there, and the transaction coordinator is
 * asked whether that partition is in the producer's transaction ({@link AddPartitionsToTxnManager},
 * from memory or over the inter-broker listener). An offset commit carries no sequence.
 *
 * <p>Thread-safety: thread-safe. An answer that came over the network is handed to
 * {@code handlerExecutor}, so the group coordinator goes on on a request handler thread.
 */
final class TxnOffsetCommitVerification implements TransactionVerifier {

    private final ReplicaManager replicaManager;
    private final AddPartitionsToTxnManager verifier;
    private final Executor handlerExecutor;
    private final boolean abortableSupported;

    /**
     * @param abortableSupported the request is TxnOffsetCommit v4 or later, whose clients know
     *                           TRANSACTION_ABORTABLE (older ones get INVALID_TXN_STATE)
     */
    TxnOffsetCommitVerification(ReplicaManager replicaManager, AddPartitionsToTxnManager verifier,
                                Executor handlerExecutor, boolean abortableSupported) {
        this.replicaManager = replicaManager;
        this.verifier = verifier;
        this.handlerExecutor = handlerExecutor;
        this.abortableSupported = abortableSupported;
    }

    @Override
    public CompletableFuture<Verification> verify(TopicPartition offsetsPartition, String transactionalId,
                                                  long producerId, short producerEpoch) {
        VerificationGuard guard;
        try {
            guard = replicaManager.maybeStartTransactionVerification(offsetsPartition, producerId,
                RecordBatch.NO_SEQUENCE, producerEpoch);
        } catch (ApiException e) {
            return CompletableFuture.completedFuture(new Verification(Errors.forException(e), VerificationGuard.SENTINEL));
        }
        if (guard == VerificationGuard.SENTINEL) {
            // The transaction is open on the partition already: its earlier offsets were verified.
            return CompletableFuture.completedFuture(new Verification(Errors.NONE, guard));
        }
        CompletableFuture<Map<TopicPartition, Errors>> unverified = verifier.verifyTransaction(transactionalId,
            producerId, producerEpoch, List.of(offsetsPartition), abortableSupported);
        java.util.function.Function<Map<TopicPartition, Errors>, Verification> toVerification = errors ->
            new Verification(errors.getOrDefault(offsetsPartition, Errors.NONE), guard);
        return unverified.isDone() ? unverified.thenApply(toVerification)
            : unverified.thenApplyAsync(toVerification, handlerExecutor);
    }
}
