package io.tributary.broker.transaction;

import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.coordinator.transaction.TransactionState;
import org.apache.kafka.coordinator.transaction.TxnTransitMetadata;
import org.apache.kafka.server.common.TransactionVersion;

/**
 * What the transaction coordinator knows of one {@code transactional.id} (KIP-98), as a record of
 * {@code __transaction_state} holds it: the producer id and epoch it hands out, the transaction's
 * state and partitions, and its timeout. Immutable: each step of the protocol is a new value, made
 * by one of the {@code with...} transitions, which refuse a step that Kafka's transition table
 * ({@link TransactionState#validPreviousStates()}) does not allow.
 *
 * @param transactionalId          the id
 * @param producerId               the producer id in use
 * @param previousProducerId       the producer id before the last rotation (epoch exhaustion), or -1
 * @param nextProducerId           a producer id handed out but not yet in use, or -1
 * @param producerEpoch            the current epoch, or -1 before the first InitProducerId
 * @param lastProducerEpoch        the epoch before the last bump, or -1; a producer retrying its
 *                                 InitProducerId with it gets the current epoch again (KIP-360)
 * @param transactionTimeoutMs     the client's {@code transaction.timeout.ms}, ms
 * @param state                    where the transaction is
 * @param partitions               the partitions of the ongoing transaction; empty unless Ongoing or Prepare*
 * @param transactionStartTimeMs   when the ongoing transaction added its first partition, ms, or -1
 * @param lastUpdateTimeMs         when the metadata last changed, ms
 * @param clientTransactionVersion the client's transaction protocol version (KIP-890), TV_0 before TV_2
 */
