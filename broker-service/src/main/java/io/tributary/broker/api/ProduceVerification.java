package io.tributary.broker.api;

import io.tributary.broker.producer.VerificationGuard;
import io.tributary.broker.replica.ProduceResult;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.transaction.AddPartitionsToTxnManager;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * A transactional produce as Kafka's {@code ReplicaManager.handleProduceAppend} runs it (KIP-890
 * part 1): each partition where the producer has no transaction open yet gets a verification guard
 * ({@link ReplicaManager#maybeStartTransactionVerification}); the transaction coordinator is asked
 * whether those partitions are in the producer's transaction ({@link AddPartitionsToTxnManager});
 * then the verified partitions are appended holding their guards, and the others answered with
 * the coordinator's error as a producer handles it: INVALID_TXN_STATE ("Partition was not added
 * to the transaction"), INVALID_PRODUCER_EPOCH or TRANSACTION_ABORTABLE; and NOT_ENOUGH_REPLICAS
 * (retriable, no metadata refresh) for CONCURRENT_TRANSACTIONS, NETWORK_EXCEPTION,
 * COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE and NOT_COORDINATOR, which older clients
 * would not retry. A request whose transactional batches come from more than one producer id and
 * epoch never gets here: {@link ProduceHandler} refuses it whole (INVALID_PRODUCER_ID_MAPPING).
 *
 * <p>Thread-safety: thread-safe. A verification answered from memory (this broker coordinates the
 * id) appends on the calling request handler thread; one answered over the network appends on
 * {@code handlerExecutor}, never on the thread that received the answer.
 */
final class ProduceVerification {

    private final ReplicaManager replicaManager;
    private final AddPartitionsToTxnManager verifier;
    private final Executor handlerExecutor;

    ProduceVerification(ReplicaManager replicaManager, AddPartitionsToTxnManager verifier, Executor handlerExecutor) {
        this.replicaManager = replicaManager;
        this.verifier = verifier;
        this.handlerExecutor = handlerExecutor;
    }

    /**
     * @param abortableSupported the produce is v11 or later (its client knows TRANSACTION_ABORTABLE)
     */
    CompletableFuture<Map<TopicPartition, ProduceResult>> append(String transactionalId, boolean abortableSupported,
            long timeoutMs, short acks, Map<TopicPartition, MemoryRecords> entries) {
        Map<TopicPartition, Integer> firstSequences = new LinkedHashMap<>();
        long producerId = RecordBatch.NO_PRODUCER_ID;
        short epoch = RecordBatch.NO_PRODUCER_EPOCH;
        for (Map.Entry<TopicPartition, MemoryRecords> e : entries.entrySet()) {
            for (RecordBatch batch : e.getValue().batches()) {
                if (batch.hasProducerId() && batch.isTransactional()) {
                    producerId = batch.producerId(); // one producer id and epoch: ProduceHandler checked
                    epoch = batch.producerEpoch();
                    firstSequences.putIfAbsent(e.getKey(), batch.baseSequence());
                }
            }
        }
        if (firstSequences.isEmpty()) {
            return replicaManager.appendRecords(timeoutMs, acks, entries);
        }
        long verifiedProducerId = producerId;
        short verifiedEpoch = epoch;
        Map<TopicPartition, VerificationGuard> guards = new HashMap<>();
        Map<TopicPartition, ProduceResult> refused = new LinkedHashMap<>();
        java.util.List<TopicPartition> toVerify = new java.util.ArrayList<>();
        firstSequences.forEach((tp, sequence) -> {
            try {
                VerificationGuard guard = replicaManager.maybeStartTransactionVerification(tp, verifiedProducerId, sequence, verifiedEpoch);
                guards.put(tp, guard);
                if (guard != VerificationGuard.SENTINEL) {
                    toVerify.add(tp);
                }
            } catch (ApiException e) {
                refused.put(tp, ProduceResult.error(Errors.forException(e), e.getMessage()));
            }
        });
        if (toVerify.isEmpty()) {
            return appendRest(timeoutMs, acks, entries, guards, refused);
        }
        CompletableFuture<Map<TopicPartition, Errors>> verified = verifier.verifyTransaction(transactionalId, verifiedProducerId,
            verifiedEpoch, toVerify, abortableSupported);
        java.util.function.Function<Map<TopicPartition, Errors>, CompletableFuture<Map<TopicPartition, ProduceResult>>>
            then = unverified -> {
                unverified.forEach((tp, error) -> refused.put(tp, forProducer(error)));
                return appendRest(timeoutMs, acks, entries, guards, refused);
            };
        return verified.isDone() ? verified.thenCompose(then) : verified.thenComposeAsync(then, handlerExecutor);
    }

    private CompletableFuture<Map<TopicPartition, ProduceResult>> appendRest(long timeoutMs, short acks,
            Map<TopicPartition, MemoryRecords> entries, Map<TopicPartition, VerificationGuard> guards,
            Map<TopicPartition, ProduceResult> refused) {
        Map<TopicPartition, MemoryRecords> rest = new LinkedHashMap<>(entries);
        rest.keySet().removeAll(refused.keySet());
        if (rest.isEmpty()) {
            return CompletableFuture.completedFuture(refused);
        }
        return replicaManager.appendRecords(timeoutMs, acks, rest, guards).thenApply(appended -> {
            Map<TopicPartition, ProduceResult> all = new LinkedHashMap<>(appended);
            all.putAll(refused);
            return all;
        });
    }

    /** A coordinator's verification error as a producer's partition response carries it (Kafka's mapping). */
    private static ProduceResult forProducer(Errors error) {
        return switch (error) {
            case INVALID_TXN_STATE -> ProduceResult.error(error, "Partition was not added to the transaction");
            case CONCURRENT_TRANSACTIONS, NETWORK_EXCEPTION, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE,
                 NOT_COORDINATOR -> ProduceResult.error(Errors.NOT_ENOUGH_REPLICAS,
                "Unable to verify the partition has been added to the transaction. Underlying error: " + error);
            default -> ProduceResult.error(error, error.message());
        };
    }
}