public record TransactionMetadata(String transactionalId, long producerId, long previousProducerId, long nextProducerId,
                                  short producerEpoch, short lastProducerEpoch, int transactionTimeoutMs,
                                  TransactionState state, Set<TopicPartition> partitions, long transactionStartTimeMs,
                                  long lastUpdateTimeMs, TransactionVersion clientTransactionVersion) {

    public TransactionMetadata {
        Objects.requireNonNull(transactionalId, "transactionalId");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(clientTransactionVersion, "clientTransactionVersion");
        partitions = Set.copyOf(partitions);
    }

    /** A transactional id seen for the first time, given a new producer id; its first InitProducerId bumps the epoch to 0. */
    public static TransactionMetadata initial(String transactionalId, long producerId, int transactionTimeoutMs,
                                              long nowMs) {
        return new TransactionMetadata(transactionalId, producerId, RecordBatch.NO_PRODUCER_ID,
            RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH, RecordBatch.NO_PRODUCER_EPOCH,
            transactionTimeoutMs, TransactionState.EMPTY, Set.of(), -1L, nowMs, TransactionVersion.TV_0);
    }

    /** Whether the epoch can no longer be bumped: the next InitProducerId needs a new producer id. */
    public boolean isProducerEpochExhausted() {
        return producerEpoch >= Short.MAX_VALUE - 1;
    }

    /**
     * InitProducerId for an id with no open transaction: {@code newEpoch} (the current one plus one,
     * or the current one for a retry) with {@code lastEpoch} remembered, and a fresh Empty state.
     *
     * @throws IllegalStateException when the epoch is exhausted or the state is not Empty or Complete*
     */
    public TransactionMetadata withEpoch(short newEpoch, short lastEpoch, int transactionTimeoutMs, long nowMs) {
        if (newEpoch > producerEpoch && isProducerEpochExhausted()) {
            throw new IllegalStateException("The epoch of producer " + producerId + " of " + transactionalId
                + " is exhausted");
        }
        return transition(TransactionState.EMPTY, producerId, newEpoch, lastEpoch, transactionTimeoutMs, Set.of(), -1L,
            nowMs);
    }

    /** InitProducerId once the epoch is exhausted: a new producer id at epoch 0, the old one kept as previous. */
    public TransactionMetadata withNewProducerId(long newProducerId, int transactionTimeoutMs, long nowMs) {
        checkTransition(TransactionState.EMPTY);
        return new TransactionMetadata(transactionalId, newProducerId, producerId, RecordBatch.NO_PRODUCER_ID, (short) 0,
            RecordBatch.NO_PRODUCER_EPOCH, transactionTimeoutMs, TransactionState.EMPTY, Set.of(), -1L, nowMs,
            clientTransactionVersion);
    }

    /**
     * AddPartitionsToTxn or AddOffsetsToTxn: the transaction is Ongoing with {@code added} among its
     * partitions; its start time is set when it begins here.
     */
    public TransactionMetadata withPartitionsAdded(Set<TopicPartition> added, long nowMs) {
        Set<TopicPartition> all = new HashSet<>(partitions);
        all.addAll(added);
        long start = state == TransactionState.ONGOING ? transactionStartTimeMs : nowMs;
        return transition(TransactionState.ONGOING, producerId, producerEpoch, lastProducerEpoch, transactionTimeoutMs,
            all, start, nowMs);
    }

    /** EndTxn (or a timeout's abort): PrepareCommit or PrepareAbort, the markers still to be written. */
    public TransactionMetadata withEndPrepared(boolean commit, long nowMs) {
        return transition(commit ? TransactionState.PREPARE_COMMIT : TransactionState.PREPARE_ABORT, producerId,
            producerEpoch, lastProducerEpoch, transactionTimeoutMs, partitions, transactionStartTimeMs, nowMs);
    }

    /**
     * A new producer instance, or the timeout, fences the one in an ongoing transaction: the epoch is
     * bumped so its writes fail (PRODUCER_FENCED), and the transaction will be aborted.
     */
    public TransactionMetadata withEpochFenced(long nowMs) {
        if (isProducerEpochExhausted()) {
            throw new IllegalStateException("Cannot fence producer " + producerId + " of " + transactionalId
                + ": its epoch is exhausted");
        }
        return transition(TransactionState.PREPARE_EPOCH_FENCE, producerId, (short) (producerEpoch + 1),
            RecordBatch.NO_PRODUCER_EPOCH, transactionTimeoutMs, partitions, transactionStartTimeMs, nowMs);
    }

    /** Every marker is written: CompleteCommit or CompleteAbort, with no partitions left. */
    public TransactionMetadata withCompleted(long nowMs) {
        TransactionState completed = switch (state) {
            case PREPARE_COMMIT -> TransactionState.COMPLETE_COMMIT;
            case PREPARE_ABORT -> TransactionState.COMPLETE_ABORT;
            default -> throw new IllegalStateException(transactionalId + " has no transaction to complete in state "
                + state.stateName());
        };
        return transition(completed, producerId, producerEpoch, lastProducerEpoch, transactionTimeoutMs, Set.of(),
            transactionStartTimeMs, nowMs);
    }

    /** {@code transactional.id.expiration.ms} passed without use: the id is removed (a tombstone follows). */
    public TransactionMetadata withDead(long nowMs) {
        return transition(TransactionState.DEAD, producerId, producerEpoch, lastProducerEpoch, transactionTimeoutMs,
            Set.of(), transactionStartTimeMs, nowMs);
    }

    /** The metadata in the shape Kafka's {@code __transaction_state} value encoder takes. */
    TxnTransitMetadata toTransit() {
        return new TxnTransitMetadata(producerId, previousProducerId, nextProducerId, producerEpoch, lastProducerEpoch,
            transactionTimeoutMs, state, new HashSet<>(partitions), transactionStartTimeMs, lastUpdateTimeMs,
            clientTransactionVersion);
    }

    private TransactionMetadata transition(TransactionState target, long newProducerId, short newEpoch,
                                           short newLastEpoch, int timeoutMs, Set<TopicPartition> newPartitions,
                                           long startMs, long nowMs) {
        checkTransition(target);
        return new TransactionMetadata(transactionalId, newProducerId, previousProducerId, nextProducerId, newEpoch,
            newLastEpoch, timeoutMs, target, newPartitions, startMs, nowMs, clientTransactionVersion);
    }

    private void checkTransition(TransactionState target) {
        if (!target.validPreviousStates().contains(state)) {
            throw new IllegalStateException(transactionalId + " cannot go from " + state.stateName() + " to "
                + target.stateName());
        }
    }
}
